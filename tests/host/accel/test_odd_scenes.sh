#!/bin/sh
# test_odd_scenes.sh RAYSTREAM DATA_DIR - legal scenes at the edges of float arithmetic render
# with every acceleration structure (CPU backend): denormal_centroids.json (centroids a denormal
# apart: the binned builders once converted inf or NaN to int) and denormal_flat.json (a scene
# whose thickness is a denormal: the grid's cells along it are that thin, and a point outside
# the grid once gave an out-of-range float-to-int conversion). Both are undefined behaviour that
# only clang's UBSan reports (gcc's -fsanitize=undefined leaves float-cast-overflow out), so this
# test asks for a finished, non-black image; the sanitizer builds catch the rest.
set -u
rs=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
for scene in denormal_centroids.json denormal_flat.json; do
    for accel in bvh2 bvh8 grid; do
        if ! "$rs" render "$dir/$scene" --accel $accel --backend cpu --spp 2 --width 24 --height 24 --quiet \
                -o "$tmp/out.pfm" 2>"$tmp/err"; then
            echo "FAIL: $scene --accel $accel: $(cat "$tmp/err")"
            fails=$((fails + 1))
            continue
        fi
        mean=$(python3 -c "
import struct
d = open('$tmp/out.pfm', 'rb').read().split(b'\n', 3)
w, h = map(int, d[1].split())
px = struct.unpack('<%df' % (w * h * 3), d[3][:w * h * 12])
print(sum(px) / len(px))")
        if python3 -c "import sys; sys.exit(0 if 0.01 < $mean < 10 else 1)"; then
            echo "ok: $scene --accel $accel (mean $mean)"
        else
            echo "FAIL: $scene --accel $accel: mean $mean"
            fails=$((fails + 1))
        fi
    done
done
[ $fails -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
