set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
tools/gpu_build.sh 90 $L || exit 1
echo "build $(( $(date +%s) - S0 )) s"
S0=$(date +%s)
(timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log | tr '\n' ' '; echo) &
JOBS=12 timeout 240 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 $? $(tail -1 $L/md5-new.tsv); PFM lines differing from ref: $(diff <(grep -v exr .gpu-carry/md5-ref.tsv) <(grep -v exr $L/md5-new.tsv) | grep -c '^>')"
wait; echo "checks $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for k in 1 2; do
  timeout 100 build-gpu/raystream bench $B --json $L/path-$k.json > $L/path-$k.txt 2>&1; echo "path $k: $(python3 -c "
import json; d=json.load(open('$L/path-$k.json'))
print(' | '.join('%s %.3f shade %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade']) for r in d['results']))")"
done
timeout 60 build-gpu/raystream bench --json $L/suite.json > $L/suite.txt 2>&1; python3 tools/bench/auto_rows.py $L/suite.json | sed -n 2p
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
