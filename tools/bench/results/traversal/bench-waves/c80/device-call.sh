set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && echo 12ea0e2 > .commit && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j6 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
S0=$(date +%s)
(timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log | tr '\n' ' '; echo) &
JOBS=12 timeout 240 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 $? $(tail -1 $L/md5-new.tsv); PFM lines differing from ref: $(diff <(grep -v exr .gpu-carry/md5-ref.tsv) <(grep -v exr $L/md5-new.tsv) | grep -c '^>')"
wait; echo "checks $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray stencil,compact-warp,compact-cub,auto"
for k in 1 2; do for v in base gpu; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f busy %.3f' % (r['deadray'], r['fps_median'], r['gpu_busy']) for r in d['results']))")"
done; done
for k in 1 2 3; do
timeout 60 build-gpu/raystream bench --json $L/suite-$k.json > $L/suite-$k.txt 2>&1; echo "suite $k: $(python3 tools/bench/auto_rows.py $L/suite-$k.json | sed -n 2p)"
done
S=tools/bench/scenes/sponza.json
run() { n=$1; shift; timeout 90 "$@" > $L/$n.txt 2>&1; echo "$n: $(grep -h 'view:\|done in' $L/$n.txt | sed 's/on GPU.*//' | cut -c1-160)"; }
for v in gpu base gpu; do
run view-$v build-$v/raystream view $S --headless --frames 150 --width 1920 --height 1080 --deadray auto --state $L/view-$v.json
run render-$v build-$v/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto
done
timeout 90 build-gpu/raystream bench-trace --scenes $S --accel bvh8 --quiet --json $L/trace.json > $L/trace.txt 2>&1; echo "trace: $(grep -E '^bvh8' $L/trace.txt | tr -s ' ' | tr '\n' '|')"
for d in stencil compact-cub auto; do
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 build-gpu/raystream render scenes/reflect-23k.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --deadray $d --quiet > $L/racecheck-$d.txt 2>&1; echo "racecheck $d: $? $(grep 'RACECHECK SUMMARY' $L/racecheck-$d.txt)"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/raystream render scenes/cornell.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --deadray $d --quiet > $L/memcheck-$d.txt 2>&1; echo "memcheck $d: $? $(grep 'ERROR SUMMARY' $L/memcheck-$d.txt)"
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
