#!/bin/bash
# gpu_instancing.sh - issue 25's instancing floors on a GPU host, in one call: build, the gpu
# suite's instancing and traversal tests, then
#   memory: 10,000 instances of a 100,000-triangle mesh (tools/gen_instances.py): the bytes of
#           the BLAS, TLAS, instance records and wave buffers as bench-trace reports them, against
#           the floor "the mesh's BLAS + about 200 bytes per instance + the wave buffers", and the
#           device memory the render process held (nvidia-smi) beside it;
#   speed:  the same mesh alone (single.json, and Sponza when .bench-assets has it) through the
#           flat structure and through the two-level path (--two-level): camera rays per second,
#           against the floor "at most 10% slower".
# Prints the figures and writes everything to $OUT (or ./gpu-out).
#
#   tools/gpu_instancing.sh [ARCH]      default 90
set -u
arch=${1:-90}
out=${OUT:-gpu-out}
res=$(mktemp -d)
mkdir -p "$out"
[ -f .gpu-deps/env.sh ] && . .gpu-deps/env.sh
export PATH="$PATH:/usr/local/cuda/bin"
if [ -d .bench-assets-gz ]; then
    (cd .bench-assets-gz && find . -name '*.gz' | while read -r f; do
        mkdir -p "../.bench-assets/$(dirname "$f")"; gunzip -c "$f" > "../.bench-assets/${f%.gz}"; done)
fi
tools/gpu_build.sh "$arch" "$res" || exit 1
rs=build-gpu/raystream
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$res/nvidia-smi.txt"

echo "== gpu tests"
meson test -C build-gpu test_gpu_instancing test_gpu_two_level test_gpu_self_hits test_gpu_accel test_gpu_render --print-errorlogs > "$res/gpu-tests.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail" "$res/gpu-tests.log"
meson test -C build-gpu test_two_level test_instancing --print-errorlogs > "$res/cpu-tests.log" 2>&1
grep -E "^ *[0-9]+/|^Ok|^Fail" "$res/cpu-tests.log"

echo "== memory: 10,000 instances of a 100,000-triangle mesh"
scenes=.bench-assets/instances
python3 tools/gen_instances.py --count 10000 --out "$scenes" | tee "$res/gen.txt"
# the whole mesh as one BLAS, alone: the floor's "mesh's BLAS"
"$rs" bench-trace --scenes "$scenes/single.json" --accel bvh8,bvh2 --width 1920 --height 1080 --repeats 5 \
    --json "$res/single-flat.json" > "$res/single-flat.txt" 2>&1
# nvidia-smi samples the process's device memory while bench-trace holds the scene
(while sleep 0.2; do nvidia-smi --query-compute-apps=used_memory --format=csv,noheader,nounits 2>/dev/null; done) \
    > "$res/smi-samples.txt" &
smi=$!
"$rs" bench-trace --scenes "$scenes/instances.json" --accel bvh8,bvh2 --width 1920 --height 1080 --repeats 5 \
    --json "$res/instances.json" > "$res/instances.txt" 2>&1
kill $smi 2>/dev/null
cat "$res/instances.txt"
echo "largest device memory of the process (nvidia-smi, MiB): $(sort -n "$res/smi-samples.txt" | tail -1)"

echo "== registers of the extend kernels (accel 256/257: flat bvh2/bvh8 without cut-outs; 768/769 two-level)"
cuobjdump -res-usage "$rs" 2>/dev/null | grep -A1 "rs_kernel_extend" | paste - - |
    sed -E 's/.*_Z16rs_kernel_extendILi([0-9]+)ELi([0-9]+)E.*REG:([0-9]+).*/accel \1 mode \2: \3 registers/' |
    sort -u | tee "$res/registers.txt"

echo "== speed: camera rays, flat against --two-level"
speed_scenes="$scenes/single.json"
[ -f .bench-assets/sponza/sponza.obj ] && speed_scenes="$speed_scenes,tools/bench/scenes/sponza.json"
for mode in flat two-level; do
    flag=""
    [ $mode = two-level ] && flag=--two-level
    "$rs" bench-trace --scenes "$speed_scenes" --accel bvh8,bvh2 --width 1920 --height 1080 --repeats 20 \
        $flag --json "$res/speed-$mode.json" > "$res/speed-$mode.txt" 2>&1
    cat "$res/speed-$mode.txt"
done

python3 - "$res" <<'PY' | tee "$res/summary.txt"
import json, os, sys
res = sys.argv[1]
def load(name):
    p = os.path.join(res, name)
    return json.load(open(p))["results"] if os.path.exists(p) else []
flat_blas = {r["accel"]: r["memory"]["world_bytes"] for r in load("single-flat.json")}
# (the flat scene's structure also holds its ground quad: two triangles, a few hundred bytes)
for r in load("instances.json"):
    m = r["memory"]
    n = max(1, m["instances"])
    per = (m["tlas_bytes"] + m["instance_bytes"]) / n
    extra_blas = m["blas_bytes"] - flat_blas.get(r["accel"], m["blas_bytes"])
    total = m["world_bytes"] + m["blas_bytes"] + m["tlas_bytes"] + m["instance_bytes"]
    floor = flat_blas.get(r["accel"], 0) + 200 * n + m["wave_bytes"] + m["world_bytes"]
    print(f"memory {r['accel']}: {n} instances: BLAS {m['blas_bytes'] / 2**20:.2f} MiB (the mesh alone: "
          f"{flat_blas.get(r['accel'], 0) / 2**20:.2f} MiB), TLAS {m['tlas_bytes'] / 2**20:.2f} MiB, instance records "
          f"{m['instance_bytes'] / 2**20:.2f} MiB = {per:.1f} bytes per instance; wave buffers "
          f"{m['wave_bytes'] / 2**20:.1f} MiB; structure + waves {(total + m['wave_bytes']) / 2**20:.1f} MiB against the "
          f"floor {floor / 2**20:.1f} MiB: {'PASS' if total + m['wave_bytes'] <= floor and extra_blas <= 0 else 'FAIL'}")
flat = {(r["scene"], r["accel"]): r for r in load("speed-flat.json") if r.get("trace_kernel") == "plain"}
for r in load("speed-two-level.json"):
    f = flat.get((r["scene"], r["accel"]))
    if not f:
        continue
    a, b = f["camera"]["rays_per_s"], r["camera"]["rays_per_s"]
    cost = 1.0 - b / a if a else 0.0
    print(f"speed {os.path.basename(r['scene'])} {r['accel']}: camera {a / 1e9:.3f} G rays/s flat, {b / 1e9:.3f} "
          f"two-level: {100 * cost:+.1f}% slower: {'PASS' if cost <= 0.10 else 'FAIL'} (floor 10%)")
PY
tar -czf "$out/instancing-results.tar.gz" -C "$res" . && echo "results: $out/instancing-results.tar.gz"
