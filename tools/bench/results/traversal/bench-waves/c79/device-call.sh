set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1; ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
S=tools/bench/scenes/sponza.json
V="view $S --headless --frames 150 --width 1920 --height 1080"
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2> $L/$n.err; echo "$n: $(grep -h 'view:\|done in' $L/$n.txt $L/$n.err | sed 's/on GPU.*//' | cut -c1-160)"; }
RS_EXP_LOG_WAVES=1 run view-auto build-gpu/raystream $V --deadray auto
run view-auto-2 build-gpu/raystream $V --deadray auto
run view-cub build-gpu/raystream $V --deadray compact-cub
RS_EXP_VIEW_PASSES=8 run view-auto-p8 build-gpu/raystream $V --deadray auto
RS_EXP_VIEW_PASSES=8 run view-cub-p8 build-gpu/raystream $V --deadray compact-cub
RS_EXP_LOG_WAVES=1 run render-auto build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
run render-auto-2 build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
run render-cub build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray compact-cub
for k in 1 2 3; do
timeout 60 build-gpu/raystream bench --json $L/suite-$k.json > $L/suite-$k.txt 2>&1; echo "suite $k: $(python3 tools/bench/auto_rows.py $L/suite-$k.json | sed -n 2p)"
done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-warp,compact-cub,auto"
timeout 100 build-gpu/raystream bench $B --json $L/path.json > $L/path.txt 2>&1; echo "path: $(python3 -c "
import json; d=json.load(open('$L/path.json'))
print(' | '.join('%s %.3f busy %.3f' % (r['deadray'], r['fps_median'], r['gpu_busy']) for r in d['results']))")"
gzip $L/*.err
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
