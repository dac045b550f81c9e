set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j8 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
(meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1; ninja -j8 -C build-gpu raystream > $L/build.log 2>&1; echo "gpu build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
for k in 1 2 3 4; do
timeout 60 build-gpu/raystream bench --json $L/suite-$k.json > $L/suite-$k.txt 2>&1; echo "suite $k: $(python3 tools/bench/auto_rows.py $L/suite-$k.json | sed -n 2p)"
done
S=tools/bench/scenes/sponza.json
B="--scenes $S --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet"
for k in 1 2; do
  timeout 100 build-base/raystream bench $B --deadray stencil,compact-warp,compact-cub --json $L/path-base-$k.json > $L/path-base-$k.txt 2>&1
  timeout 100 build-gpu/raystream bench $B --deadray stencil,compact-warp,compact-cub,auto --json $L/path-gpu-$k.json > $L/path-gpu-$k.txt 2>&1
  for v in base gpu; do echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f busy %.3f' % (r['deadray'], r['fps_median'], r.get('gpu_busy',0)) for r in d['results']))")"; done
done
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2>&1; echo "$n: $(grep -h 'view:\|done in' $L/$n.txt | sed 's/on GPU.*//' | cut -c1-160)"; }
for k in 1 2; do
run view-$k build-gpu/raystream view $S --headless --frames 150 --width 1920 --height 1080 --deadray auto --state $L/view-$k.json
run render-$k build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
done
for v in base gpu; do
timeout 90 build-$v/raystream bench-trace --scenes $S --accel bvh8 --quiet --json $L/trace-$v.json > $L/trace-$v.txt 2>&1; echo "trace $v: $(grep -E '^bvh8' $L/trace-$v.txt | tr -s ' ' | tr '\n' '|')"
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
