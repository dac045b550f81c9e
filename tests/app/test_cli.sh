#!/bin/sh
# test_cli.sh RAYSTREAM SCENES_DIR - the command line as a user meets it (render suite).
# Renders the default scene to PNG and PFM, checks help texts and usage errors, that an
# unwritable output fails before any rendering, that --backend cuda without a device is a clear
# error, and that an interrupted render writes what it has.
set -u
rs=$1 scenes=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# a small render of the default scene, to PNG and PFM at once
if "$rs" render "$scenes/cornell.json" -o "$tmp/c.png" -o "$tmp/c.pfm" --spp 2 --width 40 --height 30 \
        2>"$tmp/log"; then
    head -c 8 "$tmp/c.png" | od -An -c | grep -q 'P   N   G' || fail "c.png is not a PNG"
    [ "$(head -c 9 "$tmp/c.pfm" | tr '\n' ' ')" = "PF 40 30 " ] || fail "c.pfm header: $(head -c 9 "$tmp/c.pfm")"
    # 40*30 pixels * 3 floats + header: the whole image was written
    [ "$(wc -c <"$tmp/c.pfm")" -gt 14400 ] || fail "c.pfm too short"
    grep -q "done in" "$tmp/log" || fail "no summary line"
    grep -q "Mrays/s" "$tmp/log" || fail "no Mrays/s in the summary"
else
    fail "render of cornell.json failed: $(cat "$tmp/log")"
fi

# help and usage
"$rs" --help | grep -q "render SCENE" || fail "--help"
"$rs" render --help | grep -q -- "--deadray" || fail "render --help"
"$rs" help render | grep -q -- "--max-depth" || fail "help render"
"$rs" info | grep -q "raystream" || fail "info"
for c in render view; do # each option once, with the command's own meaning
    n=$("$rs" $c --help | grep -c -- '^  --spp ')
    [ "$n" -eq 1 ] || fail "$c --help lists --spp $n times"
done
"$rs" frobnicate 2>/dev/null; [ $? -eq 2 ] || fail "unknown command must exit 2"
"$rs" render "$scenes/cornell.json" --bogus 2>/dev/null; [ $? -eq 2 ] || fail "unknown option must exit 2"
"$rs" render "$scenes/cornell.json" --spp -3 2>"$tmp/e"; [ $? -eq 2 ] || fail "--spp -3 must exit 2"
grep -q "\-\-spp" "$tmp/e" || fail "--spp error does not name the option"
"$rs" render "$scenes/cornell.json" --deadray sideways 2>"$tmp/e"; [ $? -eq 2 ] || fail "bad --deadray must exit 2"
grep -q "compact-block" "$tmp/e" || fail "--deadray error does not list the strategies"

# an output that cannot be written fails at once, before rendering
start=$(date +%s)
"$rs" render "$scenes/cornell.json" -o "$tmp/no/such/dir/x.png" --spp 100000 2>"$tmp/e"
[ $? -eq 1 ] || fail "unwritable output must exit 1"
grep -q "cannot write '$tmp/no/such/dir/x.png'" "$tmp/e" || fail "unwritable output message: $(cat "$tmp/e")"
[ $(( $(date +%s) - start )) -lt 10 ] || fail "unwritable output was only reported after rendering"

# --backend cuda where there is no device (or no CUDA build)
if "$rs" info | grep -q "^CUDA device"; then
    echo "a CUDA device is present: skipping the no-device check"
else
    "$rs" render "$scenes/cornell.json" -o "$tmp/g.png" --backend cuda --spp 1 2>"$tmp/e"
    [ $? -eq 1 ] || fail "--backend cuda without a device must exit 1"
    grep -qi "cuda" "$tmp/e" || fail "--backend cuda message: $(cat "$tmp/e")"
fi

# an interrupted render writes its partial image and says how far it got
"$rs" render "$scenes/cornell.json" -o "$tmp/i.png" --spp 100000 --width 64 --height 64 --backend cpu \
    2>"$tmp/int" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "interrupted render exit status $status (expected 130)"
[ -s "$tmp/i.partial.png" ] || fail "no partial image after an interrupt"
grep -q "interrupted after" "$tmp/int" || fail "interrupt message: $(cat "$tmp/int")"
[ ! -e "$tmp/i.png" ] || fail "the final name must not hold a partial image"

