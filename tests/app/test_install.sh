#!/bin/sh
# test_install.sh - `meson install` works (app suite): installed with --destdir into a temporary
# folder, the binary renders installed scenes (one with textures and an environment map, one
# with a mesh from share/raystream/assets, the glTF one) with nothing of the source tree in
# reach; the man page, README, docs and LICENSE are in their places, and the man page holds
# every command's help text as the installed binary prints it (it is generated from them).
#
#   test_install.sh MESON BUILD_DIR PREFIX BINDIR DATADIR MANDIR
meson=$1 build=$2 prefix=$3 bindir=$4 datadir=$5 mandir=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# meson install may print to stdout; the build is what the test runner has just built
"$meson" install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet > "$tmp/install.log" 2>&1 ||
    fail "meson install --destdir: $(tail -n 20 "$tmp/install.log")"
abs() { case "$1" in /*) echo "$tmp/root$1" ;; *) echo "$tmp/root$prefix/$1" ;; esac; }
bin=$(abs "$bindir")/raystream share=$(abs "$datadir") man=$(abs "$mandir")
[ -x "$bin" ] || fail "no executable $bin"
for f in raystream/scenes/cornell.json raystream/scenes/README.md raystream/scenes/scene.schema.json \
    raystream/scenes/textures/sky.hdr raystream/scenes/gltf/pyramid.gltf raystream/assets/torus_knot.ply \
    doc/raystream/README.md doc/raystream/LICENSE doc/raystream/docs/rendering.md; do
    [ -s "$share/$f" ] || fail "not installed: share/$f"
done
[ -s "$man/man1/raystream.1" ] || fail "no man page $man/man1/raystream.1"
grep -q "MIT License" "$share/doc/raystream/LICENSE" || fail "LICENSE is not the MIT licence"
# render from a folder far from the source tree, so that nothing resolves against it
cd "$tmp" || fail "cd"
for s in cornell materials reflect-23k gltf; do
    "$bin" render "$share/raystream/scenes/$s.json" --backend cpu --spp 1 --width 24 --height 16 -q \
        -o "$tmp/$s.png" 2> "$tmp/err.txt" || fail "the installed binary cannot render the installed $s.json: $(cat "$tmp/err.txt")"
    [ -s "$tmp/$s.png" ] || fail "no image from $s.json"
done
echo "the installed binary rendered the installed cornell, materials, reflect-23k and gltf scenes"
# the man page says what the help says: every command of --help, and each command's options
commands=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\).*/\1/p' | grep -v '^help$')
[ -n "$commands" ] || fail "raystream --help lists no commands"
text=$(sed 's/\\-/-/g; s/\\e/\\/g; s/\\&//g' "$man/man1/raystream.1")
for c in $commands; do
    opts=$("$bin" help "$c" | sed -n 's/^  \(--[a-z][a-z0-9-]*\).*/\1/p')
    for o in $opts; do
        printf '%s\n' "$text" | grep -q -- "$o" || fail "the man page lacks $o of '$c'"
    done
    printf '%s\n' "$text" | grep -qx ".SS $c" || fail "the man page has no section for the command $c"
done
echo "man page: every command ($(echo $commands | tr '\n' ' ')) with its options"
