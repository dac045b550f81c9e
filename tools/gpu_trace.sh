#!/bin/bash
# gpu_trace.sh - traversal on a GPU host: build, the gpu suite, compute-sanitizer (memcheck and
# racecheck) over the trace kernels, every structure against brute force on the big models, the
# SASS of the trace kernels (is there local memory in the bvh8 loop?), bench-trace on the
# benchmark scenes (also with spatial splits) with charts, and, with NCU=1, an Nsight Compute
# profile of bvh8's extend. Everything lands in $OUT/trace-results.tar.gz (or ./gpu-out).
#
#   tools/gpu_trace.sh [ARCH] [SCENES...]  default: tools/bench/scenes/*.json + the shipped scenes
# The benchmark models go in .bench-assets/ (tools/bench/scenes/README.md); gzip'd copies in
# .bench-assets-gz/ are unpacked there first.
set -u
arch=${1:-90}
[ $# -gt 0 ] && shift
out=${OUT:-gpu-out}
res=$(mktemp -d)
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
if [ -d .bench-assets-gz ]; then
    (cd .bench-assets-gz && find . -name '*.gz' | while read -r f; do
        mkdir -p "../.bench-assets/$(dirname "$f")"; gunzip -c "$f" > "../.bench-assets/${f%.gz}"; done)
fi
tools/gpu_build.sh "$arch" "$res" || exit 1
rs=build-gpu/raystream
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee "$res/nvidia-smi.txt"

meson test -C build-gpu --suite gpu --print-errorlogs > "$res/gpu-suite.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail" "$res/gpu-suite.log"

# compute-sanitizer over the trace kernels: every structure (bvh8's stack lives in shared
# memory, so racecheck matters), the dynamic-fetch extend, sorting
for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/tests/test_gpu_accel --rays 2000 scenes/cornell.json \
        scenes/reflect-23k.json > "$res/san-$tool-accel.txt" 2>&1
    echo "$tool test_gpu_accel: exit $? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$res/san-$tool-accel.txt" | tr '\n' ' ')"
    for accel in bvh2 bvh8 grid; do
        compute-sanitizer --tool $tool --error-exitcode 9 $rs render scenes/mirrors.json -o "$res/san.png" --spp 2 \
            --width 96 --height 64 --accel $accel --deadray compact-warp --sort-rays --quiet > "$res/san-$tool-$accel.txt" 2>&1
        echo "$tool render --accel $accel --sort-rays: exit $? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$res/san-$tool-$accel.txt" | tr '\n' ' ')"
    done
done

# SASS of the trace kernels: local memory (LDL/STL), shared memory and global loads, per kernel
cuobjdump -sass $rs > "$res/sass.txt" 2>&1
python3 - "$res/sass.txt" <<'PY' | tee "$res/sass-trace.txt"
import re, sys, collections
kernel, counts = None, collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m:
        kernel = m.group(1)
        continue
    m = re.search(r"\b(LDL|STL|LDS|STS|LDG|STG)(\.[A-Z0-9_]+)*", line)
    if m and kernel and ("extend" in kernel or "connect" in kernel):
        counts[kernel][m.group(0).split(".")[0] + (".128" if ".128" in m.group(0) else "")] += 1
for k in sorted(counts):
    print(k[:100], dict(sorted(counts[k].items())))
PY
rm -f "$res/sass.txt"

scenes=("$@")
[ ${#scenes[@]} -eq 0 ] && scenes=(tools/bench/scenes/sponza.json tools/bench/scenes/conference.json
    tools/bench/scenes/sibenik.json tools/bench/scenes/dragon.json scenes/cornell.json scenes/mirrors.json
    scenes/diffuse.json scenes/reflect-23k.json)
list=$(IFS=,; echo "${scenes[*]}")
$rs bench-trace --scenes "$list" --json "$res/trace.json" --csv "$res/trace.csv" > "$res/trace.txt" 2>&1
echo "bench-trace: exit $?"; cat "$res/trace.txt"
$rs bench-trace --scenes "${scenes[0]}" --no-sbvh --json "$res/trace-nosbvh.json" --csv "$res/trace-nosbvh.csv" \
    > "$res/trace-nosbvh.txt" 2>&1
echo "bench-trace --no-sbvh: exit $?"; cat "$res/trace-nosbvh.txt"
python3 tools/plot_bench.py "$res/trace.json" -o "$res" > /dev/null 2>&1 || echo "charts: matplotlib missing here"

# every structure against brute force on the big models (GPU traversal, GPU brute force)
build-gpu/tests/test_gpu_accel --rays 3000 tools/bench/scenes/sponza.json tools/bench/scenes/dragon.json \
    tools/bench/scenes/conference.json tools/bench/scenes/sibenik.json > "$res/gpu-accel-big.txt" 2>&1
echo "test_gpu_accel on the big models: exit $?"; grep -E "disagreements|failed|passed" "$res/gpu-accel-big.txt"

# Nsight Compute over bvh8's extend on the first scene (camera rays, then bounce rays), with
# NCU=1: the limiter figures RESULTS.md quotes (issue rate, occupancy, SIMT efficiency, caches)
if [ "${NCU:-0}" = 1 ]; then
    for k in camera:rs_kernel_extend:1 bounce:rs_kernel_extend_fetch:3; do
        IFS=: read -r name kernel skip <<< "$k"
        timeout 200 ncu --clock-control none --kernel-name regex:"$kernel" --launch-skip "$skip" --launch-count 1 \
            --section SpeedOfLight --section Occupancy --section WarpStateStats \
            --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
            $rs bench-trace --scenes "${scenes[0]}" --accel bvh8 --repeats 1 > "$res/ncu-$name.txt" 2>&1
        echo "== ncu $name: exit $?"
        grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|thread_inst_executed_per|inst_executed.sum|sector_hit_rate|Warp Cycles Per Issued" \
            "$res/ncu-$name.txt"
    done
fi
tar -czf "$out/trace-results.tar.gz" -C "$res" .
