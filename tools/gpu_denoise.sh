#!/bin/bash
# gpu_denoise.sh - the denoiser and AOVs on a GPU host. Outputs under $OUT (or ./gpu-out).
#
#   tools/gpu_denoise.sh check [ARCH]    build, gpu suite, compute-sanitizer on the denoiser test,
#                                        bench --denoise at 1920x1080, Nsight Compute of its kernels
#   tools/gpu_denoise.sh quality [ARCH]  the renders tools/denoise_quality.py scores: per scene a
#                                        reference (8192 spp, another seed) and 1, 4, 16 spp with
#                                        --denoise, as .exr (denoised + noisy) and .png, one
#                                        quality-SCENE.tar.gz each
# On a host without the Debian libraries, bring .gpu-deps (tools/gpu_host_deps.sh); Sponza comes
# from .sponza-run/crytek-sponza (*.gz, unpacked into .bench-assets) when it is there.
set -u
mode=${1:-check}
arch=${2:-90}
out=${OUT:-gpu-out}
logs="$out/logs"
mkdir -p "$logs"
for env in .gpu-deps/env.sh .gpu-lite/env.sh; do [ -f "$env" ] && . "$env"; done
export PATH="$PATH:/usr/local/cuda/bin"
if [ -d .sponza-run/crytek-sponza ] && [ ! -f .bench-assets/crytek-sponza/sponza.obj ]; then
    mkdir -p .bench-assets && cp -r .sponza-run/crytek-sponza .bench-assets/ && gunzip -f .bench-assets/crytek-sponza/*.gz
fi
tools/gpu_build.sh "$arch" "$logs" || exit 1
rs=build-gpu/raystream
sponza=tools/bench/scenes/sponza.json

if [ "$mode" = check ]; then
    $rs info | head -5
    meson test -C build-gpu --suite gpu --print-errorlogs > "$logs/gpu-suite.log" 2>&1
    grep -E "^ *[0-9]+/|^Ok|^Fail|^Skip" "$logs/gpu-suite.log"
    grep -h "CUDA vs CPU" build-gpu/meson-logs/testlog.txt
    compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/tests/test_denoise scenes/cornell.json cuda \
        > "$logs/memcheck-denoise.txt" 2>&1
    echo "memcheck test_denoise cuda: exit $? | $(grep -E 'ERROR SUMMARY' "$logs/memcheck-denoise.txt")"
    for scene in "$sponza" scenes/cornell.json; do
        [ -f "$scene" ] || continue
        $rs bench --scenes "$scene" --integrator path --depths 8 --spp 1 --width 1920 --height 1080 \
            --deadray compact-warp --frames 21 --warmup 3 --denoise --json "$out/bench-denoise-$(basename "$scene" .json).json" \
            2> /dev/null | grep -E "denoise"
    done
    ncu --kernel-name regex:rs_kernel_denoise --launch-count 8 --section SpeedOfLight --section Occupancy \
        $rs render scenes/cornell.json --width 1920 --height 1080 --spp 1 --denoise -q -o /tmp/ncu.png \
        > "$logs/ncu-denoise.txt" 2>&1
    grep -E "rs_kernel_denoise|Duration|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy" \
        "$logs/ncu-denoise.txt" | head -60
else
    q="$out/quality"
    mkdir -p "$q"
    for entry in "cornell scenes/cornell.json 256 256" "mirrors scenes/mirrors.json 256 256" \
                 "sponza $sponza 480 270"; do
        set -- $entry
        name=$1 scene=$2 w=$3 h=$4
        [ -f "$scene" ] || continue
        $rs render "$scene" --width "$w" --height "$h" --spp 8192 --seed 977 -q -o "$q/${name}_ref.exr" \
            -o "$q/${name}_ref.png" || exit 1
        for spp in 1 4 16; do
            $rs render "$scene" --width "$w" --height "$h" --spp $spp --denoise -q \
                -o "$q/${name}_${spp}.exr" -o "$q/${name}_${spp}.png" || exit 1
        done
        tar -czf "$out/quality-$name.tar.gz" -C "$q" . && rm -f "$q"/*
        echo "$name: $out/quality-$name.tar.gz"
    done
fi
