set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && echo e63158c > .commit && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j4 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
for x in BOUNCE SHADOW; do
(meson setup build-exp$x -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dcuda_args=-DRS_EXP_TREE_$x=1 > $L/exp$x-setup.log 2>&1 && ninja -j3 -C build-exp$x raystream > $L/exp$x-build.log 2>&1; echo "exp$x build: $?") &
done
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
S0=$(date +%s)
(timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log | tr '\n' ' '; echo) &
JOBS=12 timeout 240 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 $? $(tail -1 $L/md5-new.tsv); PFM lines differing from ref: $(diff <(grep -v exr .gpu-carry/md5-ref.tsv) <(grep -v exr $L/md5-new.tsv) | grep -c '^>')"
wait; echo "checks $(( $(date +%s) - S0 )) s"
T="--scenes tools/bench/scenes/sponza.json --quiet"
for a in bvh8 bvh2; do timeout 90 build-gpu/raystream bench-trace $T --accel $a --json $L/trace-$a.json > $L/trace-$a.txt 2>&1; echo "trace $a: $(grep -E '^bvh' $L/trace-$a.txt | tr -s ' ' | cut -d' ' -f1,2,5- | tr '\n' '|')"; done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub"
for k in 1 2; do for v in base gpu expBOUNCE expSHADOW; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f ext %.2f shade %.2f conn %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['extend'], r['stage_ms']['shade'], r['stage_ms']['connect']) for r in d['results']))")"
done; done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
