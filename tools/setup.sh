#!/bin/sh
# setup.sh - installs what raystream needs from Debian/Ubuntu packages (as root, or through
# sudo) and configures + builds it in ./build. Safe to run again: packages already present are
# not reinstalled, an existing build folder is reconfigured.
#
#   tools/setup.sh [--no-build] [--build-dir DIR] [-- MESON_OPTIONS...]
#
# The CUDA backend is built when nvcc is found (on PATH or in /usr/local/cuda/bin); the CUDA
# toolkit itself is not a Debian package here and is not installed by this script.
set -eu
cd "$(dirname "$0")/.."
build_dir=build
do_build=1
while [ $# -gt 0 ]; do
    case "$1" in
    --no-build) do_build=0 ;;
    --build-dir) build_dir=$2; shift ;;
    --) shift; break ;;
    *) echo "setup.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

# build tools, the libraries (cJSON, assimp, expat, zlib, stb, libpng, libjpeg-turbo, SDL2, OpenEXR, OpenMPI) and what the tests use
# (exrheader from openexr to check the .exr files raystream writes, Xvfb for the
# viewer test, matplotlib for the benchmark plots, jsonschema to check scenes against the schema,
# clang + compiler-rt for the fuzzer and valgrind for tools/reliability.sh)
packages="build-essential g++ meson ninja-build pkg-config libcjson-dev libassimp-dev libexpat1-dev zlib1g-dev libstb-dev libpng-dev libjpeg-dev libsdl2-dev libopenexr-dev libopenmpi-dev openmpi-bin
openexr python3 python3-matplotlib python3-jsonschema xvfb xauth
clang libclang-rt-14-dev valgrind"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup.sh: installing:$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

# Mitsuba 3 from PyPI, for the reference test (raystream against Mitsuba within noise). A machine
# without PyPI still builds and tests; that one test is then skipped.
tools/setup_reference.sh || echo "setup.sh: no Mitsuba reference environment; the reference test will be skipped"

[ "$do_build" -eq 1 ] || exit 0
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    PATH="$PATH:/usr/local/cuda/bin"
    export PATH
fi
if [ -d "$build_dir" ]; then
    meson setup --reconfigure "$build_dir" "$@"
else
    meson setup "$build_dir" "$@"
fi
ninja -C "$build_dir"
