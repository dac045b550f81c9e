#!/bin/bash
# gpu_compare.sh OLD_SRC STEP... - compare this tree with another source tree on a GPU host, in
# one run, so that every figure of both comes from the same device:
#
#   build   both, release, sm_90: build-gpu here, OLD_SRC/build-gpu there (OLD_SRC is, say, an
#           older commit's `git archive` unpacked inside this checkout)
#   md5     tools/image_md5s.sh on CUDA with both binaries, and the diff of the two tables
#   sass    instructions per kernel of both binaries (cuobjdump), the kernels that differ
#   suite   this tree's gpu test suite
#   bench   `bench` with its defaults and `bench-trace` on Sponza (SPONZA, default
#           tools/bench/scenes/sponza.json), old and new alternating, REPEAT times (default 2)
#
# Summaries go to stdout, everything to $OUT/compare (or ./gpu-out/compare). A GPU host without
# the Debian libraries needs .gpu-deps (tools/gpu_host_deps.sh). Used for the architecture
# refactoring (docs/testing.md, "Refactoring without changing an image").
set -u
old=$1
shift
out=${OUT:-gpu-out}/compare
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
new_bin=build-gpu/raystream old_bin=$old/build-gpu/raystream
sponza=${SPONZA:-tools/bench/scenes/sponza.json}
repeat=${REPEAT:-2}

build() { # source-dir log-name
    (cd "$1" && { [ -f build-gpu/build.ninja ] || meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 \
        -Dviewer=disabled -Dmpi=disabled --buildtype=release > "$out/$2-setup.log" 2>&1; } &&
        ninja -C build-gpu > "$out/$2-build.log" 2>&1) || { echo "$2: build failed"; tail -20 "$out/$2-build.log"; return 1; }
    echo "$2: built"
}

sass_counts() { # binary -> "kernel count" lines
    cuobjdump -sass "$1" | awk '/Function :/ { k = $3 } /^        \/\*[0-9a-f]+\*\// { n[k]++ } END { for (k in n) print k, n[k] }' | sort
}

for step in "$@"; do
    case $step in
    build)
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
        build . new && build "$old" old || exit 1
        ;;
    md5)
        for v in old new; do
            bin=$new_bin
            [ $v = old ] && bin=$old_bin
            start=$(date +%s)
            JOBS=${JOBS:-8} tools/image_md5s.sh "$bin" cuda "$out/md5-cuda-$v.tsv"
            echo "md5 $v: $(grep -c . "$out/md5-cuda-$v.tsv") lines in $(( $(date +%s) - start )) s, $(tail -n 1 "$out/md5-cuda-$v.tsv")"
        done
        if diff "$out/md5-cuda-old.tsv" "$out/md5-cuda-new.tsv" > "$out/md5-cuda.diff"; then
            echo "md5: the CUDA tables of old and new are identical"
        else
            echo "md5: the CUDA tables differ in $(grep -c '^>' "$out/md5-cuda.diff") renders:"
            head -20 "$out/md5-cuda.diff"
        fi
        ;;
    sass)
        sass_counts "$old_bin" > "$out/sass-old.txt"
        sass_counts "$new_bin" > "$out/sass-new.txt"
        join -a1 -a2 -e 0 -o 0,1.2,2.2 "$out/sass-old.txt" "$out/sass-new.txt" > "$out/sass.txt"
        echo "sass: $(wc -l < "$out/sass.txt") kernels, $(awk '$2 != $3' "$out/sass.txt" | wc -l) with other instruction counts (old new):"
        awk '$2 != $3 { printf "  %7d %7d  %s\n", $2, $3, substr($1, 1, 100) }' "$out/sass.txt" | head -30
        ;;
    suite)
        meson test -C build-gpu --suite gpu --print-errorlogs --num-processes 4 > "$out/gpu-suite.log" 2>&1
        grep -E "^ *[0-9]+/[0-9]+ |^Ok|^Fail|^Skip|^Timeout" "$out/gpu-suite.log"
        ;;
    bench)
        for r in $(seq 1 "$repeat"); do
            for v in old new; do
                bin=$new_bin
                [ $v = old ] && bin=$old_bin
                "$bin" bench --quiet --json "$out/bench-$v-$r.json" > "$out/bench-$v-$r.txt" 2>&1 || echo "bench $v $r failed"
                if [ -f "$sponza" ]; then
                    "$bin" bench-trace --scenes "$sponza" --json "$out/trace-$v-$r.json" > "$out/trace-$v-$r.txt" 2>&1 ||
                        echo "bench-trace $v $r failed"
                fi
            done
        done
        python3 - "$out" "$repeat" <<'PY'
import json, math, os, statistics, sys
out, repeat = sys.argv[1], int(sys.argv[2])
def load(name):
    p = os.path.join(out, name)
    return json.load(open(p)) if os.path.exists(p) else None
def bench_fps(run):
    return {(os.path.basename(r["scene"]), r["integrator"], r["depth"], r["deadray"]): r["fps_median"]
            for r in run["results"]} if run else {}
runs = {v: [bench_fps(load(f"bench-{v}-{r}.json")) for r in range(1, repeat + 1)] for v in ("old", "new")}
keys = sorted(set.intersection(*[set(d) for v in runs for d in runs[v]])) if all(runs.values()) else []
if keys:
    def gm(ratios):
        return math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    new_old = [statistics.median(d[k] for d in runs["new"]) / statistics.median(d[k] for d in runs["old"]) for k in keys]
    old_old = [runs["old"][0][k] / runs["old"][-1][k] for k in keys]
    print(f"bench defaults: {len(keys)} configurations; FPS new/old: geometric mean {gm(new_old):.4f}, "
          f"median {statistics.median(new_old):.4f}, range {min(new_old):.3f}-{max(new_old):.3f}; "
          f"old run 1 / old run {repeat} (the noise): geometric mean {gm(old_old):.4f}, "
          f"range {min(old_old):.3f}-{max(old_old):.3f}")
    by_scene = {}
    for k, x in zip(keys, new_old):
        by_scene.setdefault(k[:2], []).append(x)
    for s, xs in sorted(by_scene.items()):
        print(f"  {s[0]} {s[1]}: new/old geometric mean {gm(xs):.4f}")
def trace_rates(run):
    rates = {}
    for x in (run or {}).get("results", []):
        name = (os.path.basename(x["scene"]).replace(".json", "") + ":" + x["accel"] +
                ("+sbvh" if x.get("spatial_splits") else "") + "/" + x.get("trace_kernel", ""))
        for kind in ("camera", "shadow", "bounce", "bounce_sorted"):
            if kind in x:
                rates[(name, kind)] = x[kind]["rays_per_s"]
    return rates
traces = {v: [trace_rates(load(f"trace-{v}-{r}.json")) for r in range(1, repeat + 1)] for v in ("old", "new")}
tkeys = sorted(set.intersection(*[set(d) for v in traces for d in traces[v]])) if all(traces.values()) else []
if tkeys:
    print("bench-trace (G rays/s, median of the runs): structure/kernel ray-kind old new new/old")
    for k in tkeys:
        o = statistics.median(d[k] for d in traces["old"]) / 1e9
        n = statistics.median(d[k] for d in traces["new"]) / 1e9
        print(f"  {k[0]:30s} {k[1]:14s} {o:6.3f} {n:6.3f} {n / o:6.3f}")
PY
        ;;
    *)
        echo "gpu_compare.sh: unknown step $step (build, md5, sass, suite, bench)" >&2
        exit 2
        ;;
    esac
done