# checkpoint and resume: bit-identical to a render that never stopped, also after an interrupt
small="--width 48 --height 36 --backend cpu --quiet"
"$rs" render "$scenes/mirrors.json" --spp 8 $small -o "$tmp/full.pfm" || fail "reference render for resume"
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/part.pfm" --checkpoint "$tmp/ck" || fail "checkpointed render"
"$rs" render "$scenes/mirrors.json" --spp 8 $small -o "$tmp/resumed.pfm" --resume "$tmp/ck" || fail "resume"
cmp -s "$tmp/full.pfm" "$tmp/resumed.pfm" || fail "a resumed render differs from an uninterrupted one"
"$rs" render "$scenes/mirrors.json" --spp 100000 --width 48 --height 36 --backend cpu -o "$tmp/int2.pfm" \
    --checkpoint "$tmp/ck2" --checkpoint-every 1 2>"$tmp/int2" &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
grep -q "continue with --resume" "$tmp/int2" || fail "no checkpoint on interrupt: $(cat "$tmp/int2")"
done_spp=$(sed -n 's/.*interrupted after \([0-9]*\) of.*/\1/p' "$tmp/int2")
if [ -n "$done_spp" ] && [ "$done_spp" -gt 0 ]; then
    target=$((done_spp + 2))
    "$rs" render "$scenes/mirrors.json" --spp $target $small -o "$tmp/straight.pfm" || fail "straight render"
    "$rs" render "$scenes/mirrors.json" --spp $target $small -o "$tmp/after.pfm" --resume "$tmp/ck2" || fail "resume after interrupt"
    cmp -s "$tmp/straight.pfm" "$tmp/after.pfm" || fail "resume after an interrupt at $done_spp spp differs"
else
    fail "could not read how far the interrupted render got: $(cat "$tmp/int2")"
fi
"$rs" render "$scenes/cornell.json" --spp 8 $small -o "$tmp/x.pfm" --resume "$tmp/ck" 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "different scene file" "$tmp/e" || fail "resume with another scene: $(cat "$tmp/e")"
"$rs" render "$scenes/mirrors.json" --spp 8 --width 40 --height 36 --backend cpu -o "$tmp/x.pfm" --resume "$tmp/ck" 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "made for a 48x36 image" "$tmp/e" || fail "resume at another size: $(cat "$tmp/e")"

# a memory cap traces the frame in many small waves and must not change a bit
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/uncapped.pfm" || fail "uncapped render"
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/capped.pfm" --max-memory 64K || fail "capped render"
cmp -s "$tmp/uncapped.pfm" "$tmp/capped.pfm" || fail "--max-memory 64K changed the image"
"$rs" render "$scenes/mirrors.json" --spp 1 $small -o "$tmp/tiny.pfm" --max-memory 1K 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "not enough memory for even one wave" "$tmp/e" || fail "1K cap: $(cat "$tmp/e")"

# several devices (CPU instances sharing the processors): the same image bit for bit, and a
# checkpoint written by three resumes on one and the other way round
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/three.pfm" --devices 0,1,2 || fail "render on 3 CPU devices"
cmp -s "$tmp/uncapped.pfm" "$tmp/three.pfm" || fail "--devices 0,1,2 changed the image"
"$rs" render "$scenes/mirrors.json" --spp 2 $small -o "$tmp/d3.pfm" --devices 0,1,2 --checkpoint "$tmp/d3.ck" ||
    fail "checkpointed render on 3 devices"
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/d1.pfm" --resume "$tmp/d3.ck" || fail "resume on 1 device"
cmp -s "$tmp/uncapped.pfm" "$tmp/d1.pfm" || fail "a checkpoint of 3 devices resumed on 1 differs"
"$rs" render "$scenes/mirrors.json" --spp 2 $small -o "$tmp/d1b.pfm" --checkpoint "$tmp/d1.ck" || fail "checkpoint on 1"
"$rs" render "$scenes/mirrors.json" --spp 3 $small -o "$tmp/d2.pfm" --devices 1,0 --resume "$tmp/d1.ck" ||
    fail "resume on 2 devices"
cmp -s "$tmp/uncapped.pfm" "$tmp/d2.pfm" || fail "a checkpoint of 1 device resumed on 2 differs"
for bad in "0,0" "0," "x" "-1" "99"; do
    "$rs" render "$scenes/mirrors.json" --spp 1 $small -o "$tmp/x.pfm" --devices "$bad" 2>"$tmp/e"
    [ $? -ne 0 ] && grep -q -- "--devices" "$tmp/e" || fail "--devices $bad: $(cat "$tmp/e")"
done

# absurd requests fail at once with a message
for bad in "--width 100000" "--height -5" "--spp 0" "--max-depth 0" "--max-memory 0" "--threads 0"; do
    "$rs" render "$scenes/cornell.json" $bad -o "$tmp/x.png" 2>"$tmp/e"
    [ $? -eq 2 ] && grep -q "expected" "$tmp/e" || fail "$bad: $(cat "$tmp/e")"
done

[ $failures -eq 0 ] && echo "test_cli: all checks passed"
exit $((failures != 0))
