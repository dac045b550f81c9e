#!/usr/bin/env python3
"""test_bench_quality_mask.py RAYSTREAM SCENES_DIR - bench-quality's integrator= key and --mask
on the CPU backend, on a 32x32 Cornell box (app suite):
  - --configs "integrator=path;integrator=light": both run, the table, JSON and CSV name each
    integrator, and the error falls with the passes for both;
  - --mask: the table, JSON and CSV name the region and its pixel count, every point compares
    exactly the mask's pixels, and the errors really are the region's: the mask's and its
    complement's squared errors, weighted by their pixel counts, add up to the whole image's
    (the renders are bit-identical from run to run);
  - --external passes integrator= on as --integrator (this very binary gives the in-process
    errors);
  - a mask of the wrong size is an error naming both sizes, an all-black one an error, and
    --mask counts, unknown integrators and photons= outside sppm are refused by name.
"""
import csv
import json
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

raystream, scenes = sys.argv[1], Path(sys.argv[2])
cornell = str(scenes / "cornell.json")
failures = []
W = H = 32


def check(cond, msg):
    if not cond:
        failures.append(msg)


def png(path, w, h, inside, colour=False):
    """An 8-bit PNG, grey or RGB: 255 (or a colour) inside, black outside."""
    rows = []
    for y in range(h):
        px = []
        for x in range(w):
            on = inside(x, y)
            px += ([0, 90, 0] if on else [0, 0, 0]) if colour else [255 if on else 0]
        rows.append(b"\0" + bytes(px))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2 if colour else 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows))) +
                     chunk(b"IEND", b""))


def run(*args):
    return subprocess.run([raystream, "bench-quality", "--backend", "cpu", "--threads", "2", "--scenes", cornell,
                           "--width", str(W), "--height", str(H), "--reference-spp", "256", *args],
                          capture_output=True, text=True, timeout=120)


