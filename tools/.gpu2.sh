set -o pipefail
. .gpu-deps/env.sh; export PATH=$PATH:/usr/local/cuda/bin
(cd .bench-assets-gz && find . -name '*.gz' | while read -r f; do mkdir -p "../.bench-assets/$(dirname "$f")"; gunzip -c "$f" > "../.bench-assets/${f%.gz}"; done)
tools/gpu_build.sh 90 /tmp || exit 1
(cd .old-src && meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release >/tmp/old-setup.log 2>&1 && ninja -C build-gpu raystream >/tmp/old-build.log 2>&1) || { tail /tmp/old-*.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
meson test -C build-gpu --suite gpu > $OUT/gpu-suite.log 2>&1; grep -E "^Ok|^Fail" $OUT/gpu-suite.log
build-gpu/raystream bench-trace --scenes tools/bench/scenes/sponza.json,tools/bench/scenes/conference.json,tools/bench/scenes/dragon.json --json $OUT/trace.json 2>&1 | grep -v "^$"
build-gpu/raystream bench-trace --scenes tools/bench/scenes/sponza.json --accel bvh8 --sbvh --json $OUT/trace-sbvh.json 2>&1 | grep -v "^$"
tools/gpu_floors.sh .old-src/build-gpu/raystream old
tools/gpu_floors.sh build-gpu/raystream new
