#!/usr/bin/env python3
"""Writes the instancing benchmark's scenes into a folder (default .bench-assets/instances/):

  knot.ply        a (2,3) torus knot tube of SEGMENTS x SIDES quads (default 2000 x 25 = 100,000
                  triangles), binary little-endian PLY
  instances.json  COUNT instances (default 10,000) of it through "objects" / "instance" (scene
                  format version 2) on a square grid, each turned about y and scaled a little,
                  under a sky: what the memory floor of issue 25 measures (the mesh's BLAS once,
                  about 200 bytes per instance beyond it, and the wave buffers)
  single.json     the same mesh once, as a plain "mesh" shape: bench-trace with and without
                  --two-level compares the flat and the two-level path on it (the speed floor)

Deterministic (a seeded generator, pure arithmetic), standard library only. Usage:
  python3 tools/gen_instances.py [--count N] [--segments S] [--sides K] [--out DIR]
"""
import argparse
import json
import math
import os
import random
import struct


def knot_mesh(segments, sides, radius=0.38):
    def curve(t):
        r = 2.0 + math.cos(3 * t)
        return (r * math.cos(2 * t), -math.sin(3 * t), r * math.sin(2 * t))

    def sub(a, b):
        return (a[0] - b[0], a[1] - b[1], a[2] - b[2])

    def cross(a, b):
        return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])

    def unit(a):
        n = math.sqrt(sum(x * x for x in a))
        return tuple(x / n for x in a)

    vertices = []
    for i in range(segments):
        t = 2.0 * math.pi * i / segments
        c = curve(t)
        tangent = unit(sub(curve(t + 1e-4), curve(t - 1e-4)))
        side = unit(cross(tangent, (0.0, 1.0, 0.0)))
        up = cross(side, tangent)
        for j in range(sides):
            a = 2.0 * math.pi * j / sides
            ca, sa = math.cos(a), math.sin(a)
            vertices.append(tuple(c[k] + radius * (ca * side[k] + sa * up[k]) for k in range(3)))
    faces = []
    for i in range(segments):
        for j in range(sides):
            a = i * sides + j
            b = ((i + 1) % segments) * sides + j
            c = ((i + 1) % segments) * sides + (j + 1) % sides
            d = i * sides + (j + 1) % sides
            faces.append((a, b, c))
            faces.append((a, c, d))
    return vertices, faces


def write_ply(path, vertices, faces):
    header = ("ply\nformat binary_little_endian 1.0\n"
              f"element vertex {len(vertices)}\nproperty float x\nproperty float y\nproperty float z\n"
              f"element face {len(faces)}\nproperty list uchar int vertex_indices\nend_header\n")
    with open(path, "wb") as f:
        f.write(header.encode("ascii"))
        f.write(b"".join(struct.pack("<3f", *v) for v in vertices))
        f.write(b"".join(struct.pack("<B3i", 3, *t) for t in faces))


def scene(shapes, objects, extent):
    s = {
        "version": 2,
        "camera": {"eye": [0.0, 0.45 * extent + 6.0, 0.75 * extent + 8.0], "look_at": [0.0, 0.0, 0.0],
                   "up": [0, 1, 0], "fov": 50, "resolution": [1920, 1080]},
        "render": {"integrator": "path", "max_depth": 8, "spp": 16, "seed": 0},
        "environment": {"type": "constant", "color": [1.0, 1.0, 1.0]},
        "materials": [
            {"name": "knot", "type": "plastic", "color": [0.6, 0.35, 0.2], "roughness": 0.3},
            {"name": "ground", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]},
        ],
        "shapes": [{"type": "quad", "material": "ground",
                    "vertices": [[-extent, -1.5, -extent], [-extent, -1.5, extent], [extent, -1.5, extent],
                                 [extent, -1.5, -extent]]}] + shapes,
    }
    if objects:
        s["objects"] = objects
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--sides", type=int, default=25)
    ap.add_argument("--out", default=".bench-assets/instances")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    vertices, faces = knot_mesh(args.segments, args.sides)
    write_ply(os.path.join(args.out, "knot.ply"), vertices, faces)
    side = max(1, math.ceil(math.sqrt(args.count)))
    spacing = 7.0
    extent = 0.5 * side * spacing + spacing
    rng = random.Random(25)
    instances = []
    for k in range(args.count):
        x = (k % side - 0.5 * (side - 1)) * spacing
        z = (k // side - 0.5 * (side - 1)) * spacing
        instances.append({"type": "instance", "object": "knot",
                          "transform": {"scale": round(0.7 + 0.5 * rng.random(), 4),
                                        "rotate": [round(360.0 * rng.random(), 3), 0, 1, 0],
                                        "translate": [x, 0.0, z]}})
    objects = [{"name": "knot", "shapes": [{"type": "mesh", "file": "knot.ply", "material": "knot"}]}]
    with open(os.path.join(args.out, "instances.json"), "w") as f:
        json.dump(scene(instances, objects, extent), f, indent=1)
    with open(os.path.join(args.out, "single.json"), "w") as f:
        json.dump(scene([{"type": "mesh", "file": "knot.ply", "material": "knot"}], None, 6.0), f, indent=1)
    print(f"{args.out}: knot.ply ({len(faces)} triangles), instances.json ({args.count} instances), single.json")


if __name__ == "__main__":
    main()
