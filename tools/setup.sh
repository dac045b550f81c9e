#!/bin/sh
# setup.sh - installs what raystream needs from Debian/Ubuntu packages (as root, or through
# sudo) and configures + builds it in ./build. Safe to run again: packages already present are
# not reinstalled, an existing build folder is reconfigured.
#
#   tools/setup.sh [--for demo|test] [--no-build] [--build-dir DIR] [-- MESON_OPTIONS...]
#
# --for demo (what `tools/run.sh demo` uses): only what building and rendering need, the
# interactive viewer included. --for test (the default; `tools/run.sh test`): that, and what the
# test suites use: the tools they run (exrheader, Xvfb, valgrind, clang's fuzzer and sanitizer
# runtimes), Python's matplotlib and jsonschema, OpenMPI for the multi-process test, and the
# Mitsuba 3 reference environment (tools/setup_reference.sh). The README's set-up section lists
# both; keep them in step.
#
# The CUDA backend is built when nvcc is found (on PATH or in /usr/local/cuda/bin); the CUDA
# toolkit itself is not a Debian package here and is not installed by this script.
set -eu
cd "$(dirname "$0")/.."
build_dir=build
do_build=1
purpose=test
while [ $# -gt 0 ]; do
    case "$1" in
    --for)
        purpose=${2:-}
        case "$purpose" in demo | test) ;; *) echo "setup.sh: --for demo or --for test" >&2; exit 2 ;; esac
        shift ;;
    --no-build) do_build=0 ;;
    --build-dir) build_dir=$2; shift ;;
    --) shift; break ;;
    *) echo "setup.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

# building and rendering: the build tools (python3 for Meson and the man page generator), the
# libraries (cJSON, assimp, stb, libpng, libjpeg-turbo, OpenEXR, zlib for pbrt's .ply.gz and
# Mitsuba's .serialized meshes, expat for Mitsuba's XML) and SDL2 for the viewer
packages="build-essential meson ninja-build pkg-config python3 libcjson-dev libassimp-dev libstb-dev libpng-dev
libjpeg-dev libopenexr-dev zlib1g-dev libexpat1-dev libsdl2-dev"
# the tests: g++ for the C++ header test, exrheader (openexr) to check the .exr files raystream
# writes, OpenMPI for `mpirun raystream render`, Xvfb for the viewer test, matplotlib for reading
# images and the benchmark plots, jsonschema to check scenes against the schema, clang +
# compiler-rt (libclang-rt-dev: the distribution's default clang's) for the fuzzers and
# sanitizers and valgrind for tools/reliability.sh
test_packages="g++ openexr libopenmpi-dev openmpi-bin python3-matplotlib python3-jsonschema xvfb xauth
clang libclang-rt-dev valgrind"
[ "$purpose" = test ] && packages="$packages $test_packages"
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
if [ "$purpose" = test ]; then
    tools/setup_reference.sh || echo "setup.sh: no Mitsuba reference environment; the reference test will be skipped"
fi

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
