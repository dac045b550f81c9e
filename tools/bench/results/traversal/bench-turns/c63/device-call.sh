set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dc_args=-DRS_EXP_AUTO_NO_CUB > $L/exp-setup.log 2>&1 && ninja -j8 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $?") &
(meson setup build-def -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/def-setup.log 2>&1 && ninja -j8 -C build-def raystream > $L/def-build.log 2>&1; echo "def build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1], r[2][0], r[2][1]))"; }
for k in 1 2 3; do for v in exp def; do
timeout 60 build-$v/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "$v $k: $(ratio $L/suite-$v-$k.json)"
done; done
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-warp,compact-cub,auto"
for v in exp def; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v.json > $L/path-$v.txt 2>&1; echo "path $v: $(python3 -c "
import json; d=json.load(open('$L/path-$v.json'))
print(' | '.join('%s %.3f' % (r['deadray'], r['fps_median']) for r in d['results']))")"
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
