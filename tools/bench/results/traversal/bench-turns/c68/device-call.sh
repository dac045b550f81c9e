set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && echo bac7c4a > .commit && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j6 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
S0=$(date +%s)
(timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log | tr '\n' ' '; echo) &
JOBS=12 timeout 240 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 $? $(tail -1 $L/md5-new.tsv); PFM lines differing from ref: $(diff <(grep -v exr .gpu-carry/md5-ref.tsv) <(grep -v exr $L/md5-new.tsv) | grep -c '^>')"
wait; echo "checks $(( $(date +%s) - S0 )) s"
mkdir -p $OUT/ref
for sc in scenes/cornell.json scenes/diffuse.json scenes/mirrors.json scenes/reflect-23k.json tests/data/reference/rough_materials.json tests/data/reference/env_map.json tests/data/reference/env_rows.json; do
 for d in 2 8; do for s in 1 2; do
  n=$(basename $sc .json)-d$d-s$s.pfm
  build-gpu/raystream render $sc -o $OUT/ref/$n --quiet --width 128 --height 128 --spp 512 --max-depth $d --seed $s --integrator path --backend cuda || echo "render $n failed"
 done; done
done; echo "reference renders: $(ls $OUT/ref | wc -l)"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1]))"; }
B="--integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for k in 1 2; do for v in base gpu; do
  timeout 100 build-$v/raystream bench --scenes tools/bench/scenes/sponza.json $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f shade %.2f busy %.3f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade'], r['gpu_busy']) for r in d['results']))")"
done; done
for v in base gpu; do
  timeout 100 build-$v/raystream bench --scenes tools/bench/scenes/sponza-textured.json $B --json $L/tex-$v.json > $L/tex-$v.txt 2>&1; echo "textured $v: $(python3 -c "
import json; d=json.load(open('$L/tex-$v.json'))
print(' | '.join('%s %.3f shade %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade']) for r in d['results']))")"
done
for k in 1 2; do for v in base gpu; do
timeout 60 build-$v/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "suite $v $k: $(ratio $L/suite-$v-$k.json)"
done; done
timeout 60 build-gpu/raystream bench --scenes scenes/diffuse.json --integrator whitted --depths 1,8 --deadray auto --json $L/whitted.json > $L/whitted.txt 2>&1; echo "whitted guard: $(python3 -c "
import json; r={x['depth']:x['fps_median'] for x in json.load(open('$L/whitted.json'))['results']}; print('%.1f / %.1f = %.3f' % (r[8], r[1], r[8]/r[1]))")"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
