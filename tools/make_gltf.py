#!/usr/bin/env python3
"""make_gltf.py - writes a small glTF 2.0 file: a textured, smooth-shaded pyramid on a gold base.

    tools/make_gltf.py [OUT_DIR]      default: scenes/gltf

Writes pyramid.gltf (JSON with the buffer inline as base64) and uses ../textures/checker.png
(tools/make_textures.py) as its base colour texture. Four triangular sides and a square base;
vertices carry POSITION, NORMAL (the sides' normals tilted, so shading is smooth across each
side's edges) and TEXCOORD_0. The sides' material is a textured dielectric (metallic 0, roughness
0.4) with ../textures/bumps_normal.png as its normal map, the base's a gold metal (metallic 1,
roughness 1) whose metallic-roughness map ../textures/gold_mr.png sets metallic 1 and a striped
roughness: raystream maps them onto plastic and conductor. Used by scenes/gltf.json and tests/host/import/test_mesh_normals.c.
"""
import base64
import json
import math
import os
import struct
import sys


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "scenes", "gltf")
    os.makedirs(out, exist_ok=True)
    apex = (0.0, 1.0, 0.0)
    base = [(-0.6, 0.0, -0.6), (0.6, 0.0, -0.6), (0.6, 0.0, 0.6), (-0.6, 0.0, 0.6)]
    positions, normals, uvs, indices = [], [], [], []

    def vertex(p, n, uv):
        positions.append(p)
        length = math.sqrt(sum(c * c for c in n))
        normals.append(tuple(c / length for c in n))
        uvs.append(uv)
        return len(positions) - 1

    for k in range(4):  # sides, counter-clockwise seen from outside
        a, b = base[(k + 1) % 4], base[k]
        a_normal = (a[0], 0.6, a[2])
        b_normal = (b[0], 0.6, b[2])
        i0 = vertex(a, a_normal, (0.0, 0.0))
        i1 = vertex(b, b_normal, (1.0, 0.0))
        i2 = vertex(apex, (0.0, 1.0, 0.0), (0.5, 1.0))
        indices += [i0, i1, i2]
    bottom = [vertex(p, (0.0, -1.0, 0.0), ((p[0] + 0.6) / 1.2, (p[2] + 0.6) / 1.2)) for p in base]
    indices += [bottom[0], bottom[1], bottom[2], bottom[0], bottom[2], bottom[3]]

    blob = b"".join(struct.pack("<3f", *p) for p in positions)
    blob += b"".join(struct.pack("<3f", *n) for n in normals)
    blob += b"".join(struct.pack("<2f", *t) for t in uvs)
    index_offset = len(blob)
    side_count = 12  # the sides' indices come first, then the base's
    blob += b"".join(struct.pack("<H", i) for i in indices)
    n = len(positions)
    gltf = {
        "asset": {"version": "2.0", "generator": "raystream tools/make_gltf.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0},
            {"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 4, "material": 1}]}],
        "materials": [
            {"name": "checker", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0,
                                                         "roughnessFactor": 0.4},
             "normalTexture": {"index": 1}},
            {"name": "gold", "pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.766, 0.336, 1.0],
                                                      "metallicFactor": 1.0, "roughnessFactor": 1.0,
                                                      "metallicRoughnessTexture": {"index": 2}}}],
        "textures": [{"source": 0}, {"source": 1}, {"source": 2}],
        "images": [{"uri": "../textures/checker.png"}, {"uri": "../textures/bumps_normal.png"},
                   {"uri": "../textures/gold_mr.png"}],
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 12 * n},
            {"buffer": 0, "byteOffset": 12 * n, "byteLength": 12 * n},
            {"buffer": 0, "byteOffset": 24 * n, "byteLength": 8 * n},
            {"buffer": 0, "byteOffset": index_offset, "byteLength": 2 * side_count},
            {"buffer": 0, "byteOffset": index_offset + 2 * side_count, "byteLength": 2 * (len(indices) - side_count)},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3",
             "min": [min(p[i] for p in positions) for i in range(3)],
             "max": [max(p[i] for p in positions) for i in range(3)]},
            {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5123, "count": side_count, "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5123, "count": len(indices) - side_count, "type": "SCALAR"},
        ],
    }
    with open(os.path.join(out, "pyramid.gltf"), "w") as f:
        json.dump(gltf, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
