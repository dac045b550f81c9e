#!/bin/bash
# image_md5s.sh - the md5 of a fixed set of small renders, one line per render: the table that
# shows a change kept every image the same to the bit (a refactoring) or says which ones moved.
#
#   tools/image_md5s.sh BINARY BACKEND [OUT.tsv]
#
# BACKEND is cpu or cuda. Every shipped scene (and the reference suite's rough materials and
# environment map), with both integrators, is rendered through every acceleration structure
# with every dead-ray strategy the backend has, plus the payload, sorted-ray (by ray, and by
# ray and material), no-spatial-split, AOV and tiny-wave variants, at 64x48 and 4 spp, to .pfm
# (32-bit float: the exact bits; the AOV run also to .exr). Lines are "scene integrator accel
# strategy variant md5"; two runs are compared with `diff`. Within one run and backend every
# strategy of a (scene, integrator, accel) must agree, which the last line checks ("strategies
# agree" or the rows that differ). JOBS (default 1) renders run at a time; the table is the same
# whatever JOBS is.
set -u
[ $# -ge 2 ] || { echo "usage: tools/image_md5s.sh BINARY cpu|cuda [OUT.tsv]" >&2; exit 2; }
bin=$1 backend=$2 out=${3:-/dev/stdout}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strategies="auto flags stencil persistent compact-scan compact-block compact-warp"
[ "$backend" = cuda ] && strategies="$strategies compact-cub"
scenes="scenes/cornell.json scenes/diffuse.json scenes/mirrors.json scenes/materials.json scenes/reflect-23k.json
scenes/gltf.json tests/data/reference/rough_materials.json tests/data/reference/env_map.json"

# one job per line: scene integrator accel strategy variant extra-options...
for s in $scenes; do
    for i in path whitted; do
        for a in bvh2 bvh8 grid; do
            for d in $strategies; do
                echo "$s $i $a $d plain"
            done
        done
    done
    echo "$s path bvh2 compact-scan payload --payload"
    echo "$s path bvh8 compact-block sorted --sort-rays"
    echo "$s path bvh8 compact-warp msorted --sort-materials --sort-rays"
    echo "$s path bvh2 stencil nosbvh --no-sbvh"
    echo "$s path bvh2 stencil aov --aov all"
    echo "$s path bvh2 flags waves --max-memory 64K"
done | awk '{ print NR, $0 }' > "$tmp/jobs"

# renders job N into $tmp/N.line
render() {
    n=$1 s=$2 i=$3 a=$4 d=$5 v=$6
    shift 6
    f="$tmp/$n.pfm"
    exr=""
    [ "$v" = aov ] && exr="$tmp/$n.exr"
    if ! "$bin" render "$root/$s" -o "$f" ${exr:+-o "$exr"} --width 64 --height 48 --spp 4 --max-depth 8 --seed 7 \
            --quiet --backend "$backend" --integrator "$i" --accel "$a" --deadray "$d" "$@" > "$tmp/$n.log" 2>&1; then
        echo "$(basename "$s" .json) $i $a $d $v FAILED: $(tail -n 1 "$tmp/$n.log")" > "$tmp/$n.line"
        return
    fi
    sum=$(md5sum < "$f" | cut -c1-32)
    [ -n "$exr" ] && sum="$sum+exr:$(md5sum < "$exr" | cut -c1-32)"
    echo "$(basename "$s" .json) $i $a $d $v $sum" > "$tmp/$n.line"
    rm -f "$f" "$exr" "$tmp/$n.log"
}
export bin backend root tmp
export -f render
# xargs keeps JOBS renders in flight; each job line's words are render's arguments
xargs -P "${JOBS:-1}" -L 1 bash -c 'render "$@"' _ < "$tmp/jobs"
n=$(wc -l < "$tmp/jobs")
k=1
: > "$tmp/table"
while [ "$k" -le "$n" ]; do
    cat "$tmp/$k.line" >> "$tmp/table"
    k=$((k + 1))
done
# every strategy of one (scene, integrator, accel) must give the same plain image, sorted or not
bad=$(awk '$5 == "plain" || $5 == "sorted" || $5 == "msorted" { k = $1 " " $2 " " $3; if (k in first && first[k] != $6) print; else first[k] = $6 }' "$tmp/table")
{
    cat "$tmp/table"
    if [ -z "$bad" ]; then echo "# strategies agree"; else echo "# strategies differ:"; echo "$bad"; fi
} > "$out"
[ -z "$bad" ]
