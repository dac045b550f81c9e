set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
b() { name=$1; shift; (meson setup build-$name -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release "$@" > $L/$name-setup.log 2>&1 && ninja -j4 -C build-$name raystream > $L/$name-build.log 2>&1; echo "$name build: $?") & }
b gpu
b b6 "-Dcuda_args=-DRS_SHADE_MIN_BLOCKS=6"
b b4 "-Dcuda_args=-DRS_SHADE_MIN_BLOCKS=4"
b k256 "-Dcuda_args=-DRS_SHADE_BLOCK=256 -DRS_SHADE_MIN_BLOCKS=2"
wait; echo "builds $(( $(date +%s) - S0 )) s"
B="--scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 1920 --height 1080 --spp 16 --frames 6 --warmup 3 --quiet --deadray compact-cub"
for k in 1 2; do for v in gpu b6 b4 k256; do
  timeout 100 build-$v/raystream bench $B --json $L/path-$v-$k.json > $L/path-$v-$k.txt 2>&1; echo "path $v $k: $(python3 -c "
import json; d=json.load(open('$L/path-$v-$k.json'))
print(' | '.join('%s %.3f shade %.2f' % (r['deadray'], r['fps_median'], r['stage_ms']['shade']) for r in d['results']))")"
done; done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
