#!/bin/sh
# test_output_paths.sh RAYSTREAM SCENES_DIR - no output replaces an input or another output
# (app suite; issue 24, kind 4). Every file a command writes is compared, before any work, with
# the others and with every file it reads, by identity (a symlink or a hard link to the scene is
# the scene): each collision is refused, naming both roles and the path, fast (before
# rendering), leaving the input as it was. Also: an output that is a directory, in a missing
# folder, or read-only is refused before rendering; an input named like an output's temporary is
# refused (not removed); --resume F --checkpoint F still continues in place, bit-identically;
# the viewer's P screenshots never overwrite existing files; bench, bench-trace and view check
# their result files the same way.
set -u
rs=$(realpath "$1") scenes=$(realpath "$2")
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cp "$scenes/cornell.json" "$tmp/scene.json"
cp -r "$scenes/materials.json" "$scenes/textures" "$tmp/"
cp "$tmp/scene.json" "$tmp/scene.orig"
cp "$tmp/textures/checker.png" "$tmp/checker.orig"
cd "$tmp" || exit 1
tiny="--width 16 --height 16 --max-depth 2 --backend cpu --quiet"

# refused SCENE WANT ARGS...: exit 1 within seconds (--spp 100000 would take minutes), a message
# holding WANT, and the scene and the texture unchanged
refused() {
    scene=$1 want=$2
    shift 2
    start=$(date +%s)
    "$rs" render "$scene" $tiny --spp 100000 "$@" 2>err.log
    status=$?
    took=$(($(date +%s) - start))
    [ $status -eq 1 ] || fail "render $scene $*: exit $status (expected 1): $(cat err.log)"
    grep -qF -- "$want" err.log || fail "render $scene $*: expected '$want', got: $(cat err.log)"
    [ $took -lt 10 ] || fail "render $scene $*: refused only after $took s"
    cmp -s scene.json scene.orig || { fail "render $scene $*: the scene changed"; cp scene.orig scene.json; }
    cmp -s textures/checker.png checker.orig || fail "render $scene $*: the texture changed"
}

# --- the issue's examples ---
refused scene.json "the checkpoint (--checkpoint) would overwrite the scene 'scene.json'" --checkpoint scene.json
refused scene.json "the output (-o) and the checkpoint (--checkpoint) would both be written to 'x.exr'" \
    -o x.exr --checkpoint x.exr
refused scene.json "the noisy image of -o 'a.pfm' (--denoise) and the output (-o) would both be written to 'a.noisy.pfm'" \
    --denoise -o a.pfm -o a.noisy.pfm
# ... and their relatives: the partial images, spellings of one path, --resume as an input
refused scene.json "the partial image of -o 'a.png' (written on an interrupt) and the output (-o) would both be written to 'a.partial.png'" \
    -o a.png -o a.partial.png
refused scene.json "the noisy partial image of -o 'b.hdr' (--denoise, on an interrupt) and the output (-o) would both be written to 'b.partial.noisy.hdr'" \
    --denoise -o b.hdr -o b.partial.noisy.hdr
refused scene.json "the output (-o) 'x.png' and the output (-o) './x.png' are the same file" -o x.png -o ./x.png
mkdir sub
refused scene.json "the output (-o) 'sub/../y.pfm' and the checkpoint (--checkpoint) 'y.pfm' are the same file" \
    -o sub/../y.pfm --checkpoint y.pfm
"$rs" render scene.json $tiny --spp 2 -o c.png --checkpoint c.ck || fail "render with a checkpoint"
refused scene.json "the output (-o) would overwrite the checkpoint to resume (--resume) 'c.ck.pfm'" \
    --resume c.ck.pfm -o c.ck.pfm --checkpoint other.ck

# --- identity, not names: a symlink or a hard link to the scene is the scene ---
ln -s scene.json link.json
ln scene.json hard.json
ln -s scene.json link.png
refused scene.json "the checkpoint (--checkpoint) 'link.json' is the scene 'scene.json' (the same file)" \
    --checkpoint link.json
refused scene.json "the checkpoint (--checkpoint) 'hard.json' is the scene 'scene.json' (the same file)" \
    --checkpoint hard.json
refused scene.json "the output (-o) 'link.png' is the scene 'scene.json' (the same file)" -o link.png
refused link.json "the checkpoint (--checkpoint) 'scene.json' is the scene 'link.json' (the same file)" \
    -o other.png --checkpoint scene.json
# every file the scene read: a texture, directly, through a symlink and through a hard link
ln -s textures/checker.png tex-link.png
ln textures/checker.png tex-hard.png
refused materials.json "the output (-o) would overwrite the file read by the scene 'textures/checker.png'" \
    -o textures/checker.png
refused materials.json "the output (-o) 'tex-link.png' is the file read by the scene 'textures/checker.png'" \
    -o tex-link.png
refused materials.json "the checkpoint (--checkpoint) 'tex-hard.png' is the file read by the scene 'textures/checker.png'" \
    -o m.png --checkpoint tex-hard.png

