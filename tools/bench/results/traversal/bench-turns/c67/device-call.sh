set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j8 -C build-gpu raystream > $L/build.log 2>&1; echo "gpu build: $?") &
(meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release "-Dcuda_args=-DRS_EXP_NO_INST=1 -DRS_EXP_NO_TEX=1" > $L/exp-setup.log 2>&1 && ninja -j8 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub"
for k in 1 2; do for v in gpu exp; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f ext %.2f shade %.2f conn %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['extend'], r['stage_ms']['shade'], r['stage_ms']['connect']) for r in d['results']))")"
done; done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
