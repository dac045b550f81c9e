#!/bin/bash
# gpu_bench.sh - benchmarks on a GPU host: the default bench suite (also with payload
# compaction), the compaction micro-benchmark, the floors of the CUDA issue (cornell path depth
# 8; Sponza camera rays) and charts. Results in $OUT/bench.tar.gz; summary on stdout.
#
#   tools/gpu_bench.sh [ARCH] [SPONZA_SCENE]
set -u
arch=${1:-90}
sponza=${2:-.bench-assets/sponza.json}
out=${OUT:-gpu-out}
res=$(mktemp -d)
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
tools/gpu_build.sh "$arch" "$res" || exit 1
rs=build-gpu/raystream
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$res/nvidia-smi.txt"
$rs bench --json "$res/bench.json" --csv "$res/bench.csv" --quiet > "$res/bench.txt" 2>&1
echo "bench: exit $?"; cat "$res/bench.txt"
$rs bench --payload --deadray compact-scan,compact-block,compact-warp,compact-cub --json "$res/bench-payload.json" \
    --csv "$res/bench-payload.csv" --quiet > "$res/bench-payload.txt" 2>&1
echo "bench --payload: exit $?"
$rs bench-compact --json "$res/compact.json" --csv "$res/compact.csv" > "$res/compact.txt" 2>&1
echo "bench-compact: exit $?"; grep -E "16777216|sweep" "$res/compact.txt" | head -40
# floors: cornell 1024x768 path depth 8, every strategy; Sponza camera rays (depth 1)
$rs bench --scenes scenes/cornell.json --integrator path --depths 1,8 --json "$res/floor-cornell.json" \
    --quiet > "$res/floor-cornell.txt" 2>&1
cat "$res/floor-cornell.txt"
if [ -f "$sponza" ]; then
    $rs bench --scenes "$sponza" --integrator path --depths 1,8 --deadray flags,compact-warp \
        --json "$res/floor-sponza.json" --quiet > "$res/floor-sponza.txt" 2>&1
    cat "$res/floor-sponza.txt"
fi
python3 - "$res" <<'PY' | tee "$res/floors.txt"
import json, sys, os
res = sys.argv[1]
for name in ("floor-cornell.json", "floor-sponza.json"):
    p = os.path.join(res, name)
    if not os.path.exists(p):
        continue
    doc = json.load(open(p))
    for r in doc["results"]:
        px = r["width"] * r["height"] * r["spp"]
        segs = r["mrays_per_s"]["total"]
        line = (f"{name} {r['deadray']:14s} depth {r['depth']}: {r['ms_median']:.3f} ms/frame, "
                f"{segs / 1e3:.3f} G ray segments/s (camera+bounce+shadow); extend {r['stage_ms']['extend']:.3f} ms")
        if r["depth"] == 1:  # depth 1 traces camera rays only in extend: their rate alone
            line += f" -> camera rays {px / (r['stage_ms']['extend'] * 1e-3) / 1e9:.3f} G/s"
        print(line)
PY
tar -czf "$out/bench.tar.gz" -C "$res" .
