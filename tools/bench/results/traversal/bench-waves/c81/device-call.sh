set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
(cd build-base-src && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/base-setup.log 2>&1 && ninja -j8 -C build-gpu raystream > $L/base-build.log 2>&1; echo "base build: $?") &
(meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1; ninja -j8 -C build-gpu raystream > $L/build.log 2>&1; echo "gpu build: $?") &
wait; echo "builds $(( $(date +%s) - S0 )) s"
ln -sfn build-base-src/build-gpu build-base
for k in 1 2 3 4; do for v in base gpu; do
timeout 60 build-$v/raystream bench --json $L/suite-$v-$k.json > $L/suite-$v-$k.txt 2>&1; echo "$v $k: $(python3 tools/bench/auto_rows.py $L/suite-$v-$k.json | sed -n 2p)"
done; done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
