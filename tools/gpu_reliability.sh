#!/bin/bash
# gpu_reliability.sh - on a GPU host: compute-sanitizer memcheck, initcheck, racecheck and
# synccheck over the gpu suite and over one render of each shipped scene with each strategy
# (payload compaction included); and on the GPU, that a memory cap (many small waves) and a
# resumed render give images identical to the plain one. Summary on stdout, logs in
# $OUT/reliability.tar.gz.  Usage: [TOOLS="memcheck ..."] tools/gpu_reliability.sh [ARCH]
set -u
arch=${1:-90}
out=${OUT:-gpu-out}
logs=$(mktemp -d)
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
tools/gpu_build.sh "$arch" "$logs" || exit 1
rs=build-gpu/raystream
failures=0
run() { # name, command...: a sanitizer run passes with exit 0 and "ERROR SUMMARY: 0 errors"
    local name=$1; shift
    "$@" > "$logs/$name.txt" 2>&1
    local status=$?
    if [ $status -ne 0 ] || grep -q "ERROR SUMMARY: [1-9]" "$logs/$name.txt"; then
        failures=$((failures + 1))
        echo "FAILED $name (exit $status): $(grep -m3 -E 'ERROR|error|failed' "$logs/$name.txt" | tr '\n' ' ')"
    fi
}
strategies="flags stencil persistent compact-scan compact-block compact-warp compact-cub"
count=0
for tool in ${TOOLS:-memcheck initcheck racecheck synccheck}; do
    san="compute-sanitizer --tool $tool --error-exitcode 9"
    for t in test_gpu_deadray test_gpu_display; do
        run "$tool-$t" $san build-gpu/tests/$t; count=$((count + 1))
    done
    run "$tool-test_gpu_render" $san build-gpu/tests/test_gpu_render scenes/cornell.json; count=$((count + 1))
    # every scene x strategy for the memory tools; the shared-memory/sync tools need one scene
    scenes="cornell mirrors diffuse reflect-23k"
    [ $tool = racecheck ] || [ $tool = synccheck ] && scenes="mirrors"
    for s in $scenes; do
        for d in $strategies; do
            for p in "" --payload; do
                [ -n "$p" ] && [ "${d#compact}" = "$d" ] && continue
                run "$tool-$s-$d$p" $san $rs render scenes/$s.json -o "$logs/x.png" --deadray $d $p --spp 1 \
                    --width 48 --height 32 --quiet
                count=$((count + 1))
            done
        done
    done
    echo "$tool: done ($count runs so far, $failures failed)"
done

# memory cap and resume on the GPU: images identical to the plain render
$rs render scenes/mirrors.json --spp 4 --width 320 --height 240 -o "$logs/plain.pfm" --quiet
$rs render scenes/mirrors.json --spp 4 --width 320 --height 240 -o "$logs/capped.pfm" --quiet --max-memory 2M \
    && cmp -s "$logs/plain.pfm" "$logs/capped.pfm" && echo "GPU --max-memory 2M: identical to uncapped" \
    || { failures=$((failures + 1)); echo "FAILED GPU memory cap"; }
$rs render scenes/mirrors.json --spp 2 --width 320 --height 240 -o "$logs/half.pfm" --quiet --checkpoint "$logs/ck"
$rs render scenes/mirrors.json --spp 4 --width 320 --height 240 -o "$logs/resumed.pfm" --quiet --resume "$logs/ck" \
    && cmp -s "$logs/plain.pfm" "$logs/resumed.pfm" && echo "GPU resume from 2 to 4 spp: identical to uninterrupted" \
    || { failures=$((failures + 1)); echo "FAILED GPU resume"; }
echo "GPU reliability: $count sanitizer runs, $failures failures"
tar -czf "$out/reliability.tar.gz" -C "$logs" .
[ $failures -eq 0 ]
