#!/bin/sh
# test_signals.sh RAYSTREAM SCENES_DIR - no signal a user, a terminal, a pipe or a batch system
# sends throws a render away (app suite; issue 24, kind 3). Against real processes, on tiny
# CPU renders that would take minutes:
#   - SIGHUP, SIGQUIT, SIGTERM, SIGINT, SIGXCPU: the pass in flight is finished, the partial
#     image and the checkpoint are written and valid, exit 130;
#   - three SIGHUPs (a closing terminal sends more than one) count once: still written; under
#     nohup (SIGHUP ignored from the start) a hang-up changes nothing;
#   - SIGUSR1 and SIGUSR2 save the checkpoint and the render goes on to a complete image (exit
#     0); without --checkpoint a note says there is nowhere to save;
#   - a progress pipe whose reader went away (`render ... 2>&1 | head -1`): exit 0, the image;
#   - SIGUSR1 and SIGUSR2 from the moment main() runs, before the trace too, end nothing;
#   - view (headless, and in a window when SDL's dummy driver works): a stop signal quits after
#     the frame, still writing --screenshot and --state, exit 130; SIGUSR1 saves a screenshot as
#     P does;
#   - bench: a stop signal ends the run after the row in flight (every strategy of a depth) and writes the CSV
#     and the JSON with every row measured, exit 130.
set -u
rs=$(realpath "$1") scenes=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$tmp" || exit 1
cornell=$scenes/cornell.json
tiny="--width 16 --height 16 --max-depth 2 --backend cpu --threads 1"

