#!/bin/bash
# gpu_quality.sh BASELINE [SCENE...] - the equal-time error benchmark (issue 23) on a GPU host:
# builds this tree (build-gpu), unpacks the benchmark models, and for each scene, at 960x540,
# depth 8, on CUDA, runs `raystream bench-quality` three times against one reference:
#   new      this build in-process, every configuration (bench-quality's default list, or CONFIGS)
#   default  this build's `render` with its defaults, through --external
#   base     BASELINE's `render` (a build of main before issue 23), through --external
# "default" and "base" are timed the same way (each render's own "done in" line, one process per
# step of the ladder), so their ratio is the floors' comparison; BASELINE "none" skips "base".
# Then per scene a chart and a summary of seconds to each target with base's as 1
# (tools/plot_quality.py). Everything goes straight to $OUT/quality (or ./gpu-out/quality), so a
# run cut short still leaves the scenes it finished.
#
#   tools/gpu_quality.sh BASELINE [many-lights|sponza|sponza-sky|cornell ...]   (default: all four)
#
# Environment: ARCH (default 90); REF_SPP, MAX_SPP, MAX_SECONDS (bench-quality's --reference-spp,
# --max-spp, --max-seconds; defaults 65536, 65536, 60); CONFIGS (--configs); REF_CACHE (where
# rendered references are kept and looked for: default $OUT/quality/references; carry a folder
# to reuse them in a later call); REFS (a folder of given references NAME.exr, e.g. made with
# `render --aov variance` in several calls through --checkpoint/--resume, used instead of
# rendering one). The models go in .bench-assets/ (tools/bench/scenes/README.md); gzip'd copies
# in .bench-assets-gz/ are unpacked there first. A host without the Debian libraries needs
# .gpu-deps (tools/gpu_host_deps.sh).
set -u
base=${1:?usage: tools/gpu_quality.sh BASELINE_BINARY|none [SCENE...]}
shift
arch=${ARCH:-90}
out=${OUT:-gpu-out}/quality
cache=${REF_CACHE:-$out/references}
mkdir -p "$out" "$cache"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
if [ -d .bench-assets-gz ]; then
    (cd .bench-assets-gz && find . -name '*.gz' | while read -r f; do
        mkdir -p "../.bench-assets/$(dirname "$f")"; gunzip -c "$f" > "../.bench-assets/${f%.gz}"; done)
fi
tools/gpu_build.sh "$arch" "$out" || exit 1
rs=build-gpu/raystream
if [ "$base" != none ] && [ ! -x "$base" ]; then
    echo "gpu_quality.sh: baseline '$base' is not an executable (give a raystream binary, or none)" >&2
    exit 2
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee "$out/nvidia-smi.txt"

scene_file() {
    case $1 in
    many-lights) echo tools/bench/scenes/sponza-many-lights.json ;;
    sponza) echo tools/bench/scenes/sponza.json ;;
    sponza-sky) echo tools/bench/scenes/sponza-textured-sky.json ;;
    cornell) echo scenes/cornell.json ;;
    *) return 1 ;;
    esac
}

names=("$@")
[ ${#names[@]} -eq 0 ] && names=(many-lights sponza sponza-sky cornell)
for name in "${names[@]}"; do
    scene=$(scene_file "$name") || { echo "gpu_quality.sh: unknown scene '$name' (many-lights, sponza, sponza-sky, cornell)" >&2; continue; }
    common=(--scenes "$scene" --width 960 --height 540 --max-depth 8 --backend cuda
            --reference-spp "${REF_SPP:-65536}" --max-spp "${MAX_SPP:-65536}" --max-seconds "${MAX_SECONDS:-60}"
            --reference-cache "$cache")
    if [ -n "${REFS:-}" ] && [ -f "$REFS/$name.exr" ]; then
        common+=(--reference "$REFS/$name.exr")
    fi
    configs=()
    [ -n "${CONFIGS:-}" ] && configs=(--configs "$CONFIGS")
    start=$(date +%s)
    # the reference is rendered (or found) by the first run; the others reuse it from the cache
    $rs bench-quality "${common[@]}" "${configs[@]}" --json "$out/new-$name.json" --csv "$out/new-$name.csv" \
        > "$out/new-$name.txt" 2>&1
    echo "$name new: exit $? ($(( $(date +%s) - start )) s)"
    $rs bench-quality "${common[@]}" --external "$rs" --json "$out/default-$name.json" \
        --csv "$out/default-$name.csv" > "$out/default-$name.txt" 2>&1
    echo "$name default (external): exit $? ($(( $(date +%s) - start )) s)"
    files=("$out/new-$name.json" "$out/default-$name.json")
    baseline=()
    if [ "$base" != none ]; then
        $rs bench-quality "${common[@]}" --external "$base" --json "$out/base-$name.json" \
            --csv "$out/base-$name.csv" > "$out/base-$name.txt" 2>&1
        echo "$name base (external): exit $? ($(( $(date +%s) - start )) s)"
        files+=("$out/base-$name.json")
        baseline=(--baseline "base-$name")
    fi
    grep -hE "^raystream: warning|NOT below|failed" "$out/new-$name.txt" "$out/default-$name.txt" 2>/dev/null | sort -u | head -20
    existing=()
    for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
    if [ ${#existing[@]} -gt 0 ]; then
        python3 tools/plot_quality.py "${existing[@]}" -o "$out" "${baseline[@]}" > "$out/summary-$name.txt" 2>&1 ||
            python3 tools/plot_quality.py "${existing[@]}" --no-charts "${baseline[@]}" > "$out/summary-$name.txt" 2>&1
        cat "$out/summary-$name.txt"
    fi
done
