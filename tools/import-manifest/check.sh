#!/bin/sh
# check.sh MANIFEST.tsv DIR [RAYSTREAM] - re-runs an import manifest (tools/import-manifest/*.tsv:
# repo, commit, path, outcome, note) over DIR, a folder holding copies of the scenes at their
# manifest paths (DIR/<path>; the scenes themselves are never committed). Each scene is rendered
# as `raystream render FILE --spp 4 --width 160 --height 120` with a time limit, and its outcome
# printed beside the one recorded: "renders" (exit 0 and a non-black image), "black" (exit 0, an
# all-black image), "refused: MESSAGE" (exit 1), "CRASH"/"HANG" otherwise, or "missing" when DIR
# lacks the file. Exits 1 if any scene crashed, hung or came out black.
set -u
manifest=$1 dir=$2 raystream=${3:-build/raystream}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
tail -n +2 "$manifest" | while IFS="$(printf '\t')" read -r repo commit path recorded note; do
    file="$dir/$path"
    if [ ! -f "$file" ]; then
        printf '%s\tmissing\t(recorded: %s)\n' "$path" "$recorded"
        continue
    fi
    rm -f "$tmp/out.pfm"
    timeout 300 "$raystream" render "$file" --spp 4 --width 160 --height 120 -o "$tmp/out.pfm" --quiet \
        2> "$tmp/err"
    status=$?
    if [ $status -eq 0 ]; then
        mean=$(python3 -c '
import struct, sys
raw = open(sys.argv[1], "rb").read().split(b"\n", 3)
w, h = (int(x) for x in raw[1].split())
px = struct.unpack(("<" if float(raw[2]) < 0 else ">") + "%df" % (w * h * 3), raw[3][:w * h * 12])
print(sum(px) / len(px))' "$tmp/out.pfm")
        outcome=$(python3 -c 'import sys; print("renders" if float(sys.argv[1]) > 0 else "black")' "$mean")
        warnings=$(grep -c 'warning' "$tmp/err")
        printf '%s\t%s (mean %s, %s warnings)\t(recorded: %s)\n' "$path" "$outcome" "$mean" "$warnings" "$recorded"
        [ "$outcome" = renders ] || echo "BLACK: $path" >> "$tmp/bad"
    elif [ $status -eq 1 ]; then
        printf '%s\trefused: %s\t(recorded: %s)\n' "$path" "$(grep -v warning "$tmp/err" | head -1)" "$recorded"
    elif [ $status -eq 124 ]; then
        printf '%s\tHANG\t(recorded: %s)\n' "$path" "$recorded"
        echo "HANG: $path" >> "$tmp/bad"
    else
        printf '%s\tCRASH (exit %s)\t(recorded: %s)\n' "$path" "$status" "$recorded"
        echo "CRASH: $path" >> "$tmp/bad"
    fi
done
if [ -s "$tmp/bad" ]; then
    cat "$tmp/bad"
    bad=1
fi
exit $bad
