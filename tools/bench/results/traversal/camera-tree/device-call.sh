set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
if [ ! -x build-base-src/build-gpu/raystream ]; then
(cd build-base-src && echo d931a64 > .commit && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j5 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
fi
ln -sfn build-base-src/build-gpu build-base
(meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dcuda_args=-DRS_CAMERA_PACKETS=0 > $L/exp-setup.log 2>&1 && ninja -j6 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $?") &
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log; grep -E "camera tree" $L/gpu-tests.log | head -6
T="--scenes tools/bench/scenes/sponza.json --accel bvh8 --quiet"
for k in 1 2; do
  for v in base exp gpu; do
    timeout 90 build-$v/raystream bench-trace $T --json $L/trace-$v-$k.json > $L/trace-$v-$k.txt 2>&1; echo "$v $k: $(grep -E '^bvh8' $L/trace-$v-$k.txt | tr -s ' ' | cut -d' ' -f1,2,5- | tr '\n' '|')"
  done
done
RS_EXP_ALPHA=1e-5 timeout 90 build-gpu/raystream bench-trace $T --json $L/trace-a5.json > $L/trace-a5.txt 2>&1; echo "gpu alpha 1e-5: $(grep -E '^bvh8' $L/trace-a5.txt | tr -s ' ' | cut -d' ' -f1,2,3,4,5- | tr '\n' '|')"
RS_EXP_ALPHA=1e-4 timeout 90 build-gpu/raystream bench-trace $T --json $L/trace-a4.json > $L/trace-a4.txt 2>&1; echo "gpu alpha 1e-4: $(grep -E '^bvh8' $L/trace-a4.txt | tr -s ' ' | cut -d' ' -f1,2,3,4,5- | tr '\n' '|')"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for k in 1 2; do for v in base gpu; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(grep -A1 '^depth' $L/path-$v-$k.txt | tail -1)"
done; done
S0=$(date +%s); JOBS=14 timeout 250 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 new $? $(tail -1 $L/md5-new.tsv) $(( $(date +%s) - S0 )) s"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
