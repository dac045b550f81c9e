#!/bin/bash
# gpu_host_deps.sh [DIR] - the Debian libraries a bare GPU host lacks (cJSON, assimp, stb, the
# libraries they link and pkg-config), unpacked into DIR (default .gpu-deps, ignored by git).
#
# Run it here, on a Debian machine with the package archive; carry DIR with the checkout; on the
# GPU host `. DIR/env.sh` before `meson setup` (tools/gpu_check.sh and the other gpu_*.sh scripts
# do). Nothing is installed: the packages are unpacked with dpkg -x, and env.sh points pkg-config
# and the loader at the unpacked tree.
set -eu
out=${1:-.gpu-deps}
packages="libcjson1 libcjson-dev libassimp5 libassimp-dev libdraco7 libminizip1 libstb0 libstb-dev
          pkgconf pkgconf-bin libpkgconf3 zlib1g-dev"
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
unset root lib
END
echo "gpu_host_deps.sh: $(du -sh "$out" | cut -f1) in $out"
