#!/bin/bash
# gpu_adaptive.sh RAYSTREAM [SCENE] - what stopped pixels cost each dead-ray strategy: one render
# per strategy of SCENE (default: the benchmark Sponza under a constant sky) at 960x540, depth 8,
# 256 spp, on CUDA, three ways: without adaptive sampling (full), with a threshold no pixel reaches
# (keep: adaptive sampling's bookkeeping alone), and with --noise-threshold 0.02 --min-spp 16
# (adapt). Prints per strategy the seconds of each (render's own "done in" line: tracing only),
# the camera rays traced and the time per camera ray; with a strategy that makes dead rays free,
# the adaptive render's time falls with its camera rays. Writes the table to $OUT/adaptive.txt too.
set -u
rs=${1:?usage: tools/gpu_adaptive.sh RAYSTREAM [SCENE]}
scene=${2:-tools/bench/scenes/sponza.json}
out=${OUT:-gpu-out}
mkdir -p "$out"
printf '%-14s %8s %8s %8s %9s %9s %8s %8s %8s\n' strategy full_s keep_s adapt_s full_Mcam adapt_Mcam full_ns keep_ns adapt_ns |
    tee "$out/adaptive.txt"
for d in flags stencil persistent compact-scan compact-block compact-warp; do
    row=("$d")
    for t in 0 1e-9 0.02; do
        line=$("$rs" render "$scene" --backend cuda --width 960 --height 540 --max-depth 8 --spp 256 --deadray "$d" \
            --noise-threshold "$t" --min-spp 16 -o /tmp/adaptive.pfm 2>&1 | grep "done in")
        secs=$(echo "$line" | sed -E 's/.*done in ([0-9.]+) s.*/\1/')
        cam=$(echo "$line" | sed -E 's/.*\(([0-9.]+) M camera.*/\1/')
        row+=("$secs" "$cam")
    done
    awk -v d="${row[0]}" -v fs="${row[1]}" -v fc="${row[2]}" -v ks="${row[3]}" -v kc="${row[4]}" -v as="${row[5]}" \
        -v ac="${row[6]}" 'BEGIN { printf "%-14s %8s %8s %8s %9s %9s %8.2f %8.2f %8.2f\n", d, fs, ks, as, fc, ac,
        fs / fc * 1000, ks / kc * 1000, as / ac * 1000 }' |
        tee -a "$out/adaptive.txt"
done
