#!/bin/sh
# reliability.sh - the checks that need special builds (issue: never crash, never lose a render):
#   1. every test suite again in a build with AddressSanitizer + UndefinedBehaviorSanitizer
#      (leaks included, third-party leaks suppressed by tests/lsan.supp);
#   2. the fuzzers (libFuzzer, clang) for FUZZ_SECONDS in all (default 60): the scene loader,
#      the checkpoint reader, the command line and the PNG, JPEG, Radiance and OpenEXR
#      decoders, each from tests/fuzz/NAME/corpus and .../regressions; a crash, leak, timeout or
#      UB report fails, and the input is printed so it can go into tests/fuzz/NAME/regressions/;
#   3. valgrind memcheck over a small render of a scene with a mesh, and over the image decoders
#      replaying their corpora (the libraries they call are not instrumented for ASan, and a
#      pixel left uninitialised shows only here: the harness branches on every pixel).
# Prints "N passed, N failed" last (the suite's tests count one each, each fuzzer and valgrind
# one each) and exits non-zero on any failure. Needs clang, libclang-rt-dev and valgrind
# (tools/setup.sh installs them).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
passed=0 failed=0
step() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $2"; fi; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# 1. sanitizers over the whole test suite (CPU build: nvcc code is not instrumented by ASan;
#    nor is OpenMPI, whose own allocations LeakSanitizer would report, so MPI is left out here:
#    the normal suite runs test_mpi)
echo "== ASan + UBSan build and test suite"
if [ -f build-asan/build.ninja ] || meson setup build-asan -Dcuda=disabled -Dmpi=disabled -Db_sanitize=address,undefined \
        -Db_lundef=false -Dbuildtype=debugoptimized > /dev/null; then
    if ninja -C build-asan > build-asan.log 2>&1; then
        log=$(mktemp)
        # the reference test measures statistics, not memory; under ASan it would only be slow
        meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 3 --no-suite reference \
            > "$log" 2>&1
        ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -1)
        bad=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
        timeouts=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -1)
        grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT)" "$log"
        passed=$((passed + ${ok:-0}))
        failed=$((failed + ${bad:-0} + ${timeouts:-0}))
        [ -n "$ok" ] || { failed=$((failed + 1)); tail -30 "$log"; }
        rm -f "$log"
    else
        tail -30 build-asan.log
        step 1 "ASan build"
    fi
else
    step 1 "ASan configure"
fi

# 2. fuzzing: the scene loader (half the time), the checkpoint reader, the command line, the
# four image decoders and the Mitsuba, pbrt-v4 and glTF importers (the other half shared), each from its corpus and
# past findings
total=${FUZZ_SECONDS:-60}
harnesses="scene checkpoint cli png jpeg hdr exr mitsuba pbrt gltf"
echo "== fuzzing for $total s: scene loader, checkpoint reader, command line, image decoders, Mitsuba, pbrt-v4, glTF"
if [ -f build-fuzz/build.ninja ] || CC=clang CXX=clang++ meson setup build-fuzz -Dcuda=disabled -Dviewer=disabled \
        -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized \
        -Dc_args=-fsanitize=fuzzer-no-link > /dev/null; then
    # shellcheck disable=SC2046 # one target per harness
    if ninja -C build-fuzz $(for h in $harnesses; do echo tests/fuzz_$h; done) > build-fuzz.log 2>&1; then
        for harness in $harnesses; do
            others=$(($(echo $harnesses | wc -w) - 1))
            [ "$harness" = scene ] && seconds=$((total / 2)) || seconds=$((total / 2 / others))
            [ $seconds -ge 1 ] || seconds=1
            work=$(mktemp -d)
            cp tests/fuzz/$harness/corpus/* "$work/" 2>/dev/null
            cp tests/fuzz/$harness/regressions/* "$work/" 2>/dev/null
            mkdir -p "$work/findings"
            build-fuzz/tests/fuzz_$harness -max_total_time=$seconds -timeout=10 -rss_limit_mb=2048 \
                -artifact_prefix="$work/findings/" -print_final_stats=1 "$work" > fuzz-$harness.log 2>&1
            status=$?
            echo "fuzz_$harness ($seconds s): $(grep -E "stat::number_of_executed_units" fuzz-$harness.log | tail -1)"
            if [ $status -ne 0 ]; then
                grep -E "ERROR|SUMMARY" fuzz-$harness.log | head -5
                for f in "$work"/findings/*; do [ -f "$f" ] && { echo "finding $f (base64):"; base64 "$f"; }; done
            fi
            step $status "fuzz_$harness found a crash, leak, timeout or UB (see above)"
            rm -rf "$work"
        done
    else
        tail -20 build-fuzz.log
        step 1 "fuzzer build"
    fi
else
    step 1 "fuzzer configure"
fi

# 3. valgrind memcheck over a small render of a meshed scene (the normal build)
echo "== valgrind memcheck"
if [ -x build/raystream ]; then
    out=$(mktemp -d)
    valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --child-silent-after-fork=yes \
        build/raystream render scenes/reflect-23k.json --spp 1 --width 32 --height 24 --backend cpu --threads 2 \
        --quiet -o "$out/v.png" > valgrind.log 2>&1
    status=$?
    grep -E "ERROR SUMMARY|definitely lost" valgrind.log
    step $status "valgrind memcheck"
    rm -rf "$out"
else
    step 1 "valgrind: build/raystream missing (run tools/run.sh test first)"
fi
for harness in png jpeg hdr exr; do
    if [ -x build/tests/fuzz_replay_$harness ]; then
        valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
            build/tests/fuzz_replay_$harness tests/fuzz/$harness/corpus > valgrind-$harness.log 2>&1
        status=$?
        grep -E "ERROR SUMMARY|replayed" valgrind-$harness.log
        step $status "valgrind over the $harness decoder's corpus"
    else
        step 1 "valgrind: build/tests/fuzz_replay_$harness missing"
    fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
