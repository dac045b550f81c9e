#!/bin/sh
# test_mpi.sh RAYSTREAM SCENES_DIR - `mpirun -np N raystream render` (render suite, when built
# with MPI): the ranks' image equals one process's bit for bit (2 and 3 ranks: an uneven
# split); a checkpoint written by 3 ranks resumes on 2 and on one process; a rank that fails
# ends the job at once with a message naming it; a rank killed by a signal ends the job within
# seconds; SIGINT to rank 0 writes the partial image with every rank's samples; so does SIGINT or
# SIGHUP to rank 1, and SIGINT to rank 0 after it finished its share while rank 1 still traces;
# SIGUSR1 says that under mpirun the checkpoint is saved at the end and on an interrupt only;
# ranks that would render different images (another seed, another copy of the scene) are
# refused before rendering, each naming itself and what differs; --time-limit ends every rank
# at rank 0's clock and writes the image as a finished render.
rs=$1 scenes=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# OpenMPI refuses to start as root unless told (CI containers run as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi="timeout 120 mpirun --oversubscribe"
small="--width 48 --height 36 --backend cpu --threads 1 --quiet"
scene=$scenes/mirrors.json

"$rs" render "$scene" --spp 4 $small -o "$tmp/one.pfm" || fail "one process"
for n in 2 3; do
    $mpi -np $n "$rs" render "$scene" --spp 4 $small -o "$tmp/n$n.pfm" 2>"$tmp/e" || fail "$n ranks: $(cat "$tmp/e")"
    cmp -s "$tmp/one.pfm" "$tmp/n$n.pfm" || fail "$n ranks give a different image"
done

# checkpoints hold the whole film: 3 ranks -> 2 ranks, and 3 ranks -> one process
$mpi -np 3 "$rs" render "$scene" --spp 2 $small -o "$tmp/c.pfm" --checkpoint "$tmp/c.ck" 2>"$tmp/e" ||
    fail "checkpointed render on 3 ranks: $(cat "$tmp/e")"
$mpi -np 2 "$rs" render "$scene" --spp 4 $small -o "$tmp/r2.pfm" --resume "$tmp/c.ck" 2>"$tmp/e" ||
    fail "resume on 2 ranks: $(cat "$tmp/e")"
cmp -s "$tmp/one.pfm" "$tmp/r2.pfm" || fail "3 ranks' checkpoint resumed on 2 differs"
"$rs" render "$scene" --spp 4 $small -o "$tmp/r1.pfm" --resume "$tmp/c.ck" || fail "resume in one process"
cmp -s "$tmp/one.pfm" "$tmp/r1.pfm" || fail "3 ranks' checkpoint resumed in one process differs"

# a rank that fails (rank 1 gets a memory cap too small for one wave) ends the job with its name
start=$(date +%s)
$mpi -np 2 sh -c 'extra=""; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && extra="--max-memory 1K"
    exec "$0" render "$1" --spp 100000 --width 48 --height 36 --backend cpu --threads 1 -o "$2" $extra' \
    "$rs" "$scene" "$tmp/f.pfm" >"$tmp/f.log" 2>&1
status=$?
took=$(($(date +%s) - start))
[ $status -ne 0 ] && [ $status -ne 124 ] || fail "a failing rank: exit $status: $(cat "$tmp/f.log")"
grep -q "rank 1 of 2: not enough memory" "$tmp/f.log" || fail "the failing rank is not named: $(cat "$tmp/f.log")"
[ $took -le 20 ] || fail "a failing rank took $took s to end the job"

# every pixel of a checkpoint's film has samples: every rank's spans are in it. The film is the
# file's end (1 to 8 planes of 48x36 RsFloat4 after a header of less than one plane), so this
# reads it whatever the header holds.
every_rank_in() {
    python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
plane = 48 * 36 * 16
planes = (len(data) - 1) // plane
start = len(data) - planes * plane
film = struct.unpack_from(f"<{48 * 36 * 4}f", data, start)
counts = film[3::4]
print("pixel sample counts from", min(counts), "to", max(counts), file=sys.stderr)
sys.exit(0 if min(counts) >= 1 and all(c == int(c) for c in counts) else 1)
PY
}

# ranks that disagree on what to render: refused before rendering, naming the rank and the setting
$mpi -np 3 sh -c 'extra=""; [ "$OMPI_COMM_WORLD_RANK" = 2 ] && extra="--seed 5"
    exec "$0" render "$1" --spp 4 --width 48 --height 36 --backend cpu --threads 1 --quiet -o "$2" $extra' \
    "$rs" "$scene" "$tmp/s.pfm" >"$tmp/s.log" 2>&1
[ $? -ne 0 ] && grep -q "rank 2 of 3: rank 0 uses seed 0; this rank uses 5" "$tmp/s.log" ||
    fail "a rank with another seed: $(cat "$tmp/s.log")"
[ ! -e "$tmp/s.pfm" ] || fail "a job whose ranks disagree wrote an image"
cp "$scene" "$tmp/stale.json"
echo " " >>"$tmp/stale.json" # another copy: the same scene in other bytes, as a stale copy on a host
$mpi -np 2 sh -c 's="$1"; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && s="$3"
    exec "$0" render "$s" --spp 4 --width 48 --height 36 --backend cpu --threads 1 --quiet -o "$2"' \
    "$rs" "$scene" "$tmp/s.pfm" "$tmp/stale.json" >"$tmp/s.log" 2>&1
[ $? -ne 0 ] && grep -q "rank 1 of 2: rank 0 uses a different scene file" "$tmp/s.log" ||
    fail "a rank with another scene copy: $(cat "$tmp/s.log")"

