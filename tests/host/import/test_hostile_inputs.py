#!/usr/bin/env python3
"""test_hostile_inputs.py RAYSTREAM - scenes and meshes as a hostile user writes them (host suite).

Every case must end within its time limit with the expected exit status and a message that
names the problem; none may hang, eat memory, bind a name to the wrong thing, or print raw
control characters. Classes:
  - files that are not regular files: FIFOs, devices, directories (as the scene, as a mesh,
    and named inside a mesh: mtllib, glTF buffers), and a scene file over the size limit;
  - PLY headers that declare more elements than the file holds; mesh vertices and emissions
    beyond the scene format's limits;
  - paths too long to resolve, and names and paths holding \\u0000;
  - terminal escape sequences, C1 controls and invalid UTF-8 in names and arguments;
  - a long path in an error message keeps the reason;
  - mesh material names that differ only after 600 characters stay two materials;
  - 200k materials and 200k shapes load in seconds (a linear search made 100k take 50 s);
  - an unreadable mtllib is an error where the file's materials are used, not where the scene
    replaces them; percent-encoded glTF URIs (a buffer, an image) are decoded.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib

raystream = os.path.abspath(sys.argv[1])
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def scene_with(shapes, materials=None, **extra):
    scene = {"version": 1, "camera": {"eye": [0, 0, 3], "look_at": [0, 0, 0], "resolution": [8, 8]},
             "environment": {"type": "constant", "color": [1, 1, 1]},
             "materials": materials or [{"name": "w", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]}],
             "shapes": shapes}
    scene.update(extra)
    return scene


def run(args, timeout=30):
    start = time.monotonic()
    try:
        r = subprocess.run([raystream, *args], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", timeout
    return r.returncode, r.stderr.decode("utf-8", "replace"), time.monotonic() - start


def expect(name, args, status, words, timeout=30):
    code, err, _ = run(args, timeout)
    if code is None:
        check(False, f"{name}: did not finish within {timeout} s")
        return err
    check(code == status, f"{name}: exit {code}, expected {status}: {err.strip()!r}")
    for w in words:
        check(w in err, f"{name}: {w!r} not in the message: {err.strip()!r}")
    check("\x1b" not in err and "\x9b" not in err, f"{name}: raw control characters in {err!r}")
    return err


def render(scene_path, out, *extra):
    return ["render", scene_path, "-o", out, "--quiet", "--backend", "cpu", "--spp", "1", *extra]


with tempfile.TemporaryDirectory() as tmp:
    t = lambda name: os.path.join(tmp, name)
    out = t("out.png")

    def write_scene(name, scene, raw=None):
        with open(t(name), "w" if raw is None or isinstance(raw, str) else "wb") as f:
            f.write(raw if raw is not None else json.dumps(scene))
        return t(name)

    mesh = lambda f, **kw: {"type": "mesh", "file": f, "material": "w", **kw}
    with open(t("tri.obj"), "w") as f:
        f.write("v -1 -1 0\nv 1 -1 0\nv 0 1 0\nf 1 2 3\n")

    # --- not regular files ---
    os.mkfifo(t("fifo.json"))
    expect("scene FIFO", render(t("fifo.json"), out), 1, ["fifo.json: cannot open scene: not a regular file (a FIFO)"])
    for dev in ["/dev/zero", "/dev/urandom"]:
        expect(f"scene {dev}", render(dev, out), 1, [f"{dev}: cannot open scene: not a regular file (a character device)"])
    expect("scene directory", render(tmp, out), 1, ["cannot open scene: not a regular file (a directory)"])
    with open(t("huge.json"), "wb") as f:
        f.truncate(600 << 20)  # sparse: costs no disk
    expect("scene over the size limit", render(t("huge.json"), out), 1, ["huge.json: cannot open scene: too large"])
    os.mkfifo(t("fifo.obj"))
    for name, target in [("mesh FIFO", "fifo.obj"), ("mesh device", "/dev/zero"), ("mesh directory", tmp)]:
        expect(name, render(write_scene("m.json", scene_with([mesh(target)])), out), 1,
               ["shapes[0].file: cannot read", "not a regular file"])
    # named inside a mesh: assimp gets an IO system that refuses them, so the import goes on without
    os.mkfifo(t("fifo.mtl"))
    for name, lib in [("mtllib FIFO", "fifo.mtl"), ("mtllib device", "/dev/zero")]:
        with open(t("withlib.obj"), "w") as f:
            f.write(f"mtllib {lib}\nusemtl a\nv -1 -1 0\nv 1 -1 0\nv 0 1 0\nf 1 2 3\n")
        expect(name, render(write_scene("lib.json", scene_with([mesh("withlib.obj")])), out), 0, [])
        # without the scene's material, the file's are needed: dropping them is an error
        no_override = {"type": "mesh", "file": "withlib.obj"}
        expect(name + " (the file's materials)", render(write_scene("lib.json", scene_with([no_override])), out), 1,
               [f"mtllib '{lib}': cannot read the material file"])
    os.mkfifo(t("fifo.bin"))
    gltf = {"asset": {"version": "2.0"}, "buffers": [{"uri": "fifo.bin", "byteLength": 36}],
            "bufferViews": [{"buffer": 0, "byteLength": 36}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                           "min": [0, 0, 0], "max": [1, 1, 0]}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}]}
    with open(t("fifo.gltf"), "w") as f:
        json.dump(gltf, f)
    code, err, _ = run(render(write_scene("g.json", scene_with([mesh("fifo.gltf")])), out))
    check(code in (0, 1), f"glTF with a FIFO buffer: exit {code} ({err.strip()!r})")

    # glTF names its files by URI: percent-encoded names are decoded (a buffer and a 1x1 image)
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\0\xff\x80\x00")) + chunk(b"IEND", b"")
    with open(t("my tex.png"), "wb") as f:
        f.write(png)
    blob = struct.pack("<9f", -1, -1, 0, 1, -1, 0, 0, 1, 0) + struct.pack("<6f", 0, 0, 1, 0, 0, 1) + \
        struct.pack("<3H", 0, 1, 2) + b"\0\0"
    with open(t("my buf.bin"), "wb") as f:
        f.write(blob)
    encoded = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
               "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2,
                                           "material": 0}]}],
               "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
               "textures": [{"source": 0}], "images": [{"uri": "my%20tex.png"}],
               "buffers": [{"byteLength": len(blob), "uri": "my%20buf.bin"}],
               "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                               {"buffer": 0, "byteOffset": 36, "byteLength": 24},
                               {"buffer": 0, "byteOffset": 60, "byteLength": 6}],
               "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                              "min": [-1, -1, 0], "max": [1, 1, 0]},
                             {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
                             {"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"}]}
    with open(t("encoded.gltf"), "w") as f:
        json.dump(encoded, f)
    expect("glTF percent-encoded URIs",
           render(write_scene("enc.json", scene_with([{"type": "mesh", "file": "encoded.gltf"}])), out), 0, [])

    # --- PLY counts against the file size ---
    header = "ply\nformat {fmt} 1.0\nelement vertex {n}\nproperty float x\nproperty float y\nproperty float z\n" \
             "element face {f}\nproperty list uchar int vertex_indices\nend_header\n"
    with open(t("ascii.ply"), "w") as f:
        f.write(header.format(fmt="ascii", n=100_000_000, f=1) + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    with open(t("binary.ply"), "wb") as f:
        f.write(header.format(fmt="binary_little_endian", n=3, f=50_000_000).encode())
        f.write(struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<B3i", 3, 0, 1, 2))
    for name, words in [("ascii.ply", "100000000 'vertex' elements"), ("binary.ply", "50000000 'face' elements")]:
        expect(f"PLY {name}", render(write_scene("p.json", scene_with([mesh(name)])), out), 1,
               [f"cannot import '{t(name)}'", words, "truncated or malformed"], timeout=10)
    with open(t("good.ply"), "w") as f:  # an honest PLY still loads
        f.write(header.format(fmt="ascii", n=3, f=1) + "-1 -1 0\n1 -1 0\n0 1 0\n3 0 1 2\n")
    expect("PLY honest", render(write_scene("p.json", scene_with([mesh("good.ply")])), out), 0, [])

    # --- paths and names ---
    expect("mesh path too long", render(write_scene("long.json", scene_with([mesh("d/" * 2100 + "x.obj")])), out), 1,
           ["shapes[0].file: the path is too long"])
    for name, raw_json in [
        ("NUL in a material name", json.dumps(scene_with(
            [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "w"}],
            [{"name": "w", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]},
             {"name": "wNULx", "type": "diffuse", "albedo": [0.9, 0.1, 0.1]}])).replace("wNULx", "w\\u0000x")),
        ("NUL in a shape's material", json.dumps(scene_with(
            [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "wNULx"}])).replace("wNULx", "w\\u0000x")),
        ("NUL in a mesh path", json.dumps(scene_with([mesh("tri.objNUL.png")])).replace("NUL", "\\u0000")),
        ("NUL in a key", json.dumps(scene_with([mesh("tri.obj")])).replace('"type": "mesh"', '"type\\u0000x": "mesh"')),
    ]:
        expect(name, render(write_scene("nul.json", None, raw_json), out), 1, ["nul.json:1:", "\\u0000"])
    # an escaped backslash followed by u0000 is six ordinary characters, not NUL
    raw = json.dumps(scene_with([{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "wBSu0000"}],
                                [{"name": "wBSu0000", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]}]))
    expect("escaped backslash", render(write_scene("bs.json", None, raw.replace("BS", "\\\\")), out), 0, [])

    # --- control characters in messages ---
    raw = json.dumps(scene_with([{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "ESC[2JESC[31mred"}]))
    err = expect("escape sequence in a name", render(write_scene("esc.json", None, raw.replace("ESC", "\\u001b")), out),
                 1, ["no material named '\\e[2J\\e[31mred'"])
    raw = json.dumps(scene_with([{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "C1"}])).encode()
    raw = raw.replace(b"C1", b"\xc2\x9b2J\x9bbad")  # U+009B (C1 CSI) and a lone 0x9b byte
    expect("C1 control and invalid UTF-8", render(write_scene("c1.json", None, raw), out), 1, ["\\u009b2J\\x9bbad"])
    expect("escape in an argument", ["render", t("\x1b[2Jscene.json"), "-o", out], 1, ["\\e[2Jscene.json"])

    # --- a long path keeps the reason ---
    deep = os.path.join(tmp, *(["d" * 200] * 15), "scene.json")
    err = expect("long path", render(deep, out), 1, ["scene.json: cannot open scene: "])
    check(err.rstrip().endswith("No such file or directory") or err.rstrip().endswith("File name too long"),
          f"long path: the reason was cut off: {err[-120:]!r}")
    check(" [...] " in err and len(err) < 1200, f"long path: not shortened in the middle ({len(err)} chars)")

    # --- a mesh's own numbers follow the scene's limits ---
    with open(t("hot.mtl"), "w") as f:
        f.write("newmtl hot\nKd 0.5 0.5 0.5\nKe 1e30 0 0\n")
    with open(t("hot.obj"), "w") as f:
        f.write("mtllib hot.mtl\nusemtl hot\nv -1 -1 0\nv 1 -1 0\nv 0 1 0\nf 1 2 3\n")
    expect("mesh emission 1e30", render(write_scene("hot.json", scene_with([{"type": "mesh", "file": "hot.obj"}])),
                                        out), 1, ["material 'hot' has an emission [1e+30, 0, 0]"])
    with open(t("far.obj"), "w") as f:
        f.write("v -1 -1 0\nv 1e30 -1 0\nv 0 1 0\nf 1 2 3\n")
    expect("mesh vertex 1e30", render(write_scene("far.json", scene_with([mesh("far.obj")])), out), 1,
           ["has a vertex (transformed: [1e+30, -1, 0]) that is not a finite number within +-1e+18"])

    # --- mesh material names that differ late are different materials ---
    prefix = "m" * 600  # past what the import stream sends (255), within what assimp keeps (1023)
    with open(t("two.mtl"), "w") as f:
        f.write(f"newmtl {prefix}red\nKd 0.9 0 0\nnewmtl {prefix}green\nKd 0 0.9 0\n")
    with open(t("two.obj"), "w") as f:
        f.write("mtllib two.mtl\nv -3 -3 0\nv 0 -3 0\nv 0 3 0\nv -3 3 0\nv 3 -3 0\nv 3 3 0\n"
                f"usemtl {prefix}red\nf 1 2 3\nf 1 3 4\nusemtl {prefix}green\nf 2 5 6\nf 2 6 3\n")
    two = scene_with([{"type": "mesh", "file": "two.obj"}], camera={"eye": [0, 0, 3], "look_at": [0, 0, 0],
                                                                    "resolution": [16, 8]})
    code, err, _ = run(["render", write_scene("two.json", two), "-o", t("two.pfm"), "--quiet", "--backend", "cpu",
                        "--spp", "4", "--max-depth", "1"])
    check(code == 0, f"two long material names: {err}")
    if code == 0:
        data = open(t("two.pfm"), "rb").read()
        pixels = struct.unpack("<384f", data[-16 * 8 * 12:])
        left, right = pixels[3 * (4 * 16 + 2):3 * (4 * 16 + 2) + 3], pixels[3 * (4 * 16 + 13):3 * (4 * 16 + 13) + 3]
        check(left[0] > 3 * left[1] and right[1] > 3 * right[0],
              f"materials whose names differ after 600 characters were merged: left {left}, right {right}")

    # --- many materials and shapes ---
    n = 200_000
    with open(t("many.json"), "w") as f:
        f.write('{"version": 1, "camera": {"eye": [0, 0, -10], "look_at": [0, 0, 0], "resolution": [8, 8]}, ')
        f.write('"materials": [')
        f.write(",".join(f'{{"name": "m{i}", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]}}' for i in range(n)))
        f.write('], "shapes": [')
        f.write(",".join(f'{{"type": "sphere", "center": [{i % 400}, {i // 400}, 0], "radius": 0.4, '
                         f'"material": "m{(i * 7919) % n}"}}' for i in range(n)))
        f.write("]}")
    code, err, seconds = run(render(t("many.json"), out), timeout=120)
    check(code == 0, f"{n} materials and shapes: exit {code}: {err.strip()!r}")
    check(seconds < 60, f"{n} materials and shapes took {seconds:.1f} s to load and render")
    print(f"{n} materials + {n} shapes: loaded and rendered in {seconds:.2f} s")

for f in failures:
    print("FAIL", f)
print(f"test_hostile_inputs: {len(failures)} failures")
sys.exit(1 if failures else 0)
