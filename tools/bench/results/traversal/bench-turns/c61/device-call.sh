set -u
. .gpu-carry/setup.sh
ratio() { python3 -c "
import json,collections as c,statistics;g=c.defaultdict(dict)
[g[(x['scene'].split('/')[-1],x['integrator'],x['depth'])].__setitem__(x['deadray'],x['fps_median']) for x in json.load(open('$1'))['results']]
r=sorted((v['auto']/max(f for k,f in v.items() if k!='auto'),k) for k,v in g.items())
print('auto/best median %.3f, within 3%%: %d of %d, worst %.3f %s %.3f %s'%(statistics.median(x for x,_ in r), sum(x>=0.97 for x,_ in r), len(r), r[0][0], r[0][1], r[1][0], r[1][1]))"; }
ls build-gpu/raystream build-base/raystream || exit 1
for k in 1 2; do
S0=$(date +%s); timeout 150 build-gpu/raystream bench --json $L/suite-new-$k.json > $L/suite-new-$k.txt 2>&1; echo "new $k: $(ratio $L/suite-new-$k.json) $(( $(date +%s) - S0 )) s"
done
S0=$(date +%s); timeout 100 build-base/raystream bench --json $L/suite-old-1.json > $L/suite-old-1.txt 2>&1; echo "old 1: $(ratio $L/suite-old-1.json) $(( $(date +%s) - S0 )) s"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
