#!/bin/sh
# test_mitsuba_reference.sh - a Mitsuba XML scene imported by raystream renders as Mitsuba 3
# renders the same file (reference suite, about 15 s).
#
#   test_mitsuba_reference.sh RAYSTREAM SOURCE_ROOT
#
# tools/compare_mitsuba.py --check on tests/data/import/mitsuba/cbox.xml (rectangles, cubes, a
# rough gold sphere, a plastic box) and envmap_zup.xml (a z-up scene lit by an environment map
# turned about x: the importer turns the scene instead) and features.xml (orthographic sensor,
# directional emitter, checkerboard and bitmap with to_uv, thindielectric, masks) and cylinder.xml
# (a textured, triangulated cylinder) and pplastic.xml (polarized plastic as a rough plastic) at 64x64 and 64 spp, two seeds a side:
# every channel's mean within 5% and block z RMS below 1.5. Skipped (77) without tools/setup_reference.sh's
# environment, unless RAYSTREAM_REQUIRE_REFERENCE=1 (as in CI).
raystream=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$2
py="$root/.venv-reference/bin/python"
if ! "$py" -c 'import mitsuba, numpy' 2>/dev/null; then
    echo "no Mitsuba environment in $root/.venv-reference (run tools/setup_reference.sh)"
    [ "${RAYSTREAM_REQUIRE_REFERENCE:-0}" = 1 ] && exit 1
    exit 77
fi
cd "$root" || exit 1
# features.xml at its own 4:3 aspect: a square view would show the thin pane's shadow
"$py" tools/compare_mitsuba.py --check --raystream "$raystream" --width 64 --height 64 --spp 64 \
    tests/data/import/mitsuba/cbox.xml tests/data/import/mitsuba/envmap_zup.xml \
    tests/data/import/mitsuba/cylinder.xml tests/data/import/mitsuba/pplastic.xml || exit 1
exec "$py" tools/compare_mitsuba.py --check --raystream "$raystream" --width 64 --height 48 --spp 64 \
    tests/data/import/mitsuba/features.xml
