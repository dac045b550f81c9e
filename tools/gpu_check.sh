#!/bin/bash
# gpu_check.sh - correctness on a GPU host: build (release, one architecture), the gpu suite,
# compute-sanitizer (memcheck, racecheck, synccheck) over the gpu tests and one render per
# strategy, and the SASS of the stage kernels (are RayState fields 128-bit accesses?).
# Writes a summary to stdout and the logs to $OUT/check.tar.gz (or ./gpu-out).
#
#   tools/gpu_check.sh [ARCH]        e.g. 90 for H100/H200
# On a host without cJSON/assimp/stb, bring .gpu-deps (tools/gpu_host_deps.sh).
set -u
arch=${1:-90}
out=${OUT:-gpu-out}
logs=$(mktemp -d)
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
tools/gpu_build.sh "$arch" "$logs" || exit 1
build-gpu/raystream info | tee "$logs/info.txt"
meson test -C build-gpu --suite gpu --print-errorlogs > "$logs/gpu-suite.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail|^Skip" "$logs/gpu-suite.log"
grep -E "mean cpu" build-gpu/meson-logs/testlog.txt | tee "$logs/cpu-vs-gpu.txt"

strategies="flags stencil persistent compact-scan compact-block compact-warp compact-cub"
for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/tests/test_gpu_deadray > "$logs/san-$tool-deadray.txt" 2>&1
    echo "sanitizer $tool test_gpu_deadray: exit $? | $(grep -E 'ERROR SUMMARY|checks' "$logs/san-$tool-deadray.txt" | tr '\n' ' ')"
    compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/tests/test_gpu_render scenes/cornell.json \
        > "$logs/san-$tool-render-test.txt" 2>&1
    echo "sanitizer $tool test_gpu_render cornell: exit $? | $(grep -E 'ERROR SUMMARY' "$logs/san-$tool-render-test.txt")"
    for d in $strategies; do
        for p in "" --payload; do
            [ -n "$p" ] && [ "${d#compact}" = "$d" ] && continue
            compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/raystream render scenes/mirrors.json \
                -o "$logs/san.png" --deadray $d $p --spp 2 --width 96 --height 64 --quiet > "$logs/san-$tool-$d$p.txt" 2>&1
            echo "sanitizer $tool render $d$p: exit $? | $(grep -E 'ERROR SUMMARY' "$logs/san-$tool-$d$p.txt")"
        done
    done
done

# SASS of the stage kernels: global loads/stores by width
cuobjdump -sass build-gpu/raystream > "$logs/sass.txt" 2>&1
python3 - "$logs/sass.txt" <<'PY' | tee "$logs/sass-summary.txt"
import re, sys, collections
kernel = None
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m:
        kernel = m.group(1)
        continue
    m = re.search(r"\b(LDG|STG|LDL|STL)(\.[A-Z0-9_]+)*", line)
    if m and kernel:
        width = "128" if ".128" in m.group(0) else ("64" if ".64" in m.group(0) else "32 or less")
        counts[kernel][f"{m.group(1)} {width}"] += 1
for k in sorted(counts):
    if "kernel_extend" in k or "kernel_shade" in k or "kernel_generate" in k or "kernel_connect" in k or "gather" in k:
        print(k[:90], dict(sorted(counts[k].items())))
PY
tar -czf "$out/check.tar.gz" -C "$logs" .
