#!/usr/bin/env python3
"""pbrt_standins.py DIR - writes into DIR (a folder of copies of the scenes in pbrt.tsv) the
stand-ins that pbrt.tsv's notes name, for files a scene needs that could not be copied here
(binary .ply meshes, images, the 286 kB killeroo meshes): a small binary PLY (a quad and a
tetrahedron), a PNG from raystream's scenes/textures, a loopsubdiv icosahedron of the killeroo's
size, and gold's eta and k as short spectrum files (a few approximate samples); for the image
infinite lights, a 64x64 sky (blue towards the light's +z, a dim ground, a sun) as an uncompressed
OpenEXR file in pbrt-v4's equal-area octahedral layout. A scene rendered with stand-ins tests
everything but the stand-in's geometry or texels."""
import gzip
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


def square_to_sphere(u, v):
    """pbrt-v4's equal-area octahedral mapping (Clarberg 2008), +z at the square's centre."""
    a, b = 2 * u - 1, 2 * v - 1
    d = 1 - (abs(a) + abs(b))
    r = 1 - abs(d)
    phi = ((abs(b) - abs(a)) / r + 1 if r > 0 else 1) * math.pi / 4
    ring = r * math.sqrt(max(0.0, 2 - r * r))
    return (math.copysign(math.cos(phi) * ring, a), math.copysign(math.sin(phi) * ring, b),
            math.copysign(1 - r * r, d))


def sky_exr(path, size=64):
    sun = (0.5, 0.3, 0.81)
    n = math.sqrt(sum(c * c for c in sun))
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            w = square_to_sphere((x + 0.5) / size, (y + 0.5) / size)
            if w[2] > 0:
                c = (0.6 + 0.4 * (1 - w[2]), 0.75 + 0.25 * (1 - w[2]), 1.0)
            else:
                c = (0.15, 0.13, 0.1)
            if sum(a * b / n for a, b in zip(w, sun)) > 0.995:
                c = (400.0, 380.0, 330.0)
            row.append(c)
        rows.append(row)
    def attr(name, kind, value):
        return name.encode() + b"\0" + kind.encode() + b"\0" + struct.pack("<i", len(value)) + value
    chans = b"".join(c + b"\0" + struct.pack("<iB3xii", 2, 0, 1, 1) for c in (b"B", b"G", b"R")) + b"\0"
    box = struct.pack("<4i", 0, 0, size - 1, size - 1)
    head = (struct.pack("<Ii", 20000630, 2) + attr("channels", "chlist", chans) +
            attr("compression", "compression", b"\0") + attr("dataWindow", "box2i", box) +
            attr("displayWindow", "box2i", box) + attr("lineOrder", "lineOrder", b"\0") +
            attr("pixelAspectRatio", "float", struct.pack("<f", 1)) +
            attr("screenWindowCenter", "v2f", struct.pack("<2f", 0, 0)) +
            attr("screenWindowWidth", "float", struct.pack("<f", 1)) + b"\0")
    lines = []
    for y, row in enumerate(rows):
        data = b"".join(struct.pack("<%df" % size, *(c[k] for c in row)) for k in (2, 1, 0))
        lines.append(struct.pack("<ii", y, len(data)) + data)
    offset = len(head) + 8 * size
    table = b""
    for line in lines:
        table += struct.pack("<Q", offset)
        offset += len(line)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(head + table + b"".join(lines))


def ply_gz(path):
    ply(path + ".tmp")
    data = open(path + ".tmp", "rb").read()
    os.remove(path + ".tmp")
    open(path, "wb").write(gzip.compress(data))


standins = {
    "pbrt-book/geometry/mesh_00001.ply": ply, "pbrt-book/geometry/mesh_00002.ply": ply,
    "pbrt-book/geometry/mesh_00003.ply": ply,
    "ganesha/geometry/ganesha.ply.gz": ply_gz, "head/geometry/head.ply": ply,
    "dambreak/geometry/dambreak0.ply": ply, "dambreak/geometry/mesh_00008.ply": ply,
}
for i in range(1, 7):
    standins["dambreak/geometry/mesh_%05d.ply" % i] = ply
for i in range(11):
    standins["veach-bidir/geometry/bidir_%d.ply" % i] = ply
for scene in ("bunny-cloud/textures/sky.exr", "explosion/textures/sky.exr", "dambreak/textures/sky.exr",
              "ganesha/textures/sky.exr", "lte-orb/textures/small_rural_road_equiarea.exr",
              "head/textures/doge2_equiarea.exr"):
    standins[scene] = sky_exr
for name in ("ganesha/textures/ganesha.png", "head/textures/head_albedomap.png"):
    os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
    shutil.copy(png, os.path.join(root, name))
os.makedirs(os.path.join(root, "lte-orb", "geometry"), exist_ok=True)
open(os.path.join(root, "lte-orb", "geometry", "geometry-simple.pbrt"), "w").write(
    '# stand-in (tools/import-manifest/pbrt_standins.py): the orb as a ball, in the scene\'s "Material"\n'
    'NamedMaterial "Material"\nAttributeBegin\nTranslate 0 0.1 0\nShape "sphere" "float radius" 0.1\nAttributeEnd\n')
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
