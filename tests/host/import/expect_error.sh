#!/bin/sh
# expect_error.sh RAYSTREAM SCENE EXPECTED [ARGS...]
# Bad-input test: `raystream render SCENE` must exit with status 1 (not crash, not hang), print
# a message that contains EXPECTED and names the scene file, and write no image.
set -u
raystream=$1 scene=$2 expected=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeout 60 "$raystream" render "$scene" -o "$tmp/out.png" --quiet "$@" 2>"$tmp/stderr"
status=$?
fail=0
if [ "$status" -ne 1 ]; then
    echo "expected exit status 1, got $status"
    fail=1
fi
if ! grep -qF -- "$expected" "$tmp/stderr"; then
    echo "message does not contain: $expected"
    fail=1
fi
if ! grep -qF -- "$(basename "$scene")" "$tmp/stderr"; then
    echo "message does not name the file $(basename "$scene")"
    fail=1
fi
if ls "$tmp" | grep -q '\.png'; then
    echo "an image was written for a bad scene"
    fail=1
fi
echo "stderr was:"
cat "$tmp/stderr"
exit $fail
