set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
tools/gpu_build.sh 90 $L || exit 1
echo "build $(( $(date +%s) - S0 )) s"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1], r[2][0], r[2][1]))"; }
for k in 1 2 3 4; do
timeout 60 build-gpu/raystream bench --json $L/suite-$k.json > $L/suite-$k.txt 2>&1; echo "suite $k: $(ratio $L/suite-$k.json)"
done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-warp,compact-cub,auto"
timeout 100 build-gpu/raystream bench $B --json $L/path.json > $L/path.txt 2>&1; echo "path: $(python3 -c "
import json; d=json.load(open('$L/path.json'))
print(' | '.join('%s %.3f busy %.3f' % (r['deadray'], r['fps_median'], r['gpu_busy']) for r in d['results']))")"
timeout 60 build-gpu/raystream bench --scenes scenes/diffuse.json --integrator whitted --depths 1,8 --deadray auto --json $L/whitted.json > $L/whitted.txt 2>&1; echo "whitted guard: $(python3 -c "
import json; r={x['depth']:x['fps_median'] for x in json.load(open('$L/whitted.json'))['results']}; print('%.1f / %.1f = %.3f' % (r[8], r[1], r[8]/r[1]))")"
timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log | tr '\n' ' '; echo
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
