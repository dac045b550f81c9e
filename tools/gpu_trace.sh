#!/bin/bash
# gpu_trace.sh - traversal on a GPU host: build, the gpu suite, brute-force agreement of every
# structure on the big models, the SASS of the trace kernels (is there local memory in the bvh8
# loop?), bench-trace on the benchmark scenes, and an Nsight Compute profile of bvh8's extend.
# Results in $OUT (or ./gpu-out): trace.json/.csv/.txt, sass-trace.txt, ncu-extend.txt.
#
#   tools/gpu_trace.sh [ARCH] [SCENES...]      default: tools/bench/scenes/*.json + scenes/*.json
# The benchmark models go in .bench-assets/ (tools/bench/scenes/README.md); gzip'd copies in
# .bench-assets-gz/ are unpacked there first.
set -u
arch=${1:-90}
shift
out=${OUT:-gpu-out}
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
if [ -d .bench-assets-gz ]; then
    (cd .bench-assets-gz && find . -name '*.gz' | while read -r f; do
        mkdir -p "../.bench-assets/$(dirname "$f")"; gunzip -c "$f" > "../.bench-assets/${f%.gz}"; done)
fi
logs=$(mktemp -d)
tools/gpu_build.sh "$arch" "$logs" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee "$out/nvidia-smi.txt"

meson test -C build-gpu --suite gpu --print-errorlogs > "$out/gpu-suite.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail" "$out/gpu-suite.log"

# SASS of the trace kernels: local memory (LDL/STL) and global loads by width, per kernel
cuobjdump -sass build-gpu/raystream > "$logs/sass.txt" 2>&1
python3 - "$logs/sass.txt" <<'PY' | tee "$out/sass-trace.txt"
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

scenes=("$@")
[ ${#scenes[@]} -eq 0 ] && scenes=(tools/bench/scenes/sponza.json tools/bench/scenes/conference.json
    tools/bench/scenes/sibenik.json tools/bench/scenes/dragon.json scenes/cornell.json scenes/mirrors.json
    scenes/diffuse.json scenes/reflect-23k.json)
list=$(IFS=,; echo "${scenes[*]}")
build-gpu/raystream bench-trace --scenes "$list" --json "$out/trace.json" --csv "$out/trace.csv" 2>&1 | tee "$out/trace.txt"

# every structure against brute force on the big models: GPU traversal, then CPU traversal
build-gpu/tests/test_gpu_accel --rays 3000 tools/bench/scenes/sponza.json tools/bench/scenes/dragon.json \
    tools/bench/scenes/conference.json tools/bench/scenes/sibenik.json > "$out/gpu-accel-big.txt" 2>&1
echo "test_gpu_accel on the big models: exit $?"; grep -E "rays|failed|passed" "$out/gpu-accel-big.txt"
timeout 300 build-gpu/tests/test_accel --rays 300 tools/bench/scenes/sponza.json tools/bench/scenes/dragon.json \
    > "$out/accel-big.txt" 2>&1; echo "test_accel (CPU) on the big models: exit $?"; tail -2 "$out/accel-big.txt"

# Nsight Compute over bvh8's extend on the first scene (camera rays, then bounce rays), with
# NCU=1: the limiter figures RESULTS.md quotes (issue rate, occupancy, SIMT efficiency, caches)
if [ "${NCU:-0}" = 1 ]; then
    timeout 300 ncu --clock-control none --kernel-name regex:rs_kernel_extend --launch-count 4 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
        --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__issue_active.avg.pct_of_peak_sustained_active \
        build-gpu/raystream bench-trace --scenes "${scenes[0]}" --accel bvh8 --repeats 1 > "$out/ncu-extend.txt" 2>&1
    echo "ncu: exit $?"
    grep -E "rs_kernel_extend|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|thread_inst_executed_per|inst_executed.sum|sector_hit_rate|issue_active|No Eligible|Active Warps Per" \
        "$out/ncu-extend.txt" | head -80
fi