# --time-limit: rank 0's clock stops every rank; the image is written as a finished render's
$mpi -np 2 "$rs" render "$scene" --spp 1000000 --width 48 --height 36 --backend cpu --threads 1 --max-memory 64K \
    --time-limit 1 -o "$tmp/t.pfm" --checkpoint "$tmp/t.ck" >"$tmp/t.log" 2>&1
status=$?
[ $status -eq 0 ] && [ -s "$tmp/t.pfm" ] && [ ! -e "$tmp/t.partial.pfm" ] &&
    grep -q "stopped at the time limit of 1 s" "$tmp/t.log" || fail "--time-limit on 2 ranks: exit $status: $(cat "$tmp/t.log")"

# start a long render on 2 ranks, each writing its pid, and wait until both run (small waves:
# every span has samples by then, so the partial image shows whether a rank's part is missing)
long() {
    rm -f "$tmp"/pid.*
    $mpi -np 2 sh -c 'echo $$ > "$3/pid.$OMPI_COMM_WORLD_RANK"
        exec "$0" render "$1" --spp 100000 --width 48 --height 36 --backend cpu --threads 1 -o "$2" \
            --checkpoint "$2.ck" --max-memory 64K' "$rs" "$scene" "$1" "$tmp" >"$tmp/l.log" 2>&1 &
    job=$!
    i=0
    while { [ ! -s "$tmp/pid.0" ] || [ ! -s "$tmp/pid.1" ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 1.5
}

# a rank killed by a signal: the job ends, non-zero, within seconds
long "$tmp/k.pfm"
start=$(date +%s)
kill -KILL "$(cat "$tmp/pid.1")"
wait $job
status=$?
took=$(($(date +%s) - start))
[ $status -ne 0 ] && [ $status -ne 124 ] || fail "a killed rank: exit $status"
[ $took -le 15 ] || fail "a killed rank left the job running for $took s"

# SIGINT to rank 0: every rank stops at its pass, rank 0 writes the partial image and checkpoint
long "$tmp/i.pfm"
kill -INT "$(cat "$tmp/pid.0")"
wait $job
status=$?
[ $status -eq 130 ] || fail "SIGINT on rank 0: exit $status (expected 130): $(cat "$tmp/l.log")"
[ -s "$tmp/i.partial.pfm" ] || fail "SIGINT on rank 0: no partial image: $(cat "$tmp/l.log")"
every_rank_in "$tmp/i.pfm.ck" || fail "SIGINT on rank 0: the checkpoint lacks a rank's samples"

# SIGINT to a rank other than 0 stops the whole job like SIGINT to rank 0 (it asks rank 0)
long "$tmp/j.pfm"
kill -INT "$(cat "$tmp/pid.1")"
wait $job
status=$?
[ $status -eq 130 ] || fail "SIGINT on rank 1: exit $status (expected 130): $(cat "$tmp/l.log")"
grep -q "another rank was interrupted" "$tmp/l.log" || fail "SIGINT on rank 1: not announced: $(cat "$tmp/l.log")"
[ -s "$tmp/j.partial.pfm" ] || fail "SIGINT on rank 1: no partial image: $(cat "$tmp/l.log")"
every_rank_in "$tmp/j.pfm.ck" || fail "SIGINT on rank 1: the checkpoint lacks a rank's samples"

# SIGUSR1 under mpirun: a note (the checkpoint is gathered only at the end); SIGHUP to rank 1
# then acts as SIGINT does
long "$tmp/h.pfm"
kill -USR1 "$(cat "$tmp/pid.0")"
i=0
while ! grep -q "asked to save (SIGUSR1): under mpirun" "$tmp/l.log" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -HUP "$(cat "$tmp/pid.1")"
wait $job
status=$?
[ $status -eq 130 ] || fail "SIGHUP on rank 1: exit $status (expected 130): $(cat "$tmp/l.log")"
grep -q "asked to save (SIGUSR1): under mpirun" "$tmp/l.log" || fail "SIGUSR1 under mpirun: $(cat "$tmp/l.log")"
[ -s "$tmp/h.partial.pfm" ] && every_rank_in "$tmp/h.pfm.ck" || fail "SIGHUP on rank 1: $(cat "$tmp/l.log")"

# rank 0 done with its share while rank 1 (stopped here) still has work: SIGINT to rank 0 must
# still reach rank 1, not wait for it to finish in the gather
rm -f "$tmp"/pid.* "$tmp"/e.*
$mpi -np 2 sh -c 'echo $$ > "$3/pid.$OMPI_COMM_WORLD_RANK"
    exec "$0" render "$1" --spp 600 --width 48 --height 36 --backend cpu --threads 1 -o "$2" \
        --checkpoint "$2.ck" --max-memory 64K' "$rs" "$scene" "$tmp/e.pfm" "$tmp" >"$tmp/l.log" 2>&1 &
job=$!
i=0
while { [ ! -s "$tmp/pid.0" ] || [ ! -s "$tmp/pid.1" ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -STOP "$(cat "$tmp/pid.1")"
sleep 4 # rank 0 alone finishes its 600 spp (on a slow machine it is interrupted sooner: the same result)
kill -INT "$(cat "$tmp/pid.0")"
sleep 0.3
kill -CONT "$(cat "$tmp/pid.1")"
wait $job
status=$?
[ $status -eq 130 ] || fail "SIGINT on rank 0 after its share: exit $status (expected 130): $(cat "$tmp/l.log")"
[ -s "$tmp/e.partial.pfm" ] && [ ! -e "$tmp/e.pfm" ] || fail "SIGINT on rank 0 after its share: $(cat "$tmp/l.log")"
every_rank_in "$tmp/e.pfm.ck" || fail "SIGINT on rank 0 after its share: the checkpoint lacks rank 1's samples"

[ $failures -eq 0 ] && echo "test_mpi: all checks passed"
exit $((failures != 0))
