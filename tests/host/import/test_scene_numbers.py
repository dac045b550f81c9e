#!/usr/bin/env python3
"""test_scene_numbers.py RAYSTREAM SCHEMA - every number of a scene is checked after conversion
to the 32-bit float it is stored as (host suite).

A scene that uses every field of the format is the base. Then, one at a time, every number in
it is replaced by values that are finite as doubles but not as floats, or finite as floats but
beyond what the renderer can square (3.5e38, -1e308, 1e19): `raystream render` must
exit 1 with a message naming that exact JSON path, and the schema must reject the scene too.
Lengths below 1e-18, cameras without a frame, and a tiny but valid up vector are checked the
same way (the tiny up must render the same image as a unit one).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

raystream, schema_path = os.path.abspath(sys.argv[1]), sys.argv[2]
validator = jsonschema.Draft202012Validator(json.load(open(schema_path)))
failures = []

BASE = {
    "version": 1,
    "camera": {"eye": [0, 1, 4], "look_at": [0, 1, 0], "up": [0, 1, 0], "fov": 40, "resolution": [8, 8],
               "aperture_radius": 0.01, "focus_distance": 4},
    "render": {"integrator": "path", "max_depth": 3, "spp": 1, "seed": 7},
    "environment": {"type": "sky", "zenith": [0.2, 0.3, 0.9], "horizon": [1, 1, 1], "ground": [0.3, 0.3, 0.3]},
    "materials": [
        {"name": "white", "type": "diffuse", "albedo": [0.7, 0.7, 0.7], "emission": [0, 0, 0]},
        {"name": "chrome", "type": "mirror", "color": [0.9, 0.9, 0.9]},
        {"name": "glass", "type": "dielectric", "ior": 1.5, "color": [1, 1, 1]},
        {"name": "lamp", "type": "emissive", "emission": [4, 4, 4]},
        {"name": "frosted", "type": "dielectric", "ior": 1.33, "roughness": 0.4},
        {"name": "brushed", "type": "conductor", "eta": [0.2, 0.9, 1.1], "k": [3.9, 2.4, 2.1],
         "roughness_u": 0.2, "roughness_v": 0.6},
        {"name": "paint", "type": "conductor", "color": [0.9, 0.6, 0.3], "roughness": 0.3},
        {"name": "gloss", "type": "plastic", "color": [0.8, 0.1, 0.1], "ior": 1.5, "roughness": 0.2},
    ],
    "shapes": [
        {"type": "sphere", "center": [0, 1, 0], "radius": 0.5, "material": "glass"},
        {"type": "quad", "vertices": [[-2, 0, -2], [2, 0, -2], [2, 0, 2], [-2, 0, 2]], "material": "white"},
        {"type": "triangle", "vertices": [[-1, 2, -1], [1, 2, -1], [0, 2, 1]], "material": "lamp"},
        {"type": "mesh", "file": "tri.obj", "material": "chrome",
         "transform": {"translate": [0, 0.5, -1], "rotate": [30, 0, 1, 0], "scale": [1, 1, 1]}},
        {"type": "mesh", "file": "tri.obj",
         "transform": {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1.5, 0, 0, 0, 1]}},
        {"type": "mesh", "file": "tri.obj", "transform": {"scale": 0.5}},
    ],
    "lights": [
        {"type": "point", "position": [1, 3, 1], "intensity": [2, 2, 2]},
        {"type": "spot", "position": [-1, 3, 0], "look_at": [0, 0, 0], "intensity": [5, 4, 3], "cone_angle": 40,
         "cone_delta_angle": 10},
    ],
}
ENV_CONSTANT = {"type": "constant", "color": [0.1, 0.1, 0.1]}


def check(cond, msg):
    if not cond:
        failures.append(msg)


def leaves(node, path=""):
    """(JSON path as the loader prints it, container, key) of every number in node"""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        where = (f"{path}.{key}" if path else key) if isinstance(node, dict) else f"{path}[{key}]"
        if isinstance(value, (dict, list)):
            yield from leaves(value, where)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            yield where, node, key


def render(tmp, scene, name, *extra):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(scene, f)
    r = subprocess.run([raystream, "render", path, "-o", os.path.join(tmp, name + ".pfm"), "--quiet",
                        "--backend", "cpu", *extra], capture_output=True, text=True, timeout=60)
    return r, path


def expect_error(tmp, scene, name, where, words=""):
    r, _ = render(tmp, scene, name)
    message = r.stderr.strip()
    check(r.returncode == 1, f"{name}: exit {r.returncode}, expected 1 ({message})")
    check(f": {where}: " in message and words in message,
          f"{name}: the message does not name {where!r}{' with ' + repr(words) if words else ''}: {message!r}")
    check(not validator.is_valid(scene), f"{name}: the schema accepts it")


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "tri.obj"), "w") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    for base_name, base in [("sky", BASE), ("constant", dict(BASE, environment=ENV_CONSTANT))]:
        r, _ = render(tmp, base, base_name)
        check(r.returncode == 0, f"the base scene ({base_name}) fails: {r.stderr}")
        check(validator.is_valid(base), f"the schema rejects the base scene ({base_name})")
        tested = 0
        for where, _, _ in list(leaves(base)):
            if base_name == "constant" and not where.startswith("environment"):
                continue  # the rest was tested with the sky
            for value in [3.5e38, -1e308, 1e19]:
                scene = copy.deepcopy(base)
                for w, node, key in leaves(scene):
                    if w == where:
                        node[key] = value
                expect_error(tmp, scene, f"{base_name}-{where}-{value:g}", where, "must be")
                tested += 1
        print(f"{base_name}: {tested} out-of-range numbers refused")

    # lengths whose squares would be zero in float
    for where, edit in [("shapes[0].radius", lambda s: s["shapes"][0].update(radius=1e-30)),
                        ("shapes[5].transform.scale", lambda s: s["shapes"][5]["transform"].update(scale=1e-30)),
                        ("shapes[3].transform.scale", lambda s: s["shapes"][3]["transform"].update(scale=[1, 0, 1]))]:
        scene = copy.deepcopy(BASE)
        edit(scene)
        expect_error(tmp, scene, "tiny-" + where, where)

    # cameras without a frame: say what is wrong
    for name, edit, where, words in [
        ("eye-at-look_at", lambda c: c.update(look_at=c["eye"]), "camera.look_at", "must differ"),
        ("look_at-too-close", lambda c: c.update(look_at=[0, 1, 4 - 1e-30]), "camera.look_at", "must differ"),
        ("look_at-far", lambda c: c.update(eye=[-1e18, 0, 0], look_at=[1e18, 0, 0]), "camera.look_at", "away"),
        ("up-zero", lambda c: c.update(up=[0, 0, 0]), "camera.up", "zero"),
        ("up-parallel", lambda c: c.update(up=[0, 0, -3]), "camera.up", "parallel"),
    ]:
        scene = copy.deepcopy(BASE)
        edit(scene["camera"])
        r, _ = render(tmp, scene, name)
        check(r.returncode == 1 and f": {where}: " in r.stderr and words in r.stderr,
              f"{name}: exit {r.returncode}, {r.stderr.strip()!r}")

    # every documented bound is accepted, though as a float it may lie just outside (0.01 does),
    # and a value past it is refused with a message that names the component and the bound
    def material(i):
        return lambda s: s["materials"][i]
    for name, target, key, value in [
        ("eta-min", material(5), "eta", [0.01, 0.01, 0.01]), ("eta-max", material(5), "eta", [100, 100, 100]),
        ("k-min", material(5), "k", [0, 0, 0]), ("k-max", material(5), "k", [100, 100, 100]),
        ("ior-min", material(2), "ior", 0.01), ("ior-max", material(2), "ior", 100),
        ("plastic-ior-min", material(7), "ior", 0.01), ("roughness-min", material(4), "roughness", 0),
        ("roughness-max", material(4), "roughness", 1), ("albedo-max", material(0), "albedo", [1, 1, 1]),
        ("cone-max", lambda s: s["lights"][1], "cone_angle", 90),
        ("delta-min", lambda s: s["lights"][1], "cone_delta_angle", 0),
        ("delta-max", lambda s: s["lights"][1], "cone_delta_angle", 20),
    ]:
        scene = copy.deepcopy(BASE)
        target(scene)[key] = value
        r, _ = render(tmp, scene, "bound-" + name)
        check(r.returncode == 0, f"{name}: the documented bound {key} = {value} is refused: {r.stderr.strip()!r}")
        check(validator.is_valid(scene), f"{name}: the schema refuses the documented bound {key} = {value}")
    scene = copy.deepcopy(BASE)
    scene["materials"][5]["eta"] = [0.2, 0.005, 1.1]
    expect_error(tmp, scene, "eta-below", "materials[5].eta[1]", "must be in [0.01, 100] (got 0.005)")

    # a tiny up vector is a direction like any other: the same image as a unit one
    scene = copy.deepcopy(BASE)
    scene["camera"]["up"] = [0, 1e-30, 0]
    r1, _ = render(tmp, scene, "tiny-up")
    r2, _ = render(tmp, BASE, "unit-up")
    check(r1.returncode == 0 and r2.returncode == 0, f"tiny up: {r1.stderr} {r2.stderr}")
    if r1.returncode == 0 and r2.returncode == 0:
        same = open(os.path.join(tmp, "tiny-up.pfm"), "rb").read() == open(os.path.join(tmp, "unit-up.pfm"), "rb").read()
        check(same, "up [0, 1e-30, 0] renders differently from [0, 1, 0]")

for f in failures[:40]:
    print("FAIL", f)
print(f"test_scene_numbers: {len(failures)} failures")
sys.exit(1 if failures else 0)
