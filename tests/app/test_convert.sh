#!/bin/sh
# test_convert.sh - `raystream convert` (app suite): every shipped scene, the reference test's
# scenes and tests/data/convert/features.json (every material type, textures in every role,
# clamped wrap, a cut-out, anisotropic and textured roughness, an emission texture, a thin lens,
# point and spot lights, meshes with transforms and their own glTF materials, and the version 2
# keys: checkerboards as a colour, a conductor's colour, a thin dielectric's tint and an emission,
# a directional light, texture transforms, mask and blend alpha modes with cutoff and opacity;
# scenes/features.json adds an orthographic camera) are converted to
# JSON in a folder elsewhere, and the original and the converted scene render the same image on
# the CPU, byte for byte (.pfm, 32x32, 4 spp). A converted scene converts again to the same
# meshes. Bad cases: the output is the input, a side file would replace a file the scene
# reads, the folder is missing, the output is not .json; each is refused with a message naming
# the problem, and nothing is written. Every version 2 key the feature scenes use must be in
# the converted JSON.
#
#   test_convert.sh RAYSTREAM SOURCE_ROOT
raystream=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
render() { "$raystream" render "$1" --backend cpu --width 32 --height 32 --spp 4 -q -o "$2" 2> "$tmp/err.txt" ||
    fail "render $1: $(cat "$tmp/err.txt")"; }
mkdir "$tmp/out" "$tmp/again"
count=0
for scene in "$root"/scenes/*.json "$root"/tests/data/reference/*.json "$root"/tests/data/convert/features.json; do
    case $scene in *.schema.json) continue ;; esac
    name=$(basename "$scene" .json)
    case $scene in */scenes/features.json) name=scenes-features ;; esac # tests/data/convert has one too
    "$raystream" convert "$scene" -o "$tmp/out/$name.json" -q 2> "$tmp/err.txt" ||
        fail "convert $scene: $(cat "$tmp/err.txt")"
    grep -q '"version":[[:space:]]*2' "$tmp/out/$name.json" || fail "$name: not format version 2"
    render "$scene" "$tmp/$name.a.pfm"
    render "$tmp/out/$name.json" "$tmp/$name.b.pfm"
    cmp -s "$tmp/$name.a.pfm" "$tmp/$name.b.pfm" || fail "$name: the converted scene renders another image"
    count=$((count + 1))
done
echo "$count scenes converted; each renders the same image, byte for byte"
# converted again: the same meshes (the geometry survives the trip exactly)
"$raystream" convert "$tmp/out/features.json" -o "$tmp/again/features.json" -q || fail "converting a converted scene"
n=0
for f in "$tmp"/out/features.mesh-*.ply; do
    cmp -s "$f" "$tmp/again/$(basename "$f")" || fail "$(basename "$f") differs after a second conversion"
    n=$((n + 1))
done
[ "$n" -gt 3 ] || fail "features.json gave only $n mesh files"
grep -q '"texture":[[:space:]]*"[^"]*scenes/textures/checker.png"' "$tmp/out/features.json" ||
    fail "a texture the scene read is not cited by its path"
grep -q '"wrap":[[:space:]]*"clamp"' "$tmp/out/features.json" || fail "the clamped texture lost its wrap"
# every version 2 key the two feature scenes use is written (not only rendered alike)
for key in '"checkerboard"' '"type":[[:space:]]*"directional"' '"uv_transform"' '"alpha_mode":[[:space:]]*"blend"' \
    '"alpha_cutoff"' '"opacity"' '"type":[[:space:]]*"thin_dielectric"' '"scale":[[:space:]]*\[3, 3, 3\]'; do
    grep -q "$key" "$tmp/out/features.json" || fail "tests/data/convert/features.json converted without $key"
done
grep -q '"projection":[[:space:]]*"orthographic"' "$tmp/out/scenes-features.json" &&
    grep -q '"ortho_height"' "$tmp/out/scenes-features.json" ||
    fail "scenes/features.json converted without its orthographic camera"
ls "$tmp"/out/gltf.texture-*.png > /dev/null 2>&1 || fail "glTF's roughness (green channel) was not written as an image"
echo "a converted scene converts to the same meshes; textures are cited, a re-channelled one written"
# bad cases: nothing may be written
expect_refusal() { # what, expected message part, command...
    what=$1 message=$2
    shift 2
    before=$(ls -R "$tmp/bad" 2> /dev/null | cksum)
    if "$@" 2> "$tmp/err.txt"; then fail "$what was accepted"; fi
    grep -q -- "$message" "$tmp/err.txt" || fail "$what: unclear message: $(cat "$tmp/err.txt")"
    [ "$(ls -R "$tmp/bad" 2> /dev/null | cksum)" = "$before" ] || fail "$what: files were written"
}
mkdir "$tmp/bad"
cp "$root/scenes/cornell.json" "$tmp/bad/scene.json"
expect_refusal "the output as the input" "scene" "$raystream" convert "$tmp/bad/scene.json" -o "$tmp/bad/scene.json"
cmp -s "$tmp/bad/scene.json" "$root/scenes/cornell.json" || fail "the input was changed"
# a mesh the scene reads, named as convert would name its first mesh file
cp "$root/assets/torus_knot.ply" "$tmp/bad/out.mesh-0.ply"
sed 's|"\.\./assets/torus_knot\.ply"|"out.mesh-0.ply"|' "$root/scenes/reflect-23k.json" > "$tmp/bad/knot.json"
expect_refusal "a side file over a file the scene reads" "out.mesh-0.ply" \
    "$raystream" convert "$tmp/bad/knot.json" -o "$tmp/bad/out.json"
cmp -s "$tmp/bad/out.mesh-0.ply" "$root/assets/torus_knot.ply" || fail "the scene's mesh was changed"
expect_refusal "a missing folder" "does not exist\|No such file" \
    "$raystream" convert "$tmp/bad/scene.json" -o "$tmp/bad/missing/x.json"
expect_refusal "a folder that is a file" "x.json" \
    "$raystream" convert "$tmp/bad/scene.json" -o "$tmp/bad/scene.json/x.json"
"$raystream" convert "$tmp/bad/scene.json" -o "$tmp/bad/x.png" 2> "$tmp/err.txt"
[ $? -eq 2 ] || fail "an output that is not .json is not a usage error"
grep -q "\.json" "$tmp/err.txt" || fail "unclear message for a non-JSON output: $(cat "$tmp/err.txt")"
"$raystream" help convert | grep -q -- "-o, --output" || fail "raystream help convert lists no -o"
echo "refused, with nothing written: output = input, a side file over an input, missing folder, not .json"
