#!/bin/bash
# gpu_check.sh - on a GPU host: build (release, one architecture), run the gpu suite, render
# every scene with every strategy, run compute-sanitizer, and dump the stage kernels' SASS.
# Results go to $OUT (or ./gpu-out). Meant for the device machine of tools/run.sh's README
# section "GPU runs"; needs .gpu-deps when cJSON/assimp/stb are not installed.
#
#   tools/gpu_check.sh [ARCH] [quick|full]
set -u
arch=${1:-90}
mode=${2:-full}
out=${OUT:-gpu-out}
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
if [ ! -f build-gpu/build.ninja ]; then
    rm -rf build-gpu
    meson setup build-gpu -Dcuda=enabled -Dcuda-arch="$arch" -Dviewer=disabled --buildtype=release \
        > "$out/setup.log" 2>&1 || { tail -20 "$out/setup.log"; exit 1; }
fi
ninja -C build-gpu > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
build-gpu/raystream info | tee "$out/info.txt"
meson test -C build-gpu --suite gpu --print-errorlogs > "$out/gpu-suite.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail|^Skip" "$out/gpu-suite.log"
grep -E "mean cpu" build-gpu/meson-logs/testlog.txt > "$out/cpu-vs-gpu.txt"
cat "$out/cpu-vs-gpu.txt"
for s in cornell mirrors; do
    for d in flags stencil persistent compact-scan compact-block compact-warp compact-cub; do
        build-gpu/raystream render scenes/$s.json -o "$out/$s-$d.png" --deadray $d --spp 16 \
            --width 1024 --height 768 --quiet > /dev/null 2>>"$out/render-errors.txt" || echo "render $s $d failed"
    done
    cmp "$out/$s-flags.png" "$out/$s-compact-warp.png" > /dev/null && echo "$s: flags and compact-warp PNGs identical"
done
cuobjdump --dump-sass build-gpu/libraystream_cuda.a > "$out/sass.txt" 2>&1
echo "SASS: $(grep -c 'LDG.E.128' "$out/sass.txt") LDG.E.128, $(grep -c 'STG.E.128' "$out/sass.txt") STG.E.128," \
     "$(grep -cE 'LDG.E(\.[A-Z0-9]+)*\s' "$out/sass.txt") other-width LDG lines, $(grep -c 'LDL' "$out/sass.txt") LDL"
if [ "$mode" = full ]; then
    for tool in memcheck racecheck synccheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/tests/test_gpu_deadray > "$out/san-$tool-deadray.txt" 2>&1
        echo "compute-sanitizer $tool test_gpu_deadray: exit $? ($(tail -1 "$out/san-$tool-deadray.txt"))"
        for d in flags stencil persistent compact-scan compact-block compact-warp compact-cub; do
            compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/raystream render scenes/mirrors.json \
                -o "$out/san.png" --deadray $d --spp 1 --width 96 --height 64 --quiet > "$out/san-$tool-$d.txt" 2>&1
            echo "compute-sanitizer $tool render $d: exit $? ($(grep -E 'ERROR SUMMARY' "$out/san-$tool-$d.txt"))"
        done
    done
fi
