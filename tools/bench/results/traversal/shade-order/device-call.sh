set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && echo shade-block > .commit && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j7 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for k in 1 2; do for v in base gpu; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f shade %.2f ext %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade'], r['stage_ms']['extend']) for r in d['results']))")"
done; done
S0=$(date +%s); JOBS=14 timeout 200 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 new $? $(tail -1 $L/md5-new.tsv) $(( $(date +%s) - S0 )) s"
timeout 150 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('auto/best median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1]))"; }
timeout 60 build-gpu/raystream bench --json $L/suite-2.json > $L/suite-2.txt 2>&1; echo "suite: $(ratio $L/suite-2.json)"
timeout 60 build-gpu/raystream bench-trace --scenes tools/bench/scenes/sponza.json --accel bvh8 --quiet --json $L/trace-final.json > $L/trace-final.txt 2>&1; echo "trace: $(grep -E '^bvh8' $L/trace-final.txt | tr -s ' ' | cut -d' ' -f1,2,5- | tr '\n' '|')"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
