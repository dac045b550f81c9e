set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for w in 22 23 24 25 22 25; do
  RS_EXP_WAVE_LOG2=$w timeout 100 build-gpu/raystream bench $B --json $L/path-w$w.json > $L/path-w$w.txt 2>&1; echo "path wave 2^$w: $(python3 -c "
import json; d=json.load(open('$L/path-w$w.json'))
print(' | '.join('%s %.3f busy %.3f %s' % (r['deadray'], r['fps_median'], r['gpu_busy'], ' '.join('%s %.2f'%(k,v) for k,v in r['stage_ms'].items() if v)) for r in d['results']))")"
done
for k in 1 2 3; do for v in gpu exp; do
if [ $v = exp ]; then export RS_EXP_NO_PERSISTENT=1; else unset RS_EXP_NO_PERSISTENT; fi
timeout 60 build-gpu/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "$v $k: $(python3 tools/bench/auto_rows.py $L/suite-$v-$k.json | sed -n 2p)"
done; done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
