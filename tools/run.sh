#!/bin/sh
# run.sh - the two commands of the README, for a fresh Debian/Ubuntu machine:
#
#   tools/run.sh demo   set up what rendering needs (tools/setup.sh --for demo), build, and
#                       render the default scene to cornell.png (CUDA when a device is
#                       present, CPU otherwise)
#   tools/run.sh test   set up that and the test tools and reference environment
#                       (tools/setup.sh --for test), build, and run every test suite; the last
#                       line says "N passed, N failed" and the exit status is non-zero on any
#                       failure
#
# Extra arguments go to `meson setup`, e.g. `tools/run.sh test -Dcuda-arch=90`.
set -u
cd "$(dirname "$0")/.."
what=${1:-}
[ $# -gt 0 ] && shift
case "$what" in
demo)
    tools/setup.sh --for demo -- "$@" || exit 1
    exec build/raystream render scenes/cornell.json -o cornell.png
    ;;
test)
    if ! tools/setup.sh --for test --build-dir build -- "$@"; then
        echo "0 passed, 1 failed"
        exit 1
    fi
    log=$(mktemp)
    meson test -C build --print-errorlogs --num-processes 2 2>&1 | tee "$log"
    count() { sed -n "s/^$1: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1; }
    ok=$(count "Ok"); expected_fail=$(count "Expected Fail"); skipped=$(count "Skipped")
    fail=$(count "Fail"); unexpected=$(count "Unexpected Pass"); timeout=$(count "Timeout")
    rm -f "$log"
    passed=$(( ${ok:-0} + ${expected_fail:-0} ))
    failed=$(( ${fail:-0} + ${unexpected:-0} + ${timeout:-0} ))
    if [ $passed -eq 0 ] && [ $failed -eq 0 ]; then failed=1; fi # meson itself failed
    echo "(${skipped:-0} skipped: GPU tests without a CUDA device)"
    echo "$passed passed, $failed failed"
    [ $failed -eq 0 ]
    ;;
*)
    echo "usage: tools/run.sh demo|test [MESON_OPTIONS...]" >&2
    exit 2
    ;;
esac
