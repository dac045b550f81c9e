#!/bin/sh
# test_render_safety.sh RAYSTREAM SCENES_DIR - a render is never lost or silently wrong
# (render suite). Checks, each against a real process:
#   - interrupts escalate: the second stops after the wave in flight and still saves and writes,
#     and resuming that mid-pass checkpoint is bit-identical to a render that never stopped; the
#     third quits at once;
#   - a file size limit (as a full disk) makes an image write an error with no file left behind,
#     and a failing checkpoint a warning that keeps the images;
#   - an unwritable --checkpoint fails before rendering; stale temporaries of dead processes are
#     removed, those of live ones kept;
#   - a damaged, truncated, edited or older-format checkpoint is refused, naming why; a mismatch
#     names the integrator;
#   - the mesh import child dies with its parent;
#   - --max-memory with tiny waves costs about what the uncapped render does.
set -u
rs=$1 scenes=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cornell=$scenes/cornell.json
big="--width 1024 --height 1024 --backend cpu"

# waits (up to 30 s) until file $1 contains $2
wait_for() {
    i=0
    while ! grep -q -- "$2" "$1" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}

# --- the second interrupt: stop after the wave, save a mid-pass checkpoint, resume exactly ---
"$rs" render "$cornell" --spp 50 $big --threads 1 --max-memory 4M -o "$tmp/s.pfm" --checkpoint "$tmp/s.ck" \
    2>"$tmp/s.log" &
pid=$!
wait_for "$tmp/s.log" "1024x1024"
sleep 0.3
kill -INT $pid
sleep 0.2
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "second interrupt: exit $status (expected 130): $(cat "$tmp/s.log")"
grep -q "stopping after the current wave" "$tmp/s.log" || fail "second interrupt not announced: $(cat "$tmp/s.log")"
grep -q "stopped in sample pass 1 of 50" "$tmp/s.log" || fail "not stopped inside the first pass: $(cat "$tmp/s.log")"
[ -s "$tmp/s.partial.pfm" ] || fail "no partial image after the second interrupt"
if [ -s "$tmp/s.ck" ]; then
    "$rs" render "$cornell" --spp 2 $big --quiet -o "$tmp/straight.pfm" || fail "straight render"
    "$rs" render "$cornell" --spp 2 $big --quiet -o "$tmp/resumed.pfm" --resume "$tmp/s.ck" || fail "resume"
    cmp -s "$tmp/straight.pfm" "$tmp/resumed.pfm" || fail "resuming a mid-pass checkpoint is not bit-identical"
else
    fail "no checkpoint after the second interrupt: $(cat "$tmp/s.log")"
fi

# --- the third interrupt quits without writing ---
"$rs" render "$cornell" --spp 50 $big --threads 1 -o "$tmp/q.pfm" 2>"$tmp/q.log" &
pid=$!
wait_for "$tmp/q.log" "1024x1024"
sleep 0.3
n=0
while kill -INT $pid 2>/dev/null && [ $n -lt 50 ]; do sleep 0.01; n=$((n + 1)); done
wait $pid
status=$?
[ $status -eq 130 ] || fail "third interrupt: exit $status (expected 130, killed by SIGINT)"
grep -q "quitting without writing anything" "$tmp/q.log" || fail "third interrupt: $(cat "$tmp/q.log")"
[ ! -e "$tmp/q.pfm" ] || fail "third interrupt: the final image name exists"

# --- a file size limit behaves like a full disk ---
small="--width 64 --height 64 --backend cpu --spp 2 --quiet"
(ulimit -f 64 && "$rs" render "$cornell" $small -o "$tmp/f.pfm" 2>"$tmp/f.log")
status=$?
[ $status -eq 1 ] || fail "image past the size limit: exit $status (expected 1)"
grep -q "cannot write '$tmp/f.pfm': File too large" "$tmp/f.log" || fail "size limit message: $(cat "$tmp/f.log")"
ls "$tmp" | grep -q "^f\.pfm" && fail "a file was left behind: $(ls "$tmp" | grep '^f\.pfm')"
(ulimit -f 64 && "$rs" render "$cornell" $small -o "$tmp/k.png" --checkpoint "$tmp/k.ck" 2>"$tmp/k.log")
status=$?
[ $status -eq 0 ] || fail "a failing checkpoint must not fail the render: exit $status: $(cat "$tmp/k.log")"
grep -q "warning: cannot write '$tmp/k.ck': File too large" "$tmp/k.log" || fail "checkpoint warning: $(cat "$tmp/k.log")"
[ -s "$tmp/k.png" ] || fail "the image was not written after a failed checkpoint"
ls "$tmp" | grep -q "^k\.ck" && fail "a checkpoint file was left behind: $(ls "$tmp" | grep '^k\.ck')"

# --- destinations are checked first; stale temporaries cleaned ---
start=$(date +%s)
"$rs" render "$cornell" --spp 100000 -o "$tmp/u.png" --checkpoint "$tmp/no/such/dir/u.ck" 2>"$tmp/u.log"
[ $? -eq 1 ] || fail "unwritable checkpoint must exit 1"
grep -q "cannot write '$tmp/no/such/dir/u.ck'" "$tmp/u.log" || fail "unwritable checkpoint: $(cat "$tmp/u.log")"
[ $(($(date +%s) - start)) -lt 10 ] || fail "the unwritable checkpoint was only reported after rendering"
dead=$(sh -c 'echo $$')
touch "$tmp/c.ck.tmp-$dead" "$tmp/c.png.tmp-$dead" "$tmp/c.ck.tmp-$$"
"$rs" render "$cornell" $small -o "$tmp/c.png" --checkpoint "$tmp/c.ck" || fail "render with checkpoint"
[ ! -e "$tmp/c.ck.tmp-$dead" ] && [ ! -e "$tmp/c.png.tmp-$dead" ] || fail "stale temporaries were not removed"
[ -e "$tmp/c.ck.tmp-$$" ] || fail "the temporary of a live process was removed"

