set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
S=tools/bench/scenes/sponza.json
V="view $S --headless --frames 150 --width 1920 --height 1080"
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2> $L/$n.err; echo "$n: $(tail -1 $L/$n.txt | sed 's/on GPU.*//' | cut -c1-160) $(grep -h 'done in' $L/$n.txt)"; }
RS_EXP_LOG_WAVES=1 run view-auto build-gpu/raystream $V --deadray auto
RS_EXP_LOG_WAVES=1 run render-auto build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
RS_EXP_LOG_WAVES=1 run view-cub build-gpu/raystream $V --deadray compact-cub
gzip $L/*.err
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
