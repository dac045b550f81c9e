set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-exp -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release -Dc_args=-DRS_EXP_AUTO_LOG > $L/exp-setup.log 2>&1 && ninja -j16 -C build-exp raystream > $L/exp-build.log 2>&1; echo "exp build: $? $(( $(date +%s) - S0 )) s"
for k in 1 2; do
timeout 60 build-exp/raystream bench --scenes scenes/reflect-23k.json --integrator whitted --json $L/rw-$k.json > $L/rw-$k.txt 2> $L/rw-$k.err; echo "run $k: $?"
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