# --- destinations that cannot be written ---
mkdir d.png e.png.partial.png e.exr.partial.exr
refused scene.json "the output (-o): cannot write 'd.png': it is a directory" -o d.png
refused scene.json "the partial image of -o 'e.png.png' (written on an interrupt): cannot write 'e.png.partial.png': it is a directory" \
    -o e.png.png
refused scene.json "the checkpoint (--checkpoint): cannot write 'd.png': it is a directory" -o f.png --checkpoint d.png
refused scene.json "the output (-o): cannot write 'no/such/dir/x.png'" -o no/such/dir/x.png
if [ "$(id -u)" != 0 ]; then # root writes anywhere
    touch ro.png && chmod 444 ro.png
    refused scene.json "the output (-o): cannot write 'ro.png': the file is read-only" -o ro.png
    mkdir rodir && chmod 555 rodir
    refused scene.json "the output (-o): cannot write 'rodir/x.png'" -o rodir/x.png
fi
# an input named like a temporary of an output is refused, not removed as a stale temporary
cp scene.json "t.png.tmp-999999"
refused "t.png.tmp-999999" "the scene 't.png.tmp-999999' is named like a temporary file of the output (-o) 't.png'" \
    -o t.png
[ -e "t.png.tmp-999999" ] || fail "an input named like a stale temporary was removed"

# --- continuing in place still works, bit-identically, also through a link to the checkpoint ---
"$rs" render scene.json $tiny --spp 4 -o straight.pfm || fail "straight render"
"$rs" render scene.json $tiny --spp 2 -o p.pfm --checkpoint p.ck || fail "first half"
"$rs" render scene.json $tiny --spp 3 -o p.pfm --resume p.ck --checkpoint p.ck || fail "resume in place"
ln -s p.ck p-link.ck
"$rs" render scene.json $tiny --spp 4 -o p.pfm --resume p-link.ck --checkpoint p.ck || fail "resume through a link"
cmp -s straight.pfm p.pfm || fail "continuing in place is not bit-identical to a straight render"

# --- view: --screenshot, --window-shot and --state against each other, the scene, its files ---
view() {
    want=$1
    shift
    "$rs" view "$@" --headless --frames 2 $tiny 2>err.log >/dev/null
    status=$?
    [ $status -eq 1 ] && grep -qF -- "$want" err.log || fail "view $*: exit $status: $(cat err.log)"
    cmp -s scene.json scene.orig && cmp -s textures/checker.png checker.orig || fail "view $*: an input changed"
}
view "the screenshot (--screenshot) and the state (--state) would both be written to 's.png'" \
    scene.json --screenshot s.png --state s.png
view "the state (--state) would overwrite the scene 'scene.json'" scene.json --state scene.json
view "the screenshot (--screenshot) 'tex-link.png' is the file read by the scene 'textures/checker.png'" \
    materials.json --screenshot tex-link.png
# P never overwrites: an existing raystream-0001.png (here: a copy of a texture) is skipped
cp textures/checker.png raystream-0001.png
"$rs" view scene.json --headless --frames 3 --keys p $tiny >view.log 2>&1 || fail "view with P: $(cat view.log)"
cmp -s raystream-0001.png checker.orig || fail "P overwrote raystream-0001.png"
[ -s raystream-0002.png ] && [ -s raystream-0002.hdr ] || fail "P did not save raystream-0002: $(cat view.log)"

# --- bench and bench-trace: --json and --csv ---
bench() {
    want=$1
    shift
    "$rs" "$@" --backend cpu --width 16 --height 16 >/dev/null 2>err.log
    status=$?
    [ $status -eq 1 ] && grep -qF -- "$want" err.log || fail "$*: exit $status: $(cat err.log)"
    cmp -s scene.json scene.orig && cmp -s textures/checker.png checker.orig || fail "$*: an input changed"
}
bench "the results (--csv) would overwrite the scene 'scene.json'" bench --scenes scene.json --depths 1 --frames 1 \
    --csv scene.json
bench "the results (--json) and the results (--csv) would both be written to 'r.txt'" bench --scenes scene.json \
    --depths 1 --frames 1 --json r.txt --csv r.txt
bench "the results (--csv) 'tex-hard.png' is the file read by the scene 'textures/checker.png'" bench \
    --scenes scene.json,materials.json --depths 1 --frames 1 --csv tex-hard.png
bench "the results (--csv) would overwrite the scene 'scene.json'" bench-trace --scenes scene.json --csv scene.json
bench "the results (--json): cannot write 'd.png': it is a directory" bench-trace --scenes scene.json --json d.png
"$rs" bench --scenes scene.json --depths 1 --frames 1 --backend cpu --width 16 --height 16 --csv ok.csv \
    --json ok.json >/dev/null 2>&1 || fail "bench with --csv and --json"
[ "$(wc -l <ok.csv)" -ge 2 ] && [ -s ok.json ] || fail "bench results missing"
left=$(ls | grep "tmp-" | grep -v "^t.png.tmp-999999$")
[ -z "$left" ] || fail "temporaries left behind: $left"

[ $failures -eq 0 ] && echo "test_output_paths: all checks passed"
exit $((failures != 0))
