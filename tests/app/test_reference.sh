#!/bin/sh
# test_reference.sh - raystream agrees with Mitsuba 3 within noise (render suite).
#
#   test_reference.sh RAYSTREAM SOURCE_ROOT BUILD_DIR
#
# tools/compare_reference.py --check on the shipped scenes at depths 2 and 8 (depth 2 is where a
# specular last vertex matters most), CPU backend, 128x128 at 512 spp, two seeds a side. Needs the
# environment of tools/setup_reference.sh (tools/setup.sh makes it); without it the test is
# skipped, unless RAYSTREAM_REQUIRE_REFERENCE=1 (as in CI), which makes that a failure.
# tests/data/reference/rough_materials.json adds rough gold, copper and frosted glass and a
# smooth plastic. Its floor is diffuse: at grazing angles raystream's height-correlated masking
# term (pbrt-v4's) is brighter than Mitsuba's separable one by up to 0.6% in a block, which a
# rough metal floor seen edge-on shows (tools/reference/RESULTS.md).
# tests/data/reference/env_map.json lights rough gold, diffuse and plastic spheres by
# scenes/textures/sky.hdr alone, turned by 130 degrees: a small bright sun that only importance
# sampling of the map finds, MIS with the BSDF's samples, and the map's orientation.
# tests/data/reference/env_rows.json lights a diffuse sphere and floor by a coarse 16x9 map
# (textures/env_rows.hdr): a bright ring on row 2 (45 degrees from the zenith) and a warm patch
# on the horizon row towards +x. Mitsuba's twin is its own envmap of the same file, so a row
# mapping half a texel off Mitsuba's (rows at (y + 0.5) / H, not y / (H - 1)) fails by 10%.
raystream=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$2 build=$(cd "$3" && pwd)
py="$root/.venv-reference/bin/python"
if ! "$py" -c 'import mitsuba, numpy' 2>/dev/null; then
    echo "no Mitsuba environment in $root/.venv-reference (run tools/setup_reference.sh)"
    [ "${RAYSTREAM_REQUIRE_REFERENCE:-0}" = 1 ] && exit 1
    exit 77
fi
cd "$root" || exit 1
exec "$py" tools/compare_reference.py --check --raystream "$raystream" --cache "$build/reference-cache" \
    --backend cpu --width 128 --height 128 --spp 512 --depths 2,8 \
    scenes/cornell.json scenes/diffuse.json scenes/mirrors.json scenes/reflect-23k.json \
    tests/data/reference/rough_materials.json tests/data/reference/env_map.json tests/data/reference/env_rows.json