def region(x, y):  # the floor's middle, below the box's light
    return y >= 22 and 6 <= x < 26


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    inside = sum(region(x, y) for y in range(H) for x in range(W))
    mask, rest, small, black = tmp / "mask.png", tmp / "rest.png", tmp / "small.png", tmp / "black.png"
    png(mask, W, H, region)
    png(rest, W, H, lambda x, y: not region(x, y), colour=True)
    png(small, 16, H, region)
    png(black, W, H, lambda x, y: False)
    configs = "integrator=path;integrator=light"
    common = ["--max-spp", "4", "--configs", configs, "--reference-cache", str(tmp)]

    js, cs = tmp / "m.json", tmp / "m.csv"
    masked = run(*common, "--mask", str(mask), "--json", str(js), "--csv", str(cs))
    check(masked.returncode == 0, f"bench-quality --mask exited {masked.returncode}: {masked.stderr[-2000:]}")
    out = masked.stdout
    check(f"region: mask {mask}, {inside} of {W * H} pixels" in out, f"the table names no region:\n{out}")
    check("path+" in out and "light+" in out, f"the table does not name both integrators:\n{out}")
    result = json.loads(js.read_text())["results"][0]
    check(result["region"] == f"mask {mask}, {inside} pixels" and result["mask"] == str(mask) and
          result["mask_pixels"] == inside, f"JSON region: {result.get('region')} {result.get('mask_pixels')}")
    runs = {c["integrator"]: c for c in result["configurations"]}
    check(sorted(runs) == ["light", "path"], f"JSON integrators: {list(runs)}")
    for name, c in runs.items():
        pts = c["points"]
        check(c["label"].startswith(name + "+") and not c["error"], f"{name}: label {c['label']}, error {c['error']}")
        check([p["spp"] for p in pts] == [1, 2, 4], f"{name}: ladder {[p['spp'] for p in pts]}")
        check(all(p["pixels_compared"] == inside and p["missing_pixels"] == 0 for p in pts),
              f"{name}: pixels compared {[p['pixels_compared'] for p in pts]}, the mask has {inside}")
        check(pts and pts[-1]["relmse"] < pts[0]["relmse"], f"{name}: the error does not fall: {pts}")
    rows = list(csv.DictReader(cs.open()))
    check(len(rows) == 6 and {r["integrator"] for r in rows} == {"path", "light"} and
          all(r["mask"] == str(mask) and r["mask_pixels"] == str(inside) for r in rows), f"CSV: {rows[:2]}")

    # the region's errors are the region's: mask + complement = whole image, pixel-weighted
    whole = run(*common, "--json", str(tmp / "w.json"))
    other = run(*common, "--mask", str(rest), "--json", str(tmp / "r.json"))
    check(whole.returncode == 0 and other.returncode == 0, f"runs failed: {whole.stderr[-800:]} {other.stderr[-800:]}")
    check("region:" not in whole.stdout, "a region line without --mask")
    rw = json.loads((tmp / "w.json").read_text())["results"][0]
    rr = json.loads((tmp / "r.json").read_text())["results"][0]
    check(rw["mask"] is None and rw["region"] == f"image, {W * H} pixels", f"whole-image region: {rw['region']}")
    check(rr["mask_pixels"] == W * H - inside, f"complement pixels {rr['mask_pixels']}")
    for name in ["path", "light"]:
        pm = runs[name]["points"]
        pw = next(c for c in rw["configurations"] if c["integrator"] == name)["points"]
        pr = next(c for c in rr["configurations"] if c["integrator"] == name)["points"]
        for a, b, c in zip(pm, pr, pw):
            added = (a["relmse"] * inside + b["relmse"] * (W * H - inside)) / (W * H)
            check(abs(added - c["relmse"]) <= 1e-9 * c["relmse"],
                  f"{name} {c['spp']} spp: region {a['relmse']} + rest {b['relmse']} gives {added}, "
                  f"the whole image {c['relmse']}")
        check(any(abs(a["relmse"] - c["relmse"]) > 1e-3 * c["relmse"] for a, c in zip(pm, pw)),
              f"{name}: the mask changes no error")

    # --external hands integrator= on as --integrator: this binary gives the in-process errors
    ext = run("--max-spp", "2", "--configs", "integrator=light", "--reference-cache", str(tmp), "--mask", str(mask),
              "--external", raystream, "--json", str(tmp / "e.json"))
    check(ext.returncode == 0, f"--external exited {ext.returncode}: {ext.stderr[-1500:]}")
    if ext.returncode == 0:
        ce = json.loads((tmp / "e.json").read_text())["results"][0]["configurations"][0]
        check(ce["integrator"] == "light" and
              [p["relmse"] for p in ce["points"]] == [p["relmse"] for p in runs["light"]["points"][:2]],
              f"--external light: {[p['relmse'] for p in ce['points']]} against {runs['light']['points'][:2]}")

    wrong = run("--max-spp", "1", "--configs", "integrator=path", "--mask", str(small))
    check(wrong.returncode == 1 and "16x32" in wrong.stderr and "32x32" in wrong.stderr,
          f"a mask of the wrong size: exit {wrong.returncode}, {wrong.stderr[-400:]!r}")
    empty = run("--max-spp", "1", "--configs", "integrator=path", "--mask", str(black))
    check(empty.returncode == 1 and "no pixel is inside" in empty.stderr, f"an all-black mask: {empty.stderr[-400:]!r}")
    for args, name in [(["--mask", f"{mask},{mask}"], "--mask"), (["--configs", "integrator=bidir"], "integrator"),
                       (["--configs", "integrator=sppm,photons=0"], "photons")]:
        r = run(*args)
        check(r.returncode == 2 and name in r.stderr, f"{args}: exit {r.returncode}, {r.stderr[-300:]!r}")
    photons = run("--max-spp", "1", "--configs", "integrator=path,photons=64")
    check(photons.returncode == 1 and "photons" in photons.stderr and "sppm" in photons.stderr,
          f"photons= on the path tracer: exit {photons.returncode}, {photons.stderr[-300:]!r}")

for f in failures:
    print("FAIL:", f)
print(f"test_bench_quality_mask: {len(failures)} failures")
sys.exit(1 if failures else 0)
