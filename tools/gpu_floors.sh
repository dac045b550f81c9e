#!/bin/bash
# gpu_floors.sh BINARY LABEL - the benchmark floors, for one raystream binary, on a GPU host:
#   Sponza 1920x1080, path tracing, depth 8, 16 spp per frame: samples per second (traversal issue);
#   cornell 1024x768, path, depths 1 and 8, every strategy: G ray segments/s (CUDA issue);
#   diffuse, whitted, depths 1 and 8: FPS(8) / FPS(1) for the best strategy (dead-ray issue).
# Run it for two binaries (say this build and an older commit's) in one call to compare them on
# one device. Writes $OUT/floors-LABEL-*.json and prints a summary.
set -u
bin=$1 label=$2
out=${OUT:-gpu-out}
sponza=${SPONZA:-tools/bench/scenes/sponza.json}
mkdir -p "$out"
"$bin" bench --scenes "$sponza" --integrator path --depths 8 --spp 16 --width 1920 --height 1080 \
    --deadray compact-cub,stencil,compact-warp --frames 5 --warmup 1 --quiet \
    --json "$out/floors-$label-sponza.json" > "$out/floors-$label-sponza.txt" 2>&1 || echo "$label: sponza bench failed"
"$bin" bench --scenes scenes/cornell.json --integrator path --depths 1,8 --quiet \
    --json "$out/floors-$label-cornell.json" > /dev/null 2>&1 || echo "$label: cornell bench failed"
"$bin" bench --scenes scenes/diffuse.json --integrator whitted --depths 1,8 --quiet \
    --json "$out/floors-$label-diffuse.json" > /dev/null 2>&1 || echo "$label: diffuse bench failed"
python3 - "$out" "$label" <<'PY'
import json, sys, os
out, label = sys.argv[1], sys.argv[2]
def load(name):
    p = os.path.join(out, f"floors-{label}-{name}.json")
    return json.load(open(p))["results"] if os.path.exists(p) else []
for r in load("sponza"):
    samples = r["width"] * r["height"] * r["spp"]
    print(f"{label}: sponza path depth 8, {r['spp']} spp, {r['deadray']:13s}: {r['ms_median']:8.2f} ms/frame, "
          f"{samples / (r['ms_median'] * 1e-3) / 1e6:7.1f} M samples/s, extend {r['stage_ms']['extend']:.2f} ms")
best = max((r for r in load("cornell") if r["depth"] == 8), key=lambda r: r["mrays_per_s"]["total"], default=None)
if best:
    print(f"{label}: cornell path depth 8, best {best['deadray']}: {best['mrays_per_s']['total'] / 1e3:.2f} G ray segments/s")
d = load("diffuse")
fps = {}
for r in d:
    fps.setdefault(r["deadray"], {})[r["depth"]] = r["fps_median"]
ratios = {k: v[8] / v[1] for k, v in fps.items() if 1 in v and 8 in v}
if ratios:
    k = max(ratios, key=lambda k: fps[k][8])
    print(f"{label}: diffuse whitted, best at depth 8 {k}: FPS(8)/FPS(1) = {ratios[k]:.3f}")
PY
