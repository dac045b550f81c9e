#!/bin/sh
# check.sh MANIFEST DIR [RAYSTREAM] - re-runs an import manifest (tools/import-manifest/*.tsv)
# over local copies of its scenes: DIR/<repo with / as +>/<the row's path> (a repository
# snapshot, meshes and textures included), DIR/<the row's path>, or DIR/<its file name>.
#
# Renders each with `raystream render FILE --spp 4 --width 160 --height 120` on the CPU (60 s
# limit) and prints the outcome beside the manifest's: "renders" (exit 0, an image whose mean is
# not black, the warnings counted), "refused: MESSAGE" (exit 1 with a message), or "CRASH"/"HANG".
# The rows' expected outcomes are compared by their first word; a mismatch fails the run. Rows
# whose copy is missing are listed as such. Copies of the scenes are not committed (their
# licences and sizes vary): fetch them from the repository and commit the manifest names.
set -u
manifest=$1 dir=$2 rs=${3:-build/raystream}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0 ok=0 missing=0 mismatch=0
while IFS="$(printf '\t')" read -r repo commit path outcome note; do
    case "$repo" in ''|'#'*|repo) continue ;; esac
    total=$((total + 1))
    file="$dir/$(echo "$repo" | tr / +)/$path"
    [ -f "$file" ] || file="$dir/$path"
    [ -f "$file" ] || file="$dir/$(basename "$path")"
    if [ ! -f "$file" ]; then
        echo "MISSING  $path"
        missing=$((missing + 1))
        continue
    fi
    timeout 60 "$rs" render "$file" --spp 4 --width 160 --height 120 --backend cpu --quiet -o "$tmp/out.pfm" \
        2>"$tmp/err"
    status=$?
    warnings=$(grep -c "warning" "$tmp/err")
    if [ $status -eq 0 ]; then
        mean=$(python3 -c "
import struct,sys
d=open('$tmp/out.pfm','rb').read()
lines=d.split(b'\n',3)
w,h=map(int,lines[1].split()); px=struct.unpack('<%df'%(w*h*3) if float(lines[2])<0 else '>%df'%(w*h*3), lines[3][:w*h*12])
print('%.4f'%(sum(px)/len(px)))")
        got="renders (mean $mean, $warnings warnings)"
        [ "$mean" = "0.0000" ] && got="BLACK"
    elif [ $status -eq 1 ]; then
        got="refused: $(grep -v warning "$tmp/err" | head -1)"
    elif [ $status -eq 124 ]; then
        got="HANG"
    else
        got="CRASH (exit $status)"
    fi
    if [ "${got%% *}" = "${outcome%% *}" ] || { [ "${got%%:*}" = "refused" ] && [ "${outcome%%:*}" = "refused" ]; }; then
        ok=$((ok + 1))
        echo "ok       $path: $got"
    else
        mismatch=$((mismatch + 1))
        echo "MISMATCH $path: expected '$outcome', got '$got'"
    fi
    sed 's/^/           /' "$tmp/err"
done < "$manifest"
echo "$total rows: $ok as recorded, $mismatch differ, $missing missing"
[ $mismatch -eq 0 ]
