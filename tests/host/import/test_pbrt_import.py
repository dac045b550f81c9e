#!/usr/bin/env python3
"""test_pbrt_import.py RAYSTREAM DATA_DIR - the pbrt-v4 importer against JSON twins (host suite).

Each scene.pbrt in DATA_DIR (tests/data/import/pbrt) with a scene.json beside it must render
bit-identically to it on the CPU (32x32, 4 spp: the .pfm bytes compared). The PLY scene is also
rendered from binary PLY files (little and big endian) that this test writes from the ASCII one,
with and without vertex normals and with extra properties to read past. Then: the image is not
mirrored (a light at pbrt's +x, seen with pbrt's LookAt, lies where pbrt-v4 puts it: pbrt's
camera space is left-handed, so +x is on the image's left when looking down -z with y up), an
image infinite light (an equal-area octahedral map written here, dark but for one "sun" texel in a
known direction of the light's frame) lights a ball from the side pbrt-v4 lights it, turned by
the light's transform (Rotate 180 about y; Rotate -90 about x takes its +z up); its "illuminance"
makes suns of different brightness light alike; a non-square map is refused naming the file; and
approximations print their warnings.
"""
import gzip
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

raystream, data = sys.argv[1], os.path.abspath(sys.argv[2])
failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def render(scene, out, extra=()):
    r = subprocess.run([raystream, "render", scene, "-o", out, "--width", "32", "--height", "32", "--spp", "4",
                        *extra], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("%s: exit %d: %s" % (scene, r.returncode, r.stderr.strip()))
    return r.stderr


def same(a, b):
    return os.path.exists(a) and os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()


tmp = tempfile.mkdtemp()
try:
    twins = sorted(f[:-5] for f in os.listdir(data) if f.endswith(".pbrt") and os.path.exists(
        os.path.join(data, f[:-5] + ".json")))
    if len(twins) < 4:
        fail("expected at least 4 scenes with twins, found %s" % twins)
    for name in twins:
        p, j = os.path.join(tmp, name + "-pbrt.pfm"), os.path.join(tmp, name + "-json.pfm")
        render(os.path.join(data, name + ".pbrt"), p)
        render(os.path.join(data, name + ".json"), j)
        print("%s: %s" % (name, "identical" if same(p, j) else "DIFFERENT"))
        if not same(p, j):
            fail("%s.pbrt and %s.json do not render identically" % (name, name))

    # binary PLY files with the ASCII mesh's content
    lines = open(os.path.join(data, "mesh_ascii.ply")).read().split("end_header\n")[1].split("\n")
    verts = [tuple(float(x) for x in l.split()) for l in lines[:7]]
    faces = [tuple(int(x) for x in l.split()[1:]) for l in lines[7:9]]
    for endian, mark in (("binary_little_endian", "<"), ("binary_big_endian", ">")):
        for normals in (False, True):
            header = ["ply", "format %s 1.0" % endian, "element vertex %d" % len(verts),
                      "property float x", "property float y", "property float z"]
            if normals:
                header += ["property float nx", "property float ny", "property float nz"]
            header += ["property double confidence", "property float s", "property float t",
                       "element face %d" % len(faces), "property list uchar uint vertex_indices",
                       "property uchar flags", "end_header"]
            body = b""
            for v in verts:
                body += struct.pack(mark + "fff", *v[:3])
                if normals:  # pointing the way the faces are wound: the image must not change
                    body += struct.pack(mark + "fff", 0.0, 1.0, 0.0) if v[1] == 0 else struct.pack(mark + "fff", 0, 0, 1)
                body += struct.pack(mark + "d", 0.5) + struct.pack(mark + "ff", *v[3:5])
            for f in faces:
                body += struct.pack(mark + "B", len(f)) + struct.pack(mark + "%dI" % len(f), *f) + b"\x07"
            ply = "mesh-%s-%d.ply" % (mark == "<" and "le" or "be", normals)
            open(os.path.join(tmp, ply), "wb").write(("\n".join(header) + "\n").encode() + body)
            scene = open(os.path.join(data, "plymesh.pbrt")).read().replace("mesh_ascii.ply", ply)
            path = os.path.join(tmp, ply + ".pbrt")
            open(path, "w").write(scene)
            out = os.path.join(tmp, ply + ".pfm")
            render(path, out)
            ok = same(out, os.path.join(tmp, "plymesh-json.pfm")) if not normals else os.path.exists(out)
            print("%s: %s" % (ply, "identical to plymesh.json" if ok and not normals else "rendered" if ok else "DIFFERENT"))
            if not ok:
                fail("%s does not render as plymesh.json" % ply)

    # gzip-compressed PLY (pbrt-v4 scenes ship .ply.gz), and a truncated one
    packed = gzip.compress(open(os.path.join(data, "mesh_ascii.ply"), "rb").read())
    for name, blob in (("mesh.ply.gz", packed), ("cut.ply.gz", packed[:len(packed) // 2])):
        open(os.path.join(tmp, name), "wb").write(blob)
        scene = os.path.join(tmp, name + ".pbrt")
        open(scene, "w").write(open(os.path.join(data, "plymesh.pbrt")).read().replace("mesh_ascii.ply", name))
        out = os.path.join(tmp, name + ".pfm")
        if name == "mesh.ply.gz":
            render(scene, out)
            ok = same(out, os.path.join(tmp, "plymesh-json.pfm"))
            print("%s: %s" % (name, "identical to plymesh.json" if ok else "DIFFERENT"))
            if not ok:
                fail("the gzip-compressed PLY does not render as plymesh.json")
        else:
            r = subprocess.run([raystream, "render", scene, "-o", out], capture_output=True, text=True, timeout=60)
            if r.returncode != 1 or "cut.ply.gz: corrupt or truncated gzip data" not in r.stderr:
                fail("a truncated .ply.gz: exit %d, %s" % (r.returncode, r.stderr.strip()))

    # spectrum files: a constant spectrum read from a file is the same reflectance as written inline,
    # and a missing file is named
    os.makedirs(os.path.join(tmp, "spds"), exist_ok=True)
    open(os.path.join(tmp, "spds", "flat.spd"), "w").write("# a flat reflectance\n360 0.5\n830 0.5\n")
    base = open(os.path.join(data, "plymesh.pbrt")).read().replace(
        "mesh_ascii.ply", os.path.join(data, "mesh_ascii.ply"))
    outs = []
    for name, value in (("spd_file", '"spectrum reflectance" "spds/flat.spd"'),
                        ("spd_inline", '"spectrum reflectance" [ 360 0.5 830 0.5 ]')):
        scene = os.path.join(tmp, name + ".pbrt")
        open(scene, "w").write(base.replace('"rgb reflectance" [ 0.2 0.5 0.7 ]', value))
        outs.append(os.path.join(tmp, name + ".pfm"))
        render(scene, outs[-1])
    if not same(*outs):
        fail("a spectrum file does not render as the same spectrum inline")
    scene = os.path.join(tmp, "spd_missing.pbrt")
    open(scene, "w").write(base.replace('"rgb reflectance" [ 0.2 0.5 0.7 ]', '"spectrum reflectance" "spds/none.spd"'))
    r = subprocess.run([raystream, "render", scene, "-o", os.path.join(tmp, "x.pfm")], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 1 or '"spectrum reflectance": "spds/none.spd" is not a named spectrum raystream knows, nor a ' \
                             'spectrum file it can read' not in r.stderr:
        fail("a missing spectrum file: exit %d, %s" % (r.returncode, r.stderr.strip()))

    # limits: includes nest at most 32 deep; numbers lie within +-1e18
    chain = os.path.join(tmp, "chain")
    os.makedirs(chain, exist_ok=True)
    for i in range(40):
        open(os.path.join(chain, "c%d.pbrt" % i), "w").write('Include "c%d.pbrt"\n' % (i + 1) if i < 39 else
                                                             'Shape "sphere"\n')
    open(os.path.join(chain, "top.pbrt"), "w").write('Camera "perspective"\nWorldBegin\nInclude "c0.pbrt"\n')
    open(os.path.join(tmp, "big.pbrt"), "w").write('Camera "perspective"\nWorldBegin\nTranslate 1e19 0 0\n')
    for scene, expected in ((os.path.join(chain, "top.pbrt"), "includes nest deeper than 32 files"),
                            (os.path.join(tmp, "big.pbrt"), "big.pbrt:3: the number 1e19 is not between -1e+18 and 1e+18")):
        r = subprocess.run([raystream, "render", scene, "-o", os.path.join(tmp, "x.pfm")], capture_output=True,
                           text=True, timeout=60)
        if r.returncode != 1 or expected not in r.stderr:
            fail("%s: expected '%s', got exit %d: %s" % (scene, expected, r.returncode, r.stderr.strip()))

    # handedness: with pbrt's LookAt down -z (y up), pbrt-v4 shows +x on the image's LEFT
    def light_side(flip):
        scene = os.path.join(tmp, "side%d.pbrt" % flip)
        open(scene, "w").write(("Scale -1 1 1\n" if flip else "") +
                               'LookAt 0 0 5  0 0 0  0 1 0\nCamera "perspective" "float fov" 40\n'
                               'Film "rgb" "integer xresolution" 32 "integer yresolution" 32\nWorldBegin\n'
                               'AttributeBegin\nAreaLightSource "diffuse" "rgb L" [ 5 5 5 ]\nTranslate 1 0 0\n'
                               'Shape "sphere" "float radius" 0.4\nAttributeEnd\n')
        out = os.path.join(tmp, "side%d.pfm" % flip)
        render(scene, out)
        raw = open(out, "rb").read()
        parts = raw.split(b"\n", 3)
        w, h = (int(x) for x in parts[1].split())
        px = struct.unpack(("<" if float(parts[2]) < 0 else ">") + "%df" % (w * h * 3), parts[3][:w * h * 12])
        left = sum(px[(y * w + x) * 3] for y in range(h) for x in range(w // 2))
        right = sum(px[(y * w + x) * 3] for y in range(h) for x in range(w // 2, w))
        return "left" if left > right else "right"
    for flip, want in ((0, "left"), (1, "right")):
        side = light_side(flip)
        print("light at +x, %s: on the %s" % ("Scale -1 1 1" if flip else "plain LookAt", side))
        if side != want:
            fail("the light at +x should be on the image's %s (%s)" % (want, "flipped" if flip else "plain"))

    # image infinite lights: pbrt-v4's equal-area octahedral square, +z at its centre
    def square_of(d):  # sphere -> square, written from Clarberg's description as the kernel's is
        x, y, z = abs(d[0]), abs(d[1]), abs(d[2])
        r = math.sqrt(max(0.0, 1.0 - z))
        b = r * math.atan2(y, x) * 2 / math.pi
        a = r - b
        if d[2] < 0:
            a, b = 1 - b, 1 - a
        return 0.5 * (math.copysign(a, d[0]) + 1), 0.5 * (math.copysign(b, d[1]) + 1)

    def write_hdr(path, w, h, sun_dir, value):
        n = math.sqrt(sum(c * c for c in sun_dir))
        u, v = square_of([c / n for c in sun_dir])
        sx, sy = min(w - 1, int(u * w)), min(h - 1, int(v * h))
        e = math.frexp(value)[1]
        lit = bytes([int(value / 2 ** e * 256)] * 3 + [e + 128])
        px = b"".join(lit if (x, y) == (sx, sy) else bytes(4) for y in range(h) for x in range(w))
        open(path, "wb").write(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (h, w) + px)

    def sun_scene(name, sun_dir, before="", extra="", size=16, value=1000.0):
        write_hdr(os.path.join(tmp, name + ".hdr"), size, size if name != "oblong" else size // 2, sun_dir, value)
        scene = os.path.join(tmp, name + ".pbrt")
        open(scene, "w").write('LookAt 0 0 5  0 0 0  0 1 0\nCamera "perspective" "float fov" 40\n'
                               'Film "rgb" "integer xresolution" 32 "integer yresolution" 32\nWorldBegin\n'
                               'AttributeBegin\n%sLightSource "infinite" "string filename" "%s.hdr"%s\nAttributeEnd\n'
                               'Material "diffuse" "rgb reflectance" [0.5 0.5 0.5]\nShape "sphere" "float radius" 1\n'
                               % (before, name, extra))
        return scene

    def halves(out):
        raw = open(out, "rb").read().split(b"\n", 3)
        w, h = (int(x) for x in raw[1].split())
        px = struct.unpack(("<" if float(raw[2]) < 0 else ">") + "%df" % (w * h * 3), raw[3][:w * h * 12])
        at = lambda x, y: px[(y * w + x) * 3]
        left = sum(at(x, y) for y in range(h) for x in range(w // 2))
        right = sum(at(x, y) for y in range(h) for x in range(w // 2, w))
        bottom = sum(at(x, y) for y in range(h // 2) for x in range(w))  # PFM rows run bottom to top
        top = sum(at(x, y) for y in range(h // 2, h) for x in range(w))
        return left, right, bottom, top, sum(px) / len(px)

    for name, sun, before, want in (("sun_px", (1, 0, 0.3), "", "left"), ("sun_turned", (1, 0, 0.3), "Rotate 180 0 1 0\n", "right"),
                                    ("sun_zup", (0.2, 0, 1), "Rotate -90 1 0 0\n", "top")):
        out = os.path.join(tmp, name + ".pfm")
        render(sun_scene(name, sun, before), out)
        left, right, bottom, top, _ = halves(out)
        got = "top" if want == "top" and top > 3 * bottom else ("left" if left > 3 * right else ("right" if right > 3 * left else "neither"))
        print("octahedral sun at light %s%s: lights the ball's %s" % (sun, " after " + before.strip() if before else "", got))
        if got != want:
            fail("octahedral sun at light %s (%s): expected the %s side lit, got %s (l %g r %g b %g t %g)" % (
                sun, before.strip() or "plain", want, got, left, right, bottom, top))
    means = []
    for name, value in (("bright", 1000.0), ("dim", 300.0)):
        out = os.path.join(tmp, name + ".pfm")
        render(sun_scene(name, (1, 0, 0.3), extra=' "float illuminance" 2', value=value), out)
        means.append(halves(out)[4])
    if not abs(means[0] / means[1] - 1) < 0.02:
        fail("illuminance: suns of 1000 and 300 light the ball %g : %g" % tuple(means))
    r = subprocess.run([raystream, "render", sun_scene("oblong", (1, 0, 0)), "-o", os.path.join(tmp, "x.pfm")],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 1 or "oblong.hdr\" is 16x8: pbrt-v4's equal-area environment images must be square" not in r.stderr:
        fail("a non-square octahedral map: exit %d: %s" % (r.returncode, r.stderr.strip()))

    # a scaled image is baked: half the texels' linear value, so about half the light
    png = os.path.abspath(os.path.join(data, "..", "..", "..", "..", "scenes", "textures", "quadrants.png"))
    means = []
    for scale in (1, 0.5):
        scene = os.path.join(tmp, "bake%g.pbrt" % scale)
        open(scene, "w").write(
            'LookAt 0 0 3 0 0 0 0 1 0\nCamera "perspective" "float fov" 30\nWorldBegin\n'
            'LightSource "infinite" "rgb L" [1 1 1]\n'
            'Texture "img" "spectrum" "imagemap" "string filename" "%s"\n'
            'Texture "half" "spectrum" "scale" "texture tex" "img" "float scale" %g\n'
            'Material "diffuse" "texture reflectance" "half"\n'
            'Shape "trianglemesh" "point3 P" [-1 -1 0 1 -1 0 1 1 0 -1 1 0] "integer indices" [0 1 2 0 2 3]\n'
            % (png, scale))
        out = os.path.join(tmp, "bake%g.pfm" % scale)
        err = render(scene, out)
        if scale != 1 and "is baked into a new 8-bit texture" not in err:
            fail("no warning for the baked image: %s" % err)
        raw = open(out, "rb").read().split(b"\n", 3)
        w, h = (int(x) for x in raw[1].split())
        px = struct.unpack(("<" if float(raw[2]) < 0 else ">") + "%df" % (w * h * 3), raw[3][:w * h * 12])
        means.append(sum(px) / len(px))
    if not (0.4 < means[1] / means[0] < 0.6):
        fail("the image scaled by 0.5 gives %g of the light of the unscaled one" % (means[1] / means[0]))
    print("image scaled by 0.5: %.3f of the light" % (means[1] / means[0]))

    # loopsubdiv: an icosahedron subdivided three times renders (as a smooth ball) with its warning
    t = (1 + 5 ** 0.5) / 2
    ico_v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
             (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    ico_f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    scene = os.path.join(tmp, "loop.pbrt")
    open(scene, "w").write('LookAt 0 0 6 0 0 0 0 1 0\nCamera "perspective"\nWorldBegin\n'
                           'LightSource "point" "rgb I" [20 20 20] "point3 from" [3 3 6]\nMaterial "diffuse"\n'
                           'Shape "loopsubdiv" "integer levels" 3 "point3 P" [%s] "integer indices" [%s]\n' % (
                               " ".join("%g %g %g" % v for v in ico_v), " ".join("%d %d %d" % f for f in ico_f)))
    err = render(scene, os.path.join(tmp, "loop.pfm"))
    if 'loop.pbrt:6: Shape "loopsubdiv": 3 levels of subdivision' not in err or "1280 primitives" not in err:
        fail("loopsubdiv: %s" % err)

    # approximations are named
    scene = os.path.join(tmp, "approx.pbrt")
    open(scene, "w").write('Camera "perspective"\nPixelFilter "gaussian"\nWorldBegin\n'
                           'LightSource "point" "blackbody I" 3000 "point3 from" [0 0 -3]\n'
                           'Material "coateddiffuse" "rgb reflectance" [0.5 0.2 0.2] "float roughness" 0.1\n'
                           'Translate 0 0 4\nShape "sphere" "float radius" 1 "float zmax" 1 "float foo" 2\n'
                           'Option "bool disablepixeljitter" true\n')
    err = render(scene, os.path.join(tmp, "approx.pfm"))
    for expected in ('approx.pbrt:5: Material "coateddiffuse": rendered as raystream\'s plastic',
                     'approx.pbrt:2: PixelFilter "gaussian": ignored',
                     'approx.pbrt:7: Shape "sphere": parameter "float foo" is not supported; ignored',
                     'approx.pbrt:8: Option "bool disablepixeljitter": ignored'):
        if expected not in err:
            fail("missing warning: %s\nstderr: %s" % (expected, err))
finally:
    shutil.rmtree(tmp)
print("%d failed" % failures)
sys.exit(1 if failures else 0)
