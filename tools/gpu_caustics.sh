#!/bin/bash
# gpu_caustics.sh - the particle integrators (issue 27) on a GPU host: builds this tree
# (build-gpu), runs the gpu suite, compute-sanitizer on light tracing and SPPM, the dead-ray
# strategies' agreement on the caustic scenes, and `bench` for particles and photons per second
# against the path tracer's samples per second; with a mask and a reference scene, `bench-quality`
# for the error in the caustic region against time (SPPM against the path tracer).
#
#   tools/gpu_caustics.sh [SCENE...]   (default scenes/caustics.json scenes/glass-table.json)
#
# Environment: ARCH (default 90); WIDTH, HEIGHT for bench (default 1920x1080); QUALITY_SCENE and
# QUALITY_MASK (bench-quality's scene and --mask; default scenes/glass-table.json and
# tests/data/caustics/glass-table-caustic.png, the caustic alone, when both exist); REF_SPP, MAX_SECONDS for it (default
# 65536 and 20). Everything goes to $OUT/caustics (or ./gpu-out/caustics). A host without the
# Debian libraries needs .gpu-deps (tools/gpu_host_deps.sh).
set -u
arch=${ARCH:-90}
out=${OUT:-gpu-out}/caustics
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
tools/gpu_build.sh "$arch" "$out" || exit 1
rs=build-gpu/raystream
scenes=("$@")
[ ${#scenes[@]} -eq 0 ] && scenes=(scenes/caustics.json scenes/glass-table.json)

echo "== gpu suite"
timeout 400 meson test -C build-gpu --suite gpu --print-errorlogs > "$out/gpu-suite.log" 2>&1
grep -E "^Ok|^Fail|^Skip|FAIL|TIMEOUT" "$out/gpu-suite.log"

echo "== compute-sanitizer"
for i in light sppm; do
    compute-sanitizer --tool memcheck --error-exitcode 9 $rs render "${scenes[0]}" --backend cuda --integrator $i \
        --spp 2 --width 64 --height 48 -o /tmp/san.pfm --quiet > "$out/san-$i.txt" 2>&1
    echo "memcheck $i: exit $? $(grep 'ERROR SUMMARY' "$out/san-$i.txt")"
done

echo "== strategies (md5 of 64x48 renders, 4 passes)"
for s in "${scenes[@]}"; do
    for i in light sppm; do
        rm -f /tmp/st-*.pfm
        for d in flags stencil persistent compact-scan compact-block compact-warp compact-cub; do
            $rs render "$s" --backend cuda --integrator $i --deadray $d --spp 4 --width 64 --height 48 \
                -o /tmp/st-$d.pfm --quiet 2>> "$out/strategies.err"
        done
        $rs render "$s" --backend cuda --integrator $i --max-memory 2M --spp 4 --width 64 --height 48 \
            -o /tmp/st-small-waves.pfm --quiet 2>> "$out/strategies.err"
        echo "$s $i: $(md5sum /tmp/st-*.pfm | cut -d' ' -f1 | sort -u | wc -l) distinct image(s) of $(ls /tmp/st-*.pfm | wc -l)"
    done
done

echo "== bench (${WIDTH:-1920}x${HEIGHT:-1080}, depth 8)"
list=$(IFS=,; echo "${scenes[*]}")
timeout 300 $rs bench --scenes "$list" --integrator all --depths 8 --deadray stencil,compact-cub \
    --width "${WIDTH:-1920}" --height "${HEIGHT:-1080}" --frames 10 --warmup 2 --json "$out/bench.json" \
    > "$out/bench.txt" 2> "$out/bench.err"
echo "bench exit $?"
grep -E "particles/s|photons/s" "$out/bench.txt"
grep -A4 "FPS" "$out/bench.txt" | head -40

qs=${QUALITY_SCENE:-scenes/glass-table.json}
qm=${QUALITY_MASK:-tests/data/caustics/glass-table-caustic.png}
if [ -f "$qs" ] && [ -f "$qm" ]; then
    echo "== bench-quality: $qs, in the mask $qm"
    # the reference is the path tracer's (--integrator path: the scene's own is sppm)
    timeout 420 $rs bench-quality --scenes "$qs" --mask "$qm" --integrator path --width "${QUALITY_WIDTH:-240}" --height "${QUALITY_HEIGHT:-135}" \
        --configs "integrator=path;integrator=sppm;integrator=light" \
        --reference-spp "${REF_SPP:-65536}" --max-seconds "${MAX_SECONDS:-20}" --json "$out/quality.json" \
        > "$out/quality.txt" 2> "$out/quality.err"
    echo "bench-quality exit $?"
    cat "$out/quality.txt"
fi
