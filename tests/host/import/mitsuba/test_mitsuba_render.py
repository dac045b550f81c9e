#!/usr/bin/env python3
"""test_mitsuba_render.py RAYSTREAM DATA_DIR - Mitsuba XML scenes render as their JSON twins.

tests/data/import/mitsuba/: cbox.xml (rectangles, cubes, a sphere, plastic and rough gold) and
cbox_include.xml (the same split over <include>d files and driven by <default> parameters)
must render bit-identically to cbox_twin.json, since every transform in them is exact in
binary floating point; features.xml (an orthographic sensor, a directional emitter, a
checkerboard and a bitmap with to_uv, thindielectric, masks of constant and bitmap opacity) must
render bit-identically to features_twin.json (its textured rectangles as OBJ files with the
texture coordinates the importer gives them); instances.xml (a shapegroup placed by three instances) must match
instances_twin.json (the boxes written out) in every channel's mean within 1%: instancing may
transform rays instead of triangles, so bits may differ there, but not the picture.
"""
import os
import struct
import subprocess
import sys
import tempfile


def render(raystream, scene, out, size=(32, 32), spp=4):
    subprocess.run([raystream, "render", scene, "-o", out, "--quiet", "--backend", "cpu", "--width", str(size[0]),
                    "--height", str(size[1]), "--spp", str(spp)], check=True)
    with open(out, "rb") as f:
        return f.read()


def channel_means(pfm):
    lines = pfm.split(b"\n", 3)
    w, h = (int(x) for x in lines[1].split())
    scale = float(lines[2])
    data = struct.unpack(("<" if scale < 0 else ">") + "f" * (w * h * 3), lines[3][: w * h * 12])
    return [sum(data[c::3]) / (w * h) for c in range(3)]


def main():
    raystream, data = sys.argv[1], sys.argv[2]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        twin = render(raystream, os.path.join(data, "cbox_twin.json"), os.path.join(tmp, "twin.pfm"))
        for name in ("cbox.xml", "cbox_include.xml"):
            img = render(raystream, os.path.join(data, name), os.path.join(tmp, name + ".pfm"))
            same = img == twin
            print(f"{name}: {'bit-identical to' if same else 'DIFFERS from'} cbox_twin.json")
            failures += not same
        twin = render(raystream, os.path.join(data, "features_twin.json"), os.path.join(tmp, "ft.pfm"), (32, 24))
        same = render(raystream, os.path.join(data, "features.xml"), os.path.join(tmp, "f.pfm"), (32, 24)) == twin
        print(f"features.xml: {'bit-identical to' if same else 'DIFFERS from'} features_twin.json")
        failures += not same
        a = channel_means(render(raystream, os.path.join(data, "instances.xml"), os.path.join(tmp, "i.pfm"), (48, 36), 8))
        b = channel_means(render(raystream, os.path.join(data, "instances_twin.json"), os.path.join(tmp, "t.pfm"),
                                 (48, 36), 8))
        for c in range(3):
            ok = b[c] > 0 and abs(a[c] / b[c] - 1.0) <= 0.01
            print(f"instances.xml channel {c}: mean {a[c]:.5f}, twin {b[c]:.5f}: {'ok' if ok else 'DIFFERENT'}")
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
