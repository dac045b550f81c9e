#!/usr/bin/env python3
"""Writes assets/torus_knot.ply: a (2,3) torus knot tube, 480 x 24 quads = 23,040 triangles.

It is the mesh of scenes/reflect-23k.json, the benchmark's ~23k-primitive reflective scene.
Deterministic (pure arithmetic, no randomness), standard library only, binary little-endian
PLY that assimp reads. Run from the repository root:  python3 tools/gen_torus_knot.py
"""
import math
import struct
import sys

P, Q = 2, 3          # winds P times around the axis, Q times through the hole
SEGMENTS = 480       # along the curve
SIDES = 24           # around the tube
TUBE_RADIUS = 0.38


def curve(t):
    r = 2.0 + math.cos(Q * t)
    return (r * math.cos(P * t), -math.sin(Q * t), r * math.sin(P * t))


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def normalize(a):
    n = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    return (a[0] / n, a[1] / n, a[2] / n)


def main(path):
    vertices = []
    for i in range(SEGMENTS):
        t = 2.0 * math.pi * i / SEGMENTS
        c = curve(t)
        tangent = normalize(sub(curve(t + 1e-4), curve(t - 1e-4)))
        # frame from the tangent and the knot's "up" (y); the knot never runs parallel to y
        binormal = normalize(cross(tangent, (0.0, 1.0, 0.0)))
        normal = cross(binormal, tangent)
        for j in range(SIDES):
            a = 2.0 * math.pi * j / SIDES
            ca, sa = math.cos(a), math.sin(a)
            vertices.append(tuple(c[k] + TUBE_RADIUS * (ca * normal[k] + sa * binormal[k]) for k in range(3)))
    faces = []
    for i in range(SEGMENTS):
        for j in range(SIDES):
            a = i * SIDES + j
            b = ((i + 1) % SEGMENTS) * SIDES + j
            c = ((i + 1) % SEGMENTS) * SIDES + (j + 1) % SIDES
            d = i * SIDES + (j + 1) % SIDES
            faces.append((a, b, c))
            faces.append((a, c, d))
    header = (
        "ply\nformat binary_little_endian 1.0\n"
        "comment raystream tools/gen_torus_knot.py: (%d,%d) torus knot, %d triangles\n"
        "element vertex %d\nproperty float x\nproperty float y\nproperty float z\n"
        "element face %d\nproperty list uchar int vertex_indices\nend_header\n"
        % (P, Q, len(faces), len(vertices), len(faces))
    )
    with open(path, "wb") as f:
        f.write(header.encode("ascii"))
        for v in vertices:
            f.write(struct.pack("<3f", *v))
        for tri in faces:
            f.write(struct.pack("<B3i", 3, *tri))
    print("%s: %d vertices, %d triangles" % (path, len(vertices), len(faces)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "assets/torus_knot.ply")
