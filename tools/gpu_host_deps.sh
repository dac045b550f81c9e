#!/bin/bash
# gpu_host_deps.sh [DIR] - the Debian libraries a bare GPU host lacks (cJSON, assimp, stb, expat,
# libpng, libjpeg-turbo, OpenEXR, OpenMPI, the libraries they link and pkg-config), unpacked into
# DIR (default .gpu-deps, ignored by git).
#
# Run it here, on a Debian machine with the package archive; carry DIR with the checkout; on the
# GPU host `. DIR/env.sh` before `meson setup` (tools/gpu_check.sh and the other gpu_*.sh scripts
# do). Nothing is installed: the packages are unpacked with dpkg -x, and env.sh points pkg-config
# and the loader at the unpacked tree.
set -eu
out=${1:-.gpu-deps}
packages="libcjson1 libcjson-dev libassimp5 libassimp-dev libdraco7 libminizip1 libstb0 libstb-dev
          libpng16-16 libpng-dev libjpeg62-turbo libjpeg62-turbo-dev
          pkgconf pkgconf-bin libpkgconf3 zlib1g-dev libexpat1 libexpat1-dev libopenexr-dev libopenexr-3-1-30 libimath-dev libimath-3-1-29
          openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libhwloc15 libevent-core-2.1-7
          libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200
          libpsm-infinipath1 libpsm2-2 libmunge2 libnuma1 libgfortran5"
rm -rf "$out"
mkdir -p "$out/downloads" "$out/root"
# shellcheck disable=SC2086 # the list splits into package names on purpose
if ! (cd "$out/downloads" && apt-get download $packages > /dev/null 2>&1); then
    apt-get update > /dev/null 2>&1 || true
    (cd "$out/downloads" && apt-get download $packages > /dev/null) ||
        { echo "gpu_host_deps.sh: cannot download the packages" >&2; exit 1; }
fi
for deb in "$out"/downloads/*.deb; do
    dpkg -x "$deb" "$out/root"
done
rm -rf "$out/downloads"
# what a build and a run never read: documentation, Fortran modules, static archives (this tree
# travels with the checkout to the GPU hosts, whose carry limit is 64 MiB)
rm -rf "$out/root/usr/share/doc" "$out/root/usr/share/man" "$out/root/usr/lib/x86_64-linux-gnu/fortran"
find "$out/root" -name '*.a' -delete
# Debian names mpirun through update-alternatives, which unpacking skips
ln -sf orterun "$out/root/usr/bin/mpirun"
cat > "$out/env.sh" << 'END'
# . this from the checkout's root on the GPU host (written by tools/gpu_host_deps.sh)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/root"
lib="$root/usr/lib/x86_64-linux-gnu"
export PATH="$root/usr/bin:$PATH"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# pkg-config sees only the unpacked .pc files, with their /usr paths read inside the tree
export PKG_CONFIG="$root/usr/bin/pkgconf"
export PKG_CONFIG_LIBDIR="$lib/pkgconfig:$root/usr/share/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$root"
# OpenMPI: its libraries, and its tools and plugins found in the tree (OPAL_PREFIX)
export LD_LIBRARY_PATH="$lib/openmpi/lib:$LD_LIBRARY_PATH"
export OPAL_PREFIX="$root/usr"
# PMIx looks for its compression plugin under /usr; without it, it only warns
export PMIX_MCA_pcompress_base_silence_warning=1
unset root lib
END
echo "gpu_host_deps.sh: $(du -sh "$out" | cut -f1) in $out"
