set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dc_args=-DRS_EXP_AUTO_ENV > $L/exp-setup.log 2>&1 && ninja -j16 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $? $(( $(date +%s) - S0 )) s"
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1], r[2][0], r[2][1]))"; }
RS_AUTO_LOG=1 timeout 60 build-exp/raystream bench --scenes scenes/reflect-23k.json --integrator whitted --depths 1..4 --deadray stencil,compact-warp,compact-cub,auto --json $L/log-run.json > $L/log-run.txt 2> $L/log-run.err; echo "log run: $(ratio $L/log-run.json)"; grep -c "auto wave" $L/log-run.err
run() { name=$1; shift; for k in 1 2; do env "$@" timeout 60 build-exp/raystream bench --json $L/suite-$name-$k.json > $L/suite-$name-$k.txt 2>&1; echo "$name $k: $(ratio $L/suite-$name-$k.json)"; done; }
run default X=1
run follow25 RS_AUTO_FOLLOW=0.25
run samples2 RS_AUTO_SAMPLES=2
run stay105 RS_AUTO_FAMILY_STAY=1.05
run both RS_AUTO_FOLLOW=0.25 RS_AUTO_FAMILY_STAY=1.05
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
