#!/bin/sh
# check.sh FORMAT.tsv FOLDER [RAYSTREAM] - re-runs an import manifest over copies of its scenes.
#
# FOLDER holds each listed repository's files under FOLDER/<repo with / as +>/<path> (for
# Mitsuba: the mitsuba-data snapshot, its meshes and textures included). For every row, renders
# the scene with `raystream render FILE --spp 4 --width 160 --height 120` (60 s at most) and
# prints the row's recorded outcome beside what happened now: "renders (mean M)" with the
# image's mean value (0 would be a black image), or the first error line. Exits 1 if a row
# recorded as rendering fails or comes out black now, or a refused row now renders.
set -u
manifest=$1 folder=$2 raystream=${3:-build/raystream}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
tail -n +2 "$manifest" | while IFS="$(printf '\t')" read -r repo commit path outcome note; do
    file="$folder/$(echo "$repo" | tr / +)/$path"
    if timeout 60 "$raystream" render "$file" --spp 4 --width 160 --height 120 -o "$tmp/x.pfm" --quiet \
            2>"$tmp/err"; then
        mean=$(python3 -c "
import struct,sys
d=open('$tmp/x.pfm','rb').read().split(b'\n',3)
w,h=map(int,d[1].split()); v=struct.unpack(('<' if float(d[2])<0 else '>')+'f'*(w*h*3), d[3][:w*h*12])
print('%.4g' % (sum(v)/len(v)))")
        now="renders (mean $mean)"
        case "$outcome" in renders*) [ "$mean" = 0 ] && status=1 ;; *) status=1 ;; esac
    else
        now="fails: $(grep -v warning "$tmp/err" | head -1)"
        case "$outcome" in renders*) status=1 ;; esac
    fi
    printf '%s\n  recorded: %s\n  now:      %s\n' "$path" "$outcome" "$now"
    echo $status > "$tmp/status"
done
exit "$(cat "$tmp/status" 2>/dev/null || echo 0)"
