#!/bin/bash
# gpu_build.sh ARCH LOGDIR - configure (once) and build build-gpu for one CUDA architecture.
arch=$1 logs=$2
if [ ! -f build-gpu/build.ninja ]; then
    rm -rf build-gpu
    meson setup build-gpu -Dcuda=enabled -Dcuda-arch="$arch" -Dviewer=disabled --buildtype=release \
        > "$logs/setup.log" 2>&1 || { tail -20 "$logs/setup.log"; exit 1; }
fi
ninja -C build-gpu > "$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; exit 1; }
