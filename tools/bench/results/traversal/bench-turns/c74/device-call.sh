set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dc_args=-DRS_EXP_AUTO_NO_PERSISTENT > $L/exp-setup.log 2>&1 && ninja -j8 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $?") &
(meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j8 -C build-gpu raystream > $L/build.log 2>&1; echo "gpu build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
for k in 1 2 3; do for v in gpu exp; do
timeout 60 build-$v/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "$v $k: $(python3 tools/bench/auto_rows.py $L/suite-$v-$k.json | sed -n 2p)"
done; done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for v in gpu exp; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v.json > $L/path-$v.txt 2>&1; echo "path $v: $(python3 -c "
import json; d=json.load(open('$L/path-$v.json'))
print(' | '.join('%s %.3f' % (r['deadray'], r['fps_median']) for r in d['results']))")"
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
