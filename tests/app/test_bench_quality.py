#!/usr/bin/env python3
"""test_bench_quality.py RAYSTREAM SCENES_DIR - a tiny `raystream bench-quality` on the CPU
backend (app suite):
  - the JSON holds the metadata, the reference and, per configuration, its points and times to
    target; the error falls with the samples; the CSV holds the same points;
  - a rendered reference is cached and reused (same image, same estimate, same errors);
  - a reference with too few samples is marked not adequate, with a warning;
  - a given reference (.pfm) is read back and gives the same errors;
  - --external, measuring this very binary's `render`, gives the in-process errors exactly
    (the same image through the same metric code);
  - a configuration this build cannot run fails cleanly, the others still run;
  - bad option values are refused (exit 2) naming the option;
  - tools/plot_quality.py draws the chart.
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

raystream, scenes = sys.argv[1], Path(sys.argv[2])
root = Path(__file__).resolve().parents[2]
cornell = str(scenes / "cornell.json")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def run(*args):
    return subprocess.run([raystream, "bench-quality", "--backend", "cpu", "--threads", "2", "--scenes", cornell,
                           "--width", "32", "--height", "32", *args], capture_output=True, text=True, timeout=120)


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    js, cs = tmp / "q.json", tmp / "q.csv"
    configs = "sampler=independent,light=power;sampler=sobol,light=power;sampler=independent,light=tree"
    first = run("--max-spp", "8", "--reference-spp", "512", "--configs", configs, "--json", str(js), "--csv", str(cs))
    # light=tree may not exist in this build yet: then that configuration alone fails (exit 1)
    check(first.returncode in (0, 1), f"bench-quality exited {first.returncode}: {first.stderr[-2000:]}")
    check("s to 1e-03" in first.stdout and "independent+power" in first.stdout, "no table on stdout")
    doc = json.loads(js.read_text())
    meta = doc["meta"]
    for key in ["raystream", "git_commit", "backend", "device", "benchmark", "epsilon", "trim_fraction", "targets",
                "max_spp", "reference_spp", "date"]:
        check(key in meta, f"meta.{key} missing")
    check(meta.get("backend") == "cpu" and meta.get("targets") == [1e-2, 3e-3, 1e-3], "meta backend/targets")
    check(len(doc["scenes"]) == 1 and doc["scenes"][0]["hash"].startswith("fnv1a64:"), "scene hash")
    result = doc["results"][0]
    for key in ["scene", "width", "height", "max_depth", "seed", "integrator", "reference", "configurations"]:
        check(key in result, f"result.{key} missing")
    check(result["width"] == 32 and result["height"] == 32 and result["max_depth"] == 8, "size and depth")
    ref = result["reference"]
    check(ref["source"] == "rendered" and ref["spp"] == 512 and ref["seed"] != result["seed"], f"reference {ref}")
    check(ref["estimate_from"] == "halves" and 0 < ref["relmse_estimate"] < 0.01, f"reference estimate {ref}")
    check(ref["adequate"] is True and ref["ratio_to_smallest"] <= 0.1, f"512 spp should be adequate: {ref}")
    check(ref["file"] and Path(ref["file"]).exists(), "reference not cached as PFM")
    runs = {c["label"]: c for c in result["configurations"]}
    check(len(runs) == 3, f"configurations: {list(runs)}")
    points = 0
    for label, c in runs.items():
        for key in ["config", "external", "sampler", "light_sampler", "noise_threshold", "min_spp", "error", "stopped",
                    "points", "time_to_target"]:
            check(key in c, f"{label}: {key} missing")
        if c["error"]:
            check(c["light_sampler"] == "tree" and not c["points"] and c["stopped"] == "error",
                  f"{label} failed: {c['error']}")
            check(first.returncode == 1, "a failed configuration must make the exit status 1")
            continue
        pts = c["points"]
        points += len(pts)
        check([p["spp"] for p in pts] == [1, 2, 4, 8] and c["stopped"] == "max-spp", f"{label}: ladder {pts}")
        # a 32x32 image at 1-8 spp is all noise, and one firefly can lift a step's plain relMSE
        # above the one before; over the whole ladder (8x the samples) the trimmed error must fall
        e = [p["relmse_trimmed"] for p in pts]
        check(e[-1] < e[0] / 2, f"{label}: relMSE without the worst pixels does not fall with spp: {e}")
        check(all(p["relmse_trimmed"] <= p["relmse"] for p in pts), f"{label}: trimmed above plain")
        check(all(b["seconds"] >= a["seconds"] and b["rays"] > a["rays"] for a, b in zip(pts, pts[1:])),
              f"{label}: time and rays must grow")
        check(all(p["pixels_compared"] == 1024 and p["pixels_trimmed"] == 1 and p["missing_pixels"] == 0
                  for p in pts), f"{label}: pixel counts")
        check([t["target"] for t in c["time_to_target"]] == [1e-2, 3e-3, 1e-3], f"{label}: targets")
    rows = list(csv.DictReader(cs.open()))
    check(len(rows) == points, f"CSV has {len(rows)} rows, JSON {points} points")
    check(rows and rows[0]["configuration"] == "independent+power" and float(rows[0]["relmse"]) > 0, "CSV content")
    base = runs["independent+power"]["points"]

    # the cached reference again: same image, estimate and errors
    again = run("--max-spp", "8", "--reference-spp", "512", "--configs", "sampler=independent,light=power",
                "--json", str(tmp / "again.json"))
    check(again.returncode == 0, f"rerun exited {again.returncode}: {again.stderr[-1500:]}")
    r2 = json.loads((tmp / "again.json").read_text())["results"][0]
    check(r2["reference"]["source"] == "cache" and r2["reference"]["file"] == ref["file"], "reference not reused")
    check(r2["reference"]["relmse_estimate"] == ref["relmse_estimate"], "cached estimate differs")
    check([p["relmse"] for p in r2["configurations"][0]["points"]] == [p["relmse"] for p in base],
          "errors against the cached reference differ")

    # too few reference samples: marked, and a warning
    noisy = run("--max-spp", "8", "--reference-spp", "8", "--configs", "sampler=independent,light=power",
                "--json", str(tmp / "noisy.json"))
    r3 = json.loads((tmp / "noisy.json").read_text())["results"][0]["reference"]
    check(noisy.returncode == 0 and r3["adequate"] is False and "warning" in noisy.stderr and
          "reference-spp" in noisy.stderr, f"noisy reference not flagged: {r3} {noisy.stderr[-800:]}")

    # a given reference: the cached PFM, read back
    given = run("--max-spp", "8", "--reference", ref["file"], "--configs", "sampler=independent,light=power",
                "--json", str(tmp / "given.json"))
    r4 = json.loads((tmp / "given.json").read_text())["results"][0]
    check(given.returncode == 0 and r4["reference"]["source"] == "given" and r4["reference"]["adequate"] is None
          and "cannot be estimated" in given.stderr, f"given reference: {r4['reference']} {given.stderr[-800:]}")
    check([p["relmse"] for p in r4["configurations"][0]["points"]] == [p["relmse"] for p in base],
          "errors against the given reference differ")

    # --external: this binary's render, step by step, through the same metric code
    ext = run("--max-spp", "4", "--reference-spp", "512", "--external", raystream, "--configs",
              "sampler=independent,light=power", "--json", str(tmp / "ext.json"))
    check(ext.returncode == 0, f"--external exited {ext.returncode}: {ext.stderr[-1500:]}")
    r5 = json.loads((tmp / "ext.json").read_text())["results"][0]
    c5 = r5["configurations"][0]
    check(c5["external"] == raystream and c5["label"].startswith("external"), f"external run: {c5['label']}")
    check([p["relmse"] for p in c5["points"]] == [p["relmse"] for p in base[:3]],
          f"external errors {[p['relmse'] for p in c5['points']]} differ from in-process {[p['relmse'] for p in base]}")

    plot = subprocess.run([sys.executable, str(root / "tools" / "plot_quality.py"), str(js), str(tmp / "ext.json"),
                           "-o", str(tmp), "--baseline", "ext"], capture_output=True, text=True, timeout=120)
    png = tmp / "quality_cornell.png"
    check(plot.returncode == 0 and png.exists() and png.read_bytes()[:4] == b"\x89PNG",
          f"plot_quality.py failed: {plot.stderr[-1500:]}")

    bad = [
        (["--max-spp", "0"], "--max-spp"),
        (["--max-spp", "many"], "--max-spp"),
        (["--max-seconds", "-1"], "--max-seconds"),
        (["--reference-spp", "1"], "--reference-spp"),
        (["--configs", "sampler=foo"], "--configs"),
        (["--configs", "light=brightest"], "--configs"),
        (["--configs", "colour=red"], "--configs"),
        (["--configs", "sampler=sobol;"], "--configs"),
        (["--configs", "threshold=-0.5"], "--configs"),
        (["--configs", "sampler"], "--configs"),
        (["--targets", "small"], "--targets"),
        (["--targets", "1e-2,-1"], "--targets"),
        (["--targets", "0"], "--targets"),
        (["--reference", "a.pfm,b.pfm"], "--reference"),
        (["--external", str(tmp / "no-such-binary")], "--external"),
        (["--spp", "4"], "--spp"),
        (["--frobnicate"], "--frobnicate"),
    ]
    for args, name in bad:
        r = run(*args)
        check(r.returncode == 2 and name in r.stderr, f"{args}: exit {r.returncode}, stderr {r.stderr[-300:]!r}")
    missing = run("--reference", str(tmp / "none.pfm"), "--max-spp", "1", "--configs", "default")
    check(missing.returncode == 1 and "none.pfm" in missing.stderr, f"missing reference: {missing.stderr[-300:]!r}")

for f in failures:
    print("FAIL:", f)
print(f"test_bench_quality: {len(failures)} failures")
sys.exit(1 if failures else 0)
