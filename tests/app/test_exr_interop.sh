#!/bin/sh
# test_exr_interop.sh - the .exr files `raystream render` writes are read by other tools (render
# suite): OpenEXR's exrheader lists every layer's channels, and the Python OpenEXR bindings
# (PyPI, in tools/setup_reference.sh's environment) read values that match the PFM written from
# the same film; the denoised beauty differs from the noisy layer, and the AOVs are in range.
# Also: --aov without an .exr output is refused, and checkpoints carry the AOVs (a resumed
# render writes the same file as one that never stopped; one saved without them is refused).
# Without the Python environment that half is skipped, unless RAYSTREAM_REQUIRE_REFERENCE=1.
#
#   test_exr_interop.sh RAYSTREAM SOURCE_ROOT
raystream=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$raystream" render "$root/scenes/cornell.json" --backend cpu --width 48 --height 36 --spp 4 --aov all --denoise \
    -q -o "$tmp/a.exr" -o "$tmp/a.pfm" || fail "render"
command -v exrheader > /dev/null || fail "exrheader (Debian package openexr) is missing: run tools/setup.sh"
exrheader "$tmp/a.exr" > "$tmp/header.txt" || fail "exrheader cannot read the file"
for ch in R G B noisy.R albedo.G normal.X depth.Z position.Y variance.B; do
    grep -q "^ *$ch, 32-bit floating-point" "$tmp/header.txt" || fail "exrheader lists no float channel $ch"
done
grep -q "dataWindow (type box2i): (0 0) - (47 35)" "$tmp/header.txt" || fail "wrong data window"
# the metadata says where the image came from: version, scene file, spp, seed and camera
attr() { sed -n "s/^raystream:$1 (type string): \"\(.*\)\"\$/\1/p" "$tmp/header.txt"; }
version=$("$raystream" --version | sed 's/^raystream //')
[ -n "$version" ] && [ "$(attr version)" = "$version" ] || fail "raystream:version is '$(attr version)', not '$version'"
[ "$(attr scene_file)" = "$root/scenes/cornell.json" ] || fail "raystream:scene_file is '$(attr scene_file)'"
[ "$(attr spp)" = 4 ] && [ "$(attr spp_reached)" = 4 ] || fail "raystream:spp is '$(attr spp)'"
[ "$(attr seed)" = 0 ] || fail "raystream:seed is '$(attr seed)'"
# the camera as the scene file gives it (cornell.json: eye, look_at, up, fov)
camera=$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["camera"]
print(*(" ".join("%g" % x for x in c[k]) for k in ("eye", "look_at", "up")), "%g" % c["fov"], sep="|")' \
    "$root/scenes/cornell.json") || fail "reading the camera of cornell.json"
got=$(for k in eye look_at up fov; do attr camera.$k | xargs -n 1 printf '%g\n' | paste -sd ' '; done | paste -sd '|')
[ "$got" = "$camera" ] || fail "camera metadata '$got' is not the scene's '$camera'"
echo "metadata: version $version, scene file, spp, seed and camera ($got)"
"$raystream" render "$root/scenes/cornell.json" --backend cpu --width 48 --height 36 --spp 4 --exr-half -q \
    -o "$tmp/h.exr" || fail "render --exr-half"
exrheader "$tmp/h.exr" | grep -q "^ *R, 16-bit floating-point" || fail "--exr-half did not write half channels"
echo "exrheader: every channel listed"
# --aov needs an .exr output
if "$raystream" render "$root/scenes/cornell.json" --backend cpu --aov albedo -o "$tmp/x.png" 2> "$tmp/err.txt"; then
    fail "--aov with a PNG output was accepted"
fi
grep -q "give an output ending in .exr" "$tmp/err.txt" || fail "unclear --aov error: $(cat "$tmp/err.txt")"
# a checkpoint carries the AOVs: resumed, the file is the one a render that never stopped writes
common="$root/scenes/cornell.json --backend cpu --width 40 --height 24 --aov all -q"
"$raystream" render $common --spp 2 --checkpoint "$tmp/c.ck" -o "$tmp/part.exr" || fail "render to 2 spp"
"$raystream" render $common --spp 5 --resume "$tmp/c.ck" -o "$tmp/resumed.exr" || fail "resume to 5 spp"
"$raystream" render $common --spp 5 -o "$tmp/direct.exr" || fail "render to 5 spp"
cmp -s "$tmp/resumed.exr" "$tmp/direct.exr" || fail "the resumed AOV render differs from the direct one"
if "$raystream" render "$root/scenes/cornell.json" --backend cpu --width 40 --height 24 --spp 5 --denoise \
    --resume "$tmp/ck-none" -q -o "$tmp/y.png" 2> /dev/null; then fail "resumed a missing checkpoint"; fi
"$raystream" render "$root/scenes/cornell.json" --backend cpu --width 40 --height 24 --spp 2 -q --checkpoint "$tmp/plain.ck" \
    -o "$tmp/plain.png" || fail "render without AOVs"
if "$raystream" render "$root/scenes/cornell.json" --backend cpu --width 40 --height 24 --spp 4 --denoise -q \
    --resume "$tmp/plain.ck" -o "$tmp/z.png" 2> "$tmp/err.txt"; then fail "resumed a checkpoint without AOVs with --denoise"; fi
grep -q "saved without AOVs" "$tmp/err.txt" || fail "unclear message: $(cat "$tmp/err.txt")"
echo "checkpoints: AOVs resume bit-identically; one without them is refused with --denoise"
py="$root/.venv-reference/bin/python"
if ! "$py" -c 'import OpenEXR, numpy' 2>/dev/null; then
    echo "no Python OpenEXR in $root/.venv-reference (run tools/setup_reference.sh)"
    [ "${RAYSTREAM_REQUIRE_REFERENCE:-0}" = 1 ] && exit 1
    exit 77
fi
"$py" - "$tmp" << 'END' || fail "the Python OpenEXR check"
import sys, numpy as np, OpenEXR
d = sys.argv[1]
with OpenEXR.File(d + "/a.exr") as f:
    ch = f.channels()
    beauty, noisy = np.asarray(ch["RGB"].pixels), np.asarray(ch["noisy"].pixels)
    normal = np.stack([ch["normal." + c].pixels for c in "XYZ"], -1)
    albedo, depth = np.asarray(ch["albedo"].pixels), np.asarray(ch["depth.Z"].pixels)
with open(d + "/a.pfm", "rb") as f:  # the PFM holds the denoised beauty too, bottom row first
    assert f.readline().strip() == b"PF"
    w, h = map(int, f.readline().split())
    scale = float(f.readline())
    pfm = np.fromfile(f, dtype="<f4" if scale < 0 else ">f4").reshape(h, w, 3)[::-1]
assert beauty.shape == (36, 48, 3), beauty.shape
assert np.array_equal(beauty, pfm), "the EXR beauty differs from the PFM"
assert not np.array_equal(beauty, noisy), "the denoised beauty equals the noisy layer"
assert np.all(np.isfinite(beauty)) and np.all(np.isfinite(noisy))
assert np.all(np.linalg.norm(normal, axis=-1) <= 1.0 + 1e-5)
assert np.all((albedo >= 0) & (albedo <= 1)), "albedo out of [0, 1]"
assert np.all(depth > 0), "depth not positive"
print("Python OpenEXR: beauty equals the PFM, noisy layer differs, AOVs in range")
END
