#!/usr/bin/env python3
"""sphere_bin.py OUT.bin - a stand-in for a glTF sample's binary buffer that holds spheres.

Some glTF samples keep their geometry in a .bin file, which the manifest's tools cannot fetch
(binary); where the sample's meshes are spheres, this writes a buffer of the sample's layout
with UV spheres of the same radius in their place, so that the sample's JSON (camera, lights,
materials, nodes) can be rendered as given. Used for glTF-Sample-Assets' DirectionalLight
(tools/import-manifest/gltf.tsv says so in its note): seven views: (positions 5374 x VEC3,
normals 5374 x VEC3) x 3 meshes, with one shared index view of 31800 UNSIGNED_SHORT, laid out
as the sample's bufferViews are (positions, normals, indices, positions, normals, positions,
normals), radius 0.0723.
"""
import math
import struct
import sys

VERTICES, INDICES, RADIUS = 5374, 31800, 0.0723


def sphere():
    rings, segments = 50, 100
    pos, nrm, idx = [], [], []
    for i in range(rings + 1):
        theta = math.pi * i / rings
        for j in range(segments + 1):
            phi = 2 * math.pi * j / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta), math.sin(theta) * math.sin(phi))
            nrm.append(n)
            pos.append(tuple(RADIUS * c for c in n))
    for i in range(rings):
        for j in range(segments):
            a, b = i * (segments + 1) + j, (i + 1) * (segments + 1) + j
            idx += [a, a + 1, b, a + 1, b + 1, b]
    while len(pos) < VERTICES:
        pos.append(pos[0])
        nrm.append(nrm[0])
    idx += [0] * (INDICES - len(idx))
    return pos, nrm, idx


def main():
    pos, nrm, idx = sphere()
    vec = lambda vs: b"".join(struct.pack("<3f", *v) for v in vs)
    data = vec(pos) + vec(nrm) + struct.pack("<%dH" % len(idx), *idx) + (vec(pos) + vec(nrm)) * 2
    assert len(data) == 450528, len(data)
    with open(sys.argv[1], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