# --- checkpoints that must not be resumed ---
for case in film paths_done truncated format; do
    cp "$tmp/c.ck" "$tmp/bad.ck"
    case $case in
    film) printf '\377' | dd of="$tmp/bad.ck" bs=1 seek=1000 conv=notrunc 2>/dev/null; want="checksum mismatch" ;;
    paths_done) printf '\001' | dd of="$tmp/bad.ck" bs=1 seek=25 conv=notrunc 2>/dev/null; want="checksum mismatch" ;;
    truncated) dd if="$tmp/c.ck" of="$tmp/bad.ck" bs=1000 count=20 2>/dev/null; want="truncated or corrupt" ;;
    format) printf '\001' | dd of="$tmp/bad.ck" bs=1 seek=8 conv=notrunc 2>/dev/null; want="checkpoint of format 1" ;;
    esac
    "$rs" render "$cornell" $small --spp 4 -o "$tmp/r.png" --resume "$tmp/bad.ck" 2>"$tmp/r.log"
    [ $? -eq 1 ] && grep -q "$want" "$tmp/r.log" || fail "$case: $(cat "$tmp/r.log")"
done
"$rs" render "$cornell" $small --spp 4 -o "$tmp/r.png" --resume "$tmp/c.ck" --integrator whitted 2>"$tmp/r.log"
[ $? -eq 1 ] && grep -q "made with integrator path; this render uses whitted" \
    "$tmp/r.log" || fail "integrator mismatch message: $(cat "$tmp/r.log")"
mkfifo "$tmp/fifo.ck"
timeout 20 "$rs" render "$cornell" $small --spp 4 -o "$tmp/r.png" --resume "$tmp/fifo.ck" 2>"$tmp/r.log"
[ $? -eq 1 ] && grep -q "not a regular file" "$tmp/r.log" || fail "resume from a FIFO: $(cat "$tmp/r.log")"

# --- the import child dies with its parent ---
python3 - "$tmp/big.obj" <<'EOF'
import sys
n = 300000
with open(sys.argv[1], "w") as f:
    f.write("".join(f"v {i % 600} {i // 600} 0\nv {i % 600 + 1} {i // 600} 0\nv {i % 600} {i // 600 + 1} 0\n"
                    for i in range(n)))
    f.write("".join(f"f {3 * i + 1} {3 * i + 2} {3 * i + 3}\n" for i in range(n)))
EOF
cat >"$tmp/big.json" <<'EOF'
{"version": 1, "camera": {"eye": [300, 250, -800], "look_at": [300, 250, 0]},
 "materials": [{"name": "w", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]}],
 "shapes": [{"type": "mesh", "file": "big.obj", "material": "w"}]}
EOF
# pgrep scans /proc in one process; the awk loop (one process per entry) is the fallback, too slow
# on a loaded machine to catch a short-lived child
children_of() {
    if command -v pgrep >/dev/null 2>&1; then
        pgrep -P "$1"
    else
        for s in /proc/[0-9]*/stat; do awk -v p="$1" '$4 == p { print $1 }' "$s" 2>/dev/null; done
    fi
}
"$rs" render "$tmp/big.json" -o "$tmp/b.png" --backend cpu 2>/dev/null &
pid=$!
child=""
i=0
while [ -z "$child" ] && [ $i -lt 200 ]; do child=$(children_of $pid); sleep 0.01; i=$((i + 1)); done
if [ -n "$child" ]; then
    kill -KILL $pid
    wait $pid 2>/dev/null
    sleep 0.3
    state=$(awk '{ print $3 }' /proc/$child/stat 2>/dev/null)
    [ -z "$state" ] || [ "$state" = Z ] || fail "the import child $child runs on (state $state) after its parent died"
else
    fail "no import child seen"
    wait $pid
fi

# --- tiny waves: work proportional to the wave, not the image (6K: waves of 32 paths at auto's bytes per path) ---
t0=$(date +%s%N)
"$rs" render "$cornell" --spp 2 --width 256 --height 256 --backend cpu --quiet -o "$tmp/w1.pfm" || fail "uncapped"
t1=$(date +%s%N)
"$rs" render "$cornell" --spp 2 --width 256 --height 256 --backend cpu --quiet -o "$tmp/w2.pfm" --max-memory 6K ||
    fail "capped"
t2=$(date +%s%N)
cmp -s "$tmp/w1.pfm" "$tmp/w2.pfm" || fail "--max-memory 6K changed the image"
uncapped=$(((t1 - t0) / 1000000)) capped=$(((t2 - t1) / 1000000))
echo "256x256 2 spp: uncapped $uncapped ms, --max-memory 6K $capped ms"
[ $capped -lt $((5 * uncapped + 1000)) ] || fail "--max-memory 6K: $capped ms against $uncapped ms uncapped"

[ $failures -eq 0 ] && echo "test_render_safety: all checks passed"
exit $((failures != 0))
