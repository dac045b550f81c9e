#!/usr/bin/env python3
"""test_bench.py RAYSTREAM SCENES_DIR - a tiny `raystream bench` on the CPU backend and the
checks its JSON and CSV must pass (render suite):
  - the metadata and every per-result field are present;
  - live rays entering the first bounce equal pixels x spp (every camera ray is traced);
  - live rays never increase with depth under whitted (one ray per path);
  - every strategy reports the same live-ray and shadow-ray counts for the same configuration;
  - every row has the device's busy fraction and the strategy of each bounce: a fixed strategy's
    own name, auto's picks among its candidates;
  - the CSV holds the same results as the JSON;
  - asking only for strategies the backend lacks is a usage error that says so.
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

raystream, scenes = sys.argv[1], Path(sys.argv[2])
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


with tempfile.TemporaryDirectory() as tmp:
    js, cs = Path(tmp) / "b.json", Path(tmp) / "b.csv"
    w, h, spp = 24, 16, 2
    cmd = [raystream, "bench", "--backend", "cpu", "--threads", "2", "--width", str(w), "--height", str(h),
           "--spp", str(spp), "--frames", "2", "--warmup", "1", "--depths", "1..5",
           "--scenes", f"{scenes / 'mirrors.json'},{scenes / 'diffuse.json'}", "--json", str(js), "--csv", str(cs)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, f"bench exited {run.returncode}: {run.stderr[-2000:]}")
    check("FPS (median of 2 frames)" in run.stdout and "compact-block" in run.stdout, "no FPS table on stdout")
    doc = json.loads(js.read_text())
    rows = list(csv.DictReader(cs.open()))
    # the plot tool turns the JSON into charts
    plot = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[2] / "tools" / "plot_bench.py"),
                           str(js), "-o", tmp], capture_output=True, text=True, timeout=300)
    check(plot.returncode == 0, f"plot_bench.py failed: {plot.stderr[-1500:]}")
    for name in ["fps_mirrors.png", "live_mirrors.png", "fps_diffuse.png", "live_diffuse.png"]:
        png = Path(tmp) / name
        check(png.exists() and png.stat().st_size > 10000 and png.read_bytes()[:4] == b"\x89PNG",
              f"{name} missing or empty")

# no strategy left to time (CUB exists on the GPU only): a usage error that says so, not an empty table
none = subprocess.run([raystream, "bench", "--backend", "cpu", "--deadray", "compact-cub", "--depths", "1",
                       "--scenes", str(scenes / "diffuse.json")], capture_output=True, text=True, timeout=60)
check(none.returncode == 2 and "none of the strategies" in none.stderr and "CPU" in none.stderr,
      f"bench with no CPU strategy: exit {none.returncode}, {none.stderr[-300:]!r}")

meta = doc["meta"]
for key in ["raystream", "git_commit", "build_type", "cuda_architectures", "backend", "device", "frames",
            "warmup_frames", "seed", "date", "cpu_threads"]:
    check(key in meta, f"meta.{key} missing")
check(len(doc["scenes"]) == 2 and all(s["hash"].startswith("fnv1a64:") for s in doc["scenes"]), "scene hashes")
results = doc["results"]
strategies = {"flags", "stencil", "persistent", "compact-scan", "compact-block", "compact-warp", "auto"}
check({r["deadray"] for r in results} == strategies, f"strategies: {sorted({r['deadray'] for r in results})}")
check(len(results) == 2 * 2 * 7 * 5, f"{len(results)} results, expected 140")
auto_candidates = {"stencil", "persistent", "compact-scan", "compact-warp"}
fields = ["scene", "integrator", "deadray", "payload", "depth", "width", "height", "spp", "ms_median", "ms_min",
          "ms_max", "fps_median", "mrays_per_s", "live_rays", "live_fraction", "shadow_rays",
          "readback_bytes_per_frame", "stage_ms", "gpu_busy", "deadray_per_bounce"]
by_config = {}
for r in results:
    missing = [f for f in fields if f not in r]
    check(not missing, f"result fields missing: {missing}")
    if missing:
        continue
    check(set(r["mrays_per_s"]) == {"camera", "bounce", "shadow", "total"}, "mrays_per_s kinds")
    check(set(r["stage_ms"]) == {"generate", "sort", "extend", "shade", "connect", "drop_dead", "accumulate"}, "stage_ms")
    check(r["ms_min"] <= r["ms_median"] <= r["ms_max"], "min <= median <= max")
    check(0.0 < r["gpu_busy"] <= 1.5, f"gpu_busy {r['gpu_busy']}")
    picks = r["deadray_per_bounce"]
    check(len(picks) == r["depth"] + 1, f"deadray_per_bounce has {len(picks)} entries for depth {r['depth']}")
    ran = [p for p in picks if p is not None]
    check(ran and picks[0] is not None, f"{r['deadray']}: bounce 1 ran no strategy: {picks}")
    if r["deadray"] == "auto":
        check(set(ran) <= auto_candidates, f"auto picked {ran}")
    else:
        check(set(ran) == {r["deadray"]}, f"{r['deadray']} reports bounces of {ran}")
    live = r["live_rays"]
    # depth + 1 entries: the last is the emission-only segment after a specular last vertex
    check(len(live) == r["depth"] + 1, f"live_rays has {len(live)} entries for depth {r['depth']}")
    check(live[0] == w * h * spp, f"live rays at bounce 1: {live[0]}, expected {w * h * spp}")
    if r["integrator"] == "whitted":
        check(all(b <= a for a, b in zip(live, live[1:])), f"whitted live rays grow: {live}")
    key = (r["scene"], r["integrator"], r["depth"])
    counts = (tuple(live), tuple(r["shadow_rays"]))
    check(by_config.setdefault(key, counts) == counts, f"{key}: {r['deadray']} counts differ from the others")
check(len(rows) == len(results), f"CSV has {len(rows)} rows, JSON {len(results)}")
for row, r in zip(rows, results):
    check(row["deadray"] == r["deadray"] and int(row["depth"]) == r["depth"], "CSV row order")
    check([int(x) for x in row["live_rays"].split(";")] == r["live_rays"], "CSV live_rays")
    check(row["deadray_per_bounce"].split(";") == [p if p else "-" for p in r["deadray_per_bounce"]],
          "CSV deadray_per_bounce")
    check(abs(float(row["gpu_busy"]) - r["gpu_busy"]) < 1e-3, "CSV gpu_busy")

for f in failures[:20]:
    print("FAIL", f)
print(f"test_bench: {len(failures)} failures")
sys.exit(1 if failures else 0)
