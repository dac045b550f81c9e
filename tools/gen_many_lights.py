#!/usr/bin/env python3
"""Writes tools/bench/scenes/sponza-many-lights.json: Crytek Sponza in grey diffuse (as
sponza.json) lit only by 256 small coloured emissive quads, no environment.

The many-light scene of bench-quality (issue 23): 128 lamps on the ground floor (the courtyard
and the arcades around it), 80 on the first-floor gallery and 48 on the second-floor walkway,
each a square of 1.5 to 3 units a side turned about the vertical, emitting upwards. Radiance
spans exactly two decades: lamp k of N gets 2 * 100^(j / (N - 1)) for a shuffled j, times a
colour of random hue (saturation 0.35 to 0.85, largest channel 1). So a point sees a few
near lamps and hundreds of far ones, some dim ones next to it and bright ones across the
court: what a power-proportional light choice handles badly and a light tree well.

Lamps sit on the model's own floors: each candidate square is tested with vertical lines
through its centre and corners against the model's triangles (read from the OBJ); it is kept
only where all five meet the same level's floor within 0.1 units of each other (the upper
walkway slopes a little), nothing lies within 4 units above, and no other lamp of that level
is within 4 units; it then floats 0.05 above the highest of the five.
Deterministic for a given model and --seed (random.Random), standard library only. Run from
the repository root, with the model where tools/bench/scenes/README.md says:

    python3 tools/gen_many_lights.py [--model .bench-assets/crytek-sponza/sponza.obj] [--seed 23]
"""
import argparse
import colorsys
import json
import math
import random
from collections import defaultdict

# (name, lowest and highest floor height, lamps): the three walkable levels of Crytek Sponza
LEVELS = [("ground floor", -1.0, 1.0, 128), ("first-floor gallery", 41.0, 42.0, 80),
          ("second-floor walkway", 91.0, 91.6, 48)]
AREA = (-145.0, 135.0, -66.0, 60.0)  # x and z range of the atrium's floors
SIDE = (1.5, 3.0)
RADIANCE = (2.0, 200.0)  # two decades
LIFT, FLAT, HEADROOM, SPACING = 0.05, 0.1, 4.0, 4.0
CELL = 4.0


def load_triangles(path):
    vertices, triangles = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                vertices.append(tuple(float(x) for x in line.split()[1:4]))
            elif line.startswith("f "):
                idx = [int(t.split("/")[0]) for t in line.split()[1:]]
                idx = [i - 1 if i > 0 else len(vertices) + i for i in idx]
                for k in range(1, len(idx) - 1):
                    triangles.append((vertices[idx[0]], vertices[idx[k]], vertices[idx[k + 1]]))
    return triangles


def grid_of(triangles):
    """Triangles by the CELL x CELL columns (x, z) their bounds touch."""
    grid = defaultdict(list)
    for t in triangles:
        xs, zs = [p[0] for p in t], [p[2] for p in t]
        for i in range(math.floor(min(xs) / CELL), math.floor(max(xs) / CELL) + 1):
            for j in range(math.floor(min(zs) / CELL), math.floor(max(zs) / CELL) + 1):
                grid[(i, j)].append(t)
    return grid


def heights(grid, x, z):
    """Heights at which the vertical line through (x, z) meets the model."""
    out = []
    for a, b, c in grid.get((math.floor(x / CELL), math.floor(z / CELL)), ()):
        d = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2])
        if abs(d) < 1e-12:
            continue
        u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / d
        v = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / d
        if u >= 0 and v >= 0 and u + v <= 1:
            out.append(a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]))
    return out


def floor_under(grid, points, lo, hi):
    """The floor height shared by every point in [lo, hi] with headroom above, or None."""
    level = None
    for x, z in points:
        hs = heights(grid, x, z)
        floors = [h for h in hs if lo <= h <= hi]
        if not floors:
            return None
        y = max(floors)
        if level is not None and abs(y - level) > FLAT:
            return None
        level = y if level is None else max(level, y)
        if any(level + FLAT < h < level + HEADROOM for h in hs):
            return None
    return level


