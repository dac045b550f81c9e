#!/bin/bash
# gpu_build.sh ARCH LOGDIR - configure (once) and build build-gpu for one CUDA architecture.
arch=$1 logs=$2
if [ ! -f build-gpu/build.ninja ]; then
    rm -rf build-gpu
    meson setup build-gpu -Dcuda=enabled -Dcuda-arch="$arch" -Dviewer=disabled --buildtype=release \
        > "$logs/setup.log" 2>&1 || { tail -20 "$logs/setup.log"; exit 1; }
fi
# Meson 1.0 gives nvcc no dependency file, so ninja does not rebuild a kernel when only a header
# it includes changed: drop every CUDA object when a header is newer than the last build.
stamp=build-gpu/.cuda-headers-stamp
if [ -f "$stamp" ] && [ -n "$(find src cuda tests -name '*.h' -newer "$stamp" -o -name '*.cuh' -newer "$stamp" | head -1)" ]; then
    find build-gpu -name '*.cu.o' -delete
fi
ninja -C build-gpu > "$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; exit 1; }
touch "$stamp"
