#!/bin/sh
# test_particles_cli.sh RAYSTREAM SCENES_DIR - the particle integrators (light, sppm) as a user
# meets them on the command line (app suite, CPU backend, small images):
#   - bad values of their options exit 2 naming the option;
#   - what they cannot honour (--denoise, --aov, --noise-threshold, a depth of 0, a scene with no
#     light particles can leave from) exits 1 with a message naming it;
#   - --checkpoint / --resume continue a render bit-identically (SPPM's state planes included),
#     and a resume with other photons per pass is refused by name.
set -u
rs=$1 scenes=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
small="--width 32 --height 24 --backend cpu --quiet"
few="--photons 2048" # sppm: the default photons per pass (a chunk) would make the test slow
cornell=$scenes/cornell.json

bad() { # OPTION VALUE
    "$rs" render "$cornell" $small -o "$tmp/x.png" --integrator sppm "$1" "$2" 2>"$tmp/e"
    status=$?
    [ $status -eq 2 ] && grep -q -- "$1" "$tmp/e" || fail "$1 $2: exit $status: $(cat "$tmp/e")"
}
bad --integrator bogus
for v in 0 -1 abc; do bad --photons $v; done
for v in 0 1 -0.5 nan; do bad --sppm-alpha $v; done
for v in 0 -1 nan inf; do bad --sppm-radius $v; done

refused() { # WANT INTEGRATOR OPTIONS...
    want=$1 integrator=$2
    shift 2
    "$rs" render "$cornell" $small -o "$tmp/x.exr" --integrator "$integrator" "$@" 2>"$tmp/e"
    status=$?
    [ $status -eq 1 ] && grep -q -- "$want" "$tmp/e" || fail "$integrator $*: exit $status: $(cat "$tmp/e")"
}
for i in light sppm; do
    refused "--denoise" $i --denoise
    refused "--aov" $i --aov albedo
    refused "--noise-threshold" $i --noise-threshold 0.05
done
printf '{"version": 2, "camera": {"eye": [0, 0, 5], "look_at": [0, 0, 0], "up": [0, 1, 0], "fov": 40},
 "materials": [{"name": "grey", "type": "diffuse", "albedo": [0.5, 0.5, 0.5]}],
 "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "grey"}]}\n' > "$tmp/dark.json"
for i in light sppm; do
    "$rs" render "$tmp/dark.json" $small -o "$tmp/x.png" --integrator $i 2>"$tmp/e"
    status=$?
    [ $status -eq 1 ] && grep -q "no light" "$tmp/e" || fail "$i without a light: exit $status: $(cat "$tmp/e")"
done

for i in light sppm; do
    "$rs" render "$cornell" $small $few --integrator $i --spp 6 -o "$tmp/straight.pfm" || fail "$i straight"
    "$rs" render "$cornell" $small $few --integrator $i --spp 3 -o "$tmp/part.pfm" --checkpoint "$tmp/$i.ck" ||
        fail "$i checkpointed"
    "$rs" render "$cornell" $small $few --integrator $i --spp 6 -o "$tmp/resumed.pfm" --resume "$tmp/$i.ck" ||
        fail "$i resumed"
    cmp -s "$tmp/straight.pfm" "$tmp/resumed.pfm" || fail "$i: a resumed render is not bit-identical"
done
"$rs" render "$cornell" $small --integrator sppm --spp 6 -o "$tmp/r.pfm" --resume "$tmp/sppm.ck" --photons 100 \
    2>"$tmp/e"
status=$?
[ $status -eq 1 ] && grep -q "photons_per_pass" "$tmp/e" || fail "resume with other photons: exit $status: $(cat "$tmp/e")"

[ $failures -eq 0 ] && echo "test_particles_cli: all passed"
exit $((failures != 0))