def place(grid, rng):
    lamps = []
    for name, lo, hi, count in LEVELS:
        placed, tries = 0, 0
        while placed < count:
            tries += 1
            if tries > 200000:
                raise SystemExit(f"{name}: only {placed} of {count} lamps found room; is the model Crytek Sponza?")
            cx, cz = rng.uniform(AREA[0], AREA[1]), rng.uniform(AREA[2], AREA[3])
            side, turn = rng.uniform(*SIDE), rng.uniform(0.0, math.pi / 2)
            h = side / 2
            u, w = (math.cos(turn) * h, math.sin(turn) * h), (-math.sin(turn) * h, math.cos(turn) * h)
            corners = [(cx + su * u[0] + sw * w[0], cz + su * u[1] + sw * w[1])
                       for su, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            y = floor_under(grid, [(cx, cz)] + corners, lo, hi)
            if y is None or any(math.hypot(cx - l[0], cz - l[1]) < SPACING for l in lamps if abs(l[2] - y) < 10):
                continue
            lamps.append((cx, cz, y, corners))
            placed += 1
    return lamps


def quad(corners, y):
    v = [[round(x, 4), round(y + LIFT, 4), round(z, 4)] for x, z in corners]
    # the front (the emitting side) is where the vertices run counter-clockwise: face up
    e1 = [v[1][i] - v[0][i] for i in range(3)]
    e2 = [v[2][i] - v[0][i] for i in range(3)]
    if e1[2] * e2[0] - e1[0] * e2[2] < 0:  # y of e1 x e2
        v.reverse()
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=".bench-assets/crytek-sponza/sponza.obj")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("-o", "--output", default="tools/bench/scenes/sponza-many-lights.json")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lamps = place(grid_of(load_triangles(args.model)), rng)
    n = len(lamps)
    order = list(range(n))
    rng.shuffle(order)
    materials = [{"name": "stone", "type": "diffuse", "albedo": [0.588, 0.588, 0.588]}]
    shapes = [{"type": "mesh", "file": "../../../.bench-assets/crytek-sponza/sponza.obj", "material": "stone"}]
    for k, (_, _, y, corners) in enumerate(lamps):
        scale = RADIANCE[0] * (RADIANCE[1] / RADIANCE[0]) ** (order[k] / (n - 1))
        rgb = colorsys.hsv_to_rgb(rng.random(), rng.uniform(0.35, 0.85), 1.0)
        name = f"lamp{k:03d}"
        materials.append({"name": name, "type": "emissive", "emission": [round(scale * c, 4) for c in rgb]})
        shapes.append({"type": "quad", "material": name, "vertices": quad(corners, y)})
    scene = {
        "version": 1,
        "camera": {"eye": [-110, 18, -4], "look_at": [0, 32, 0], "fov": 60, "resolution": [960, 540]},
        "render": {"integrator": "path", "max_depth": 8, "spp": 64},
        "environment": {"type": "constant", "color": [0, 0, 0]},
        "materials": materials,
        "shapes": shapes,
    }
    with open(args.output, "w") as f:
        f.write("{\n")
        for i, key in enumerate(scene):
            value = scene[key]
            if isinstance(value, list):
                f.write(f'  "{key}": [\n')
                f.write(",\n".join("    " + json.dumps(item) for item in value))
                f.write("\n  ]")
            else:
                f.write(f'  "{key}": {json.dumps(value)}')
            f.write(",\n" if i + 1 < len(scene) else "\n")
        f.write("}\n")
    print(f"wrote {args.output}: {n} lamps ({', '.join(f'{c} on the {name}' for name, _, _, c in LEVELS)}), "
          f"radiance {RADIANCE[0]:g} to {RADIANCE[1]:g}, seed {args.seed}")


if __name__ == "__main__":
    main()
