#!/usr/bin/env python3
"""pbrt_standins.py DIR - writes into DIR (a folder of copies of the scenes in pbrt.tsv) the
stand-ins that pbrt.tsv's notes name, for files a scene needs that could not be copied here
(binary .ply meshes, images, the 286 kB killeroo meshes): a small binary PLY (a quad and a
tetrahedron), a PNG from raystream's scenes/textures, a loopsubdiv icosahedron of the killeroo's
size, and gold's eta and k as short spectrum files (a few approximate samples). A scene
rendered with stand-ins tests everything but the stand-in's geometry or texels."""
import math
import os
import shutil
import struct
import sys

root = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
png = os.path.join(here, "..", "..", "scenes", "textures", "quadrants.png")


def ply(path):
    v = [(-1, 0, -1, 0, 0), (1, 0, -1, 1, 0), (1, 0, 1, 1, 1), (-1, 0, 1, 0, 1), (0, 0.2, 0, 0, 0),
         (0.5, 0.2, 0, 1, 0), (0, 0.7, 0, 0.5, 1), (0, 0.2, 0.5, 0, 1)]
    f = [(0, 3, 2, 1), (4, 5, 6), (4, 6, 7), (4, 7, 5), (5, 7, 6)]
    head = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
            "property float z\nproperty float u\nproperty float v\nelement face %d\n"
            "property list uchar int vertex_indices\nend_header\n" % (len(v), len(f)))
    body = b"".join(struct.pack("<5f", *x) for x in v)
    body += b"".join(struct.pack("<B%di" % len(x), len(x), *x) for x in f)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(head.encode() + body)


def killeroo(path, levels):
    t = (1 + 5 ** 0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
         (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
         (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    # the killeroo spans about x -40..40, y -40..90, z -140..0
    p = " ".join("%g %g %g" % (40 * a, 25 + 40 * b, -70 + 40 * c) for a, b, c in v)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write('# stand-in (tools/import-manifest/pbrt_standins.py)\nShape "loopsubdiv" '
                          '"integer levels" [ %d ] "point3 P" [ %s ] "integer indices" [ %s ]\n'
                          % (levels, p, " ".join("%d %d %d" % x for x in f)))


standins = {
    "pbrt-book/geometry/mesh_00001.ply": ply, "pbrt-book/geometry/mesh_00002.ply": ply,
    "pbrt-book/geometry/mesh_00003.ply": ply,
}
for path, make in standins.items():
    make(os.path.join(root, path))
for name in ("book_pbrt", "book_pages", "uneven_bump"):
    os.makedirs(os.path.join(root, "pbrt-book", "texture"), exist_ok=True)
    shutil.copy(png, os.path.join(root, "pbrt-book", "texture", name + ".png"))
killeroo(os.path.join(root, "killeroos", "geometry", "killeroo.pbrt"), 1)
killeroo(os.path.join(root, "killeroos", "geometry", "killeroo3.pbrt"), 3)
os.makedirs(os.path.join(root, "killeroos", "textures"), exist_ok=True)
shutil.copy(png, os.path.join(root, "killeroos", "textures", "lines.png"))
os.makedirs(os.path.join(root, "killeroos", "spds"), exist_ok=True)
# gold (Johnson and Christy 1972), a few samples: wavelength nm, value
open(os.path.join(root, "killeroos", "spds", "Au.eta.spd"), "w").write(
    "# stand-in\n400 1.658\n450 1.510\n500 0.970\n550 0.430\n600 0.250\n650 0.170\n700 0.160\n")
open(os.path.join(root, "killeroos", "spds", "Au.k.spd"), "w").write(
    "# stand-in\n400 1.956\n450 1.880\n500 1.870\n550 2.455\n600 2.982\n650 3.615\n700 3.950\n")
