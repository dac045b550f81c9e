set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j8 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
(meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1; ninja -j8 -C build-gpu raystream > $L/build.log 2>&1; echo "gpu build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
for k in 1 2 3 4; do for v in base gpu; do
timeout 60 build-$v/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "$v $k: $(python3 tools/bench/auto_rows.py $L/suite-$v-$k.json | sed -n 2p)"
done; done
S=tools/bench/scenes/sponza.json
B="--scenes $S --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for v in base gpu; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v.json > $L/path-$v.txt 2>&1; echo "path $v: $(python3 -c "
import json; d=json.load(open('$L/path-$v.json'))
print(' | '.join('%s %.3f busy %.3f' % (r['deadray'], r['fps_median'], r['gpu_busy']) for r in d['results']))")"
done
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2>&1; echo "$n: $(grep -h 'view:\|done in' $L/$n.txt | sed 's/on GPU.*//' | cut -c1-160)"; }
for v in base gpu; do
run view-$v build-$v/raystream view $S --headless --frames 150 --width 1920 --height 1080 --deadray auto --state $L/view-$v.json
run render-$v build-$v/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
