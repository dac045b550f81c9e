set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release "-Dcuda_args=-DRS_SHADE_BLOCK=256 -DRS_SHADE_MIN_BLOCKS=1" > $L/exp-setup.log 2>&1 && ninja -j5 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $?") &
(meson setup build-exp2 -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release "-Dcuda_args=-DRS_SHADE_MIN_BLOCKS=6" > $L/exp2-setup.log 2>&1 && ninja -j5 -C build-exp2 raystream > $L/exp2-build.log 2>&1; echo "exp2 build: $?") &
tools/gpu_build.sh 90 $L || exit 1
wait; echo "builds $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub,auto"
for k in 1 2; do for v in exp gpu exp2; do
  [ $k = 2 ] && [ $v = exp2 ] && continue
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f shade %.2f ext %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade'], r['stage_ms']['extend']) for r in d['results']))")"
done; done
timeout 200 meson test -C build-gpu --suite gpu --print-errorlogs > $L/gpu-tests.log 2>&1; grep -E "^Ok|^Fail|^Skipped" $L/gpu-tests.log
S0=$(date +%s); JOBS=14 timeout 200 tools/image_md5s.sh build-gpu/raystream cuda $L/md5-new.tsv > $L/md5-new.log 2>&1; echo "md5 new $? $(tail -1 $L/md5-new.tsv) $(( $(date +%s) - S0 )) s"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('auto/best median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1]))"; }
timeout 60 build-gpu/raystream bench --json $L/suite-1.json > $L/suite-1.txt 2>&1; echo "suite: $(ratio $L/suite-1.json)"
timeout 40 build-gpu/raystream bench --scenes scenes/diffuse.json --integrator whitted --depths 1,8 --deadray auto --json $L/whitted.json > $L/whitted.txt 2>&1; echo "whitted: $(python3 -c "
import json; r={x['depth']:x['fps_median'] for x in json.load(open('$L/whitted.json'))['results']}; print(r, r[8]/r[1])")"
S=tools/bench/scenes/sponza.json
timeout 60 build-gpu/raystream view $S --headless --frames 150 --width 1920 --height 1080 --deadray auto --state $L/view.json > $L/view.txt 2>&1; echo "view: $(tail -1 $L/view.txt | cut -c1-160)"
timeout 60 build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto > $L/render.txt 2>&1; echo "render: $(tail -2 $L/render.txt | head -1)"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 build-gpu/raystream render scenes/reflect-23k.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --quiet > $L/racecheck.txt 2>&1; echo "racecheck: $? $(grep 'RACECHECK SUMMARY' $L/racecheck.txt)"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/raystream render scenes/materials.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --quiet > $L/memcheck.txt 2>&1; echo "memcheck: $? $(grep 'ERROR SUMMARY' $L/memcheck.txt)"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