# waits (up to 30 s) until file $1 contains $2
wait_for() {
    i=0
    while ! grep -q -- "$2" "$1" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# until process $1 catches the signals of mask $2 (/proc's SigCgt; SIGINT is 0x2, SIGUSR1 0x200):
# a background job starts with SIGINT and SIGQUIT ignored, so one sent too early would be lost
wait_caught() {
    i=0
    while [ $i -lt 500 ]; do
        cgt=$(awk '/^SigCgt/ { print $2 }' /proc/$1/status 2>/dev/null)
        [ -n "$cgt" ] && [ $((0x$cgt & $2)) -eq $(($2)) ] && break
        sleep 0.01
        i=$((i + 1))
    done
}
# a render that would take minutes, started in the background: $pid; waits until it traces
start_render() {
    log=$1
    shift
    "$rs" render "$cornell" $tiny --spp 1000000 "$@" 2>"$log" &
    pid=$!
    wait_for "$log" "16x16"
    wait_caught $pid 0x2
    sleep 0.2
}
# until process $1's main() has run: SIGUSR1 (signal 10, bit 0x200) is ignored or caught
wait_main() {
    i=0
    while [ $i -lt 500 ]; do
        ign=$(awk '/^SigIgn/ { print $2 }' /proc/$1/status 2>/dev/null)
        cgt=$(awk '/^SigCgt/ { print $2 }' /proc/$1/status 2>/dev/null)
        [ -n "$ign" ] && [ -n "$cgt" ] && [ $(((0x$ign | 0x$cgt) & 0x200)) -ne 0 ] && break
        sleep 0.01
        i=$((i + 1))
    done
}
# valid_pfm FILE: the header and the size of a 16x16 colour PFM
valid_pfm() {
    [ "$(head -c 14 "$1" 2>/dev/null | tr '\n' ' ')" = "PF 16 16 -1.0 " ] && [ "$(wc -c <"$1")" -eq $((14 + 16 * 16 * 12)) ]
}
# valid_checkpoint FILE: it loads (format, checksum, the scene's fingerprint) and holds samples:
# resuming it to 1 spp is refused only because it holds more
valid_checkpoint() {
    "$rs" render "$cornell" $tiny --quiet --spp 1 --resume "$1" -o resumed.pfm 2>resume.log
    grep -q "samples per pixel, more than the 1 asked for" resume.log
}

# --- every stop signal: finish the pass, write the partial image and the checkpoint, exit 130 ---
for sig in HUP QUIT TERM INT XCPU; do
    rm -f s.* s-*
    start_render s.log -o s.pfm --checkpoint s.ck
    kill -$sig $pid
    wait $pid
    status=$?
    [ $status -eq 130 ] || fail "SIG$sig: exit $status (expected 130): $(cat s.log)"
    grep -q "interrupted: finishing this sample pass" s.log || fail "SIG$sig not announced: $(cat s.log)"
    grep -q "interrupted after [0-9]* of 1000000 samples per pixel" s.log || fail "SIG$sig: not at a pass: $(cat s.log)"
    valid_pfm s.partial.pfm || fail "SIG$sig: no valid partial image: $(cat s.log)"
    valid_checkpoint s.ck || fail "SIG$sig: no valid checkpoint: $(cat s.log) $(cat resume.log)"
    [ ! -e s.pfm ] || fail "SIG$sig: the final image name was written"
done

# --- a hang-up sends SIGHUP more than once: it still counts as one ---
rm -f s.*
start_render s.log -o s.pfm --checkpoint s.ck
kill -HUP $pid
kill -HUP $pid
kill -HUP $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "three SIGHUPs: exit $status (expected 130): $(cat s.log)"
valid_pfm s.partial.pfm && valid_checkpoint s.ck || fail "three SIGHUPs lost the render: $(cat s.log)"

# --- under nohup (SIGHUP ignored from the start) a hang-up changes nothing ---
rm -f h.pfm
(
    trap '' HUP
    exec "$rs" render "$cornell" $tiny --spp 4000 -o h.pfm 2>h.log
) &
pid=$!
wait_for h.log "16x16"
kill -HUP $pid
wait $pid
status=$?
[ $status -eq 0 ] && valid_pfm h.pfm || fail "SIGHUP under nohup: exit $status: $(cat h.log)"

# --- SIGUSR1 and SIGUSR2: save the checkpoint, go on to the end ---
rm -f u.*
"$rs" render "$cornell" $tiny --spp 6000 -o u.pfm --checkpoint u.ck 2>u.log &
pid=$!
wait_for u.log "16x16"
wait_caught $pid 0x200
kill -USR1 $pid
wait_for u.log "saved u.ck (SIGUSR1); the render goes on"
if kill -0 $pid 2>/dev/null; then
    valid_checkpoint u.ck || fail "SIGUSR1: the checkpoint saved mid-render is not valid: $(cat resume.log)"
fi
kill -USR2 $pid 2>/dev/null
wait $pid
status=$?
[ $status -eq 0 ] || fail "SIGUSR1: exit $status (expected 0, the render goes on): $(cat u.log)"
grep -q "saved u.ck (SIGUSR1); the render goes on" u.log || fail "SIGUSR1: no checkpoint saved: $(cat u.log)"
grep -q "done in" u.log && valid_pfm u.pfm || fail "SIGUSR1: the render did not finish: $(cat u.log)"
[ ! -e u.partial.pfm ] || fail "SIGUSR1: a partial image was written"
"$rs" render "$cornell" $tiny --spp 6000 -o n.pfm 2>n.log &
pid=$!
wait_for n.log "16x16"
wait_caught $pid 0x200
kill -USR1 $pid
wait $pid
status=$?
[ $status -eq 0 ] && valid_pfm n.pfm || fail "SIGUSR1 without --checkpoint: exit $status: $(cat n.log)"
grep -q "asked to save (SIGUSR1): there is no --checkpoint to save to; the render goes on" n.log ||
    fail "SIGUSR1 without --checkpoint: $(cat n.log)"

# --- a progress pipe whose reader went away only silences the messages ---
rm -f p.pfm
{
    "$rs" render "$cornell" $tiny --spp 3000 -o p.pfm
    echo $? >p.status
} 2>&1 | head -1 >p.first
[ "$(cat p.status)" = 0 ] || fail "render into a closed pipe: exit $(cat p.status)"
valid_pfm p.pfm || fail "render into a closed pipe: no image"
grep -q "16x16" p.first || fail "the pipe's reader did not get the first line: $(cat p.first)"

# --- SIGUSR1 as soon as main() runs, while the scene loads, ends nothing ---
"$rs" render "$scenes/reflect-23k.json" $tiny --spp 200 -o early.pfm --quiet 2>early.log &
pid=$!
wait_main $pid
kill -USR1 $pid
kill -USR2 $pid
wait $pid
status=$?
[ $status -eq 0 ] && valid_pfm early.pfm || fail "SIGUSR1 while loading: exit $status: $(cat early.log)"

# --- view: a stop signal quits like Esc (outputs still written, exit 130); SIGUSR1 = P ---
"$rs" view "$cornell" --headless --frames 1000000 $tiny --screenshot v.png --state v.json >v.out 2>v.log &
pid=$!
wait_main $pid
i=0 # SIGUSR1 is ignored until the viewer runs: ask until it answers
while [ $i -lt 100 ] && ! grep -q "saved raystream-0001.png" v.out 2>/dev/null; do
    kill -USR1 $pid 2>/dev/null
    sleep 0.2
    i=$((i + 1))
done
kill -HUP $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "view, SIGHUP: exit $status (expected 130): $(cat v.log)"
[ -s v.png ] && [ -s v.json ] || fail "view, SIGHUP: --screenshot or --state not written: $(cat v.log)"
grep -q "saved raystream-0001.png and raystream-0001.hdr" v.out && [ -s raystream-0001.png ] ||
    fail "view, SIGUSR1: no screenshot: $(cat v.out)"

# --- the same in a window (SDL's dummy driver), where SDL's own handlers must not take over ---
if SDL_VIDEODRIVER=dummy "$rs" view "$cornell" --frames 1 $tiny >/dev/null 2>&1; then
    rm -f w.png w.json
    SDL_VIDEODRIVER=dummy "$rs" view "$cornell" --frames 1000000 $tiny --screenshot w.png --state w.json \
        >w.out 2>w.log &
    pid=$!
    wait_caught $pid 0x2 # SIGINT: the viewer's handlers are in, not SDL's
    sleep 0.2
    kill -INT $pid
    wait $pid
    status=$?
    [ $status -eq 130 ] && [ -s w.png ] && [ -s w.json ] || fail "windowed view, SIGINT: exit $status: $(cat w.log)"
fi

# --- bench: stops after the row in flight and writes its results ---
"$rs" bench --scenes "$cornell" --depths 1..8 --frames 200 --warmup 0 --width 16 --height 16 --backend cpu \
    --threads 1 --csv b.csv --json b.json >b.out 2>b.log &
pid=$!
wait_for b.log "depth 1 on"
kill -TERM $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "bench, SIGTERM: exit $status (expected 130): $(cat b.log)"
rows=$(($(wc -l <b.csv) - 1))
[ $rows -ge 1 ] || fail "bench, SIGTERM: $rows CSV rows: $(cat b.log)"
python3 -c "import json,sys; r=json.load(open('b.json'))['results']; sys.exit(0 if len(r) == $rows else 1)" ||
    fail "bench, SIGTERM: the JSON does not hold the $rows rows"
ls | grep -q "tmp-" && fail "temporaries left behind: $(ls | grep tmp-)"

[ $failures -eq 0 ] && echo "test_signals: all checks passed"
exit $((failures != 0))
