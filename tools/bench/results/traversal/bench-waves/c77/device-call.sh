set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
S=tools/bench/scenes/sponza.json
V="view $S --headless --frames 150 --width 1920 --height 1080"
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2>&1; echo "$n: $(tail -1 $L/$n.txt | sed 's/on GPU.*//' | cut -c1-160)"; }
run view-auto build-gpu/raystream $V --deadray auto --state $L/view-auto.json
run view-cub build-gpu/raystream $V --deadray compact-cub
run view-stencil build-gpu/raystream $V --deadray stencil
RS_EXP_VIEW_PASSES=8 run view-auto-p8 build-gpu/raystream $V --deadray auto
RS_EXP_VIEW_PASSES=16 run view-auto-p16-b133 build-gpu/raystream $V --deadray auto --budget-ms 133 --frames 40
RS_EXP_VIEW_PASSES=16 run view-cub-p16-b133 build-gpu/raystream $V --deadray compact-cub --budget-ms 133 --frames 40
run view-cub-b20 build-gpu/raystream $V --deadray compact-cub --budget-ms 20
for d in auto compact-cub; do
run render-$d build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray $d
done
run render-auto-2 build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
