#!/bin/sh
# test_gltf_twins.sh RAYSTREAM DATA_DIR - the glTF importer against raystream JSON twins
# (tests/data/import/gltf/, written by tools/make_gltf_tests.py).
#
# Each glTF scene and its JSON twin describe the same scene; rendered on the CPU at 32x32 with
# 4 spp they must give the same .pfm bytes: node hierarchy with mesh reuse, EXT_mesh_gpu_instancing,
# two cameras (--camera 0 perspective, 1 orthographic), point, spot and directional lights, a
# data: URI texture, the same scene as .glb, no light at all (the white environment), and
# alphaMode MASK (alphaCutoff, texture alpha under KHR_texture_transform) and BLEND (by
# baseColorFactor alpha and by texture alpha), and morph targets at the mesh's default weights.
# The warnings the scenes call for must be printed, and the bad inputs must fail with their messages (through expect_error.sh's rules:
# exit 1, the message, the file named, no image).
set -u
rs=$1 dir=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
small="--spp 4 --width 32 --height 32 --backend cpu --quiet"

# twin GLTF JSON [ARGS]: identical images
twin() {
    g=$1 j=$2
    shift 2
    "$rs" render "$dir/$g" $small -o "$tmp/g.pfm" "$@" 2>"$tmp/g.err" || { fail "$g $*: $(cat "$tmp/g.err")"; return; }
    "$rs" render "$dir/$j" $small -o "$tmp/j.pfm" 2>"$tmp/j.err" || { fail "$j: $(cat "$tmp/j.err")"; return; }
    if cmp -s "$tmp/g.pfm" "$tmp/j.pfm"; then
        echo "ok: $g $* renders as $j, bit for bit"
    else
        fail "$g $* and its twin $j differ"
    fi
}
twin hierarchy.gltf hierarchy.json
grep -q "no lights (no KHR_lights_punctual light, no emissive material): lit by a white environment" "$tmp/g.err" ||
    fail "hierarchy.gltf: no warning about the white environment: $(cat "$tmp/g.err")"
twin instancing.gltf instancing.json
twin lights.gltf lights.json
grep -q "meshes\[1\].primitives\[1\]: mode LINES left out" "$tmp/g.err" || fail "lights.gltf: no warning for LINES"
grep -q "extension EXT_raystream_test_unknown is not supported" "$tmp/g.err" ||
    fail "lights.gltf: no warning for an unknown extension in extensionsUsed"
twin lights.gltf lights.json --camera 0
twin lights.gltf lights_camera1.json --camera 1
twin textured.gltf textured.json
twin textured.glb textured.json
twin alpha.gltf alpha.json
[ -s "$tmp/g.err" ] && fail "alpha.gltf: unexpected warnings: $(cat "$tmp/g.err")"
twin morph.gltf morph.json
grep -q "nodes\[0\].weights: ignored" "$tmp/g.err" || fail "morph.gltf: no warning for node weights: $(cat "$tmp/g.err")"

# the cameras really differ (a --camera that changed nothing would pass the twins above only
# if the twins were wrong too)
"$rs" render "$dir/lights.gltf" $small -o "$tmp/c0.pfm" --camera 0 2>/dev/null
"$rs" render "$dir/lights.gltf" $small -o "$tmp/c1.pfm" --camera 1 2>/dev/null
cmp -s "$tmp/c0.pfm" "$tmp/c1.pfm" && fail "--camera 0 and --camera 1 give the same image"

# --camera is on the settings list: a checkpoint of camera 0 does not resume as camera 1
"$rs" render "$dir/lights.gltf" $small -o "$tmp/k.pfm" --camera 0 --spp 2 --checkpoint "$tmp/k.ck" 2>/dev/null
"$rs" render "$dir/lights.gltf" $small -o "$tmp/k.pfm" --camera 1 --resume "$tmp/k.ck" 2>"$tmp/k.err" &&
    fail "--resume of camera 0's checkpoint with --camera 1 was accepted"
grep -q "made with camera 0; this render uses 1" "$tmp/k.err" || fail "--resume with another camera: $(cat "$tmp/k.err")"

# bad input
bad() {
    sh "$here/expect_error.sh" "$rs" "$dir/$1" "$2" ${3:-} > "$tmp/bad.log" 2>&1 && echo "ok: $1 ${3:-} refused" ||
        fail "$1 ${3:-}: $(cat "$tmp/bad.log")"
}
bad bad/bad_truncated.glb "truncated binary glTF: the header says 804 bytes, the file has 764"
bad bad/bad_accessor_range.gltf "accessors[0]: 400 elements of 12 bytes from byte 0 (stride 12) end at byte 4800, beyond bufferViews[0]'s 48 bytes"
bad bad/bad_base64.gltf "buffers[0].uri: bad base64 in a data: URI: character '*'"
bad bad/bad_cycle.gltf "reaches nodes[1] a second time: the node hierarchy has a cycle or a node with two parents"
bad bad/bad_required_extension.gltf "extensionsRequired[0]: the file requires extension KHR_draco_mesh_compression, which raystream does not support"
bad bad/bad_points_only.gltf "the scene has no triangles to render: its 1 primitive of points or lines is left out"
bad lights.gltf "--camera 2: the scene has 2 cameras (numbered 0 to 1 in node order)" "--camera 2"

[ $fails -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
