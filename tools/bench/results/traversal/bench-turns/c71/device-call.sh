set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1]))"; }
for k in 1 2 3 4 5 6; do
timeout 60 build-gpu/raystream bench --json $L/suite-$k.json > $L/suite-$k.txt 2>&1; echo "suite $k: $(ratio $L/suite-$k.json)"
done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray stencil,compact-warp,compact-cub,auto"
for k in 1 2; do
  timeout 100 build-gpu/raystream bench $B --json $L/path-$k.json > $L/path-$k.txt 2>&1; echo "path $k: $(python3 -c "
import json; d=json.load(open('$L/path-$k.json'))
print(' | '.join('%s %.3f' % (r['deadray'], r['fps_median']) for r in d['results']))")"
done
timeout 90 build-gpu/raystream bench-trace --scenes tools/bench/scenes/sponza.json --accel bvh8 --quiet --json $L/trace.json > $L/trace.txt 2>&1; echo "trace: $(grep -E '^bvh8' $L/trace.txt | tr -s ' ' | cut -d' ' -f1,2,5- | tr '\n' '|')"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
