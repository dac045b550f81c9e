set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
S=tools/bench/scenes/sponza.json
timeout 60 build-gpu/raystream view $S --headless --frames 150 --width 1920 --height 1080 --deadray auto --state $L/view.json > $L/view.txt 2>&1; echo "view: $(tail -1 $L/view.txt | cut -c1-200)"
timeout 60 build-gpu/raystream render $S --spp 128 --width 1920 --height 1080 -o /tmp/r.pfm --deadray auto > $L/render.txt 2>&1; echo "render: $(tail -2 $L/render.txt | head -1)"
for d in stencil persistent compact-cub; do
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 build-gpu/raystream render scenes/reflect-23k.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --deadray $d --quiet > $L/racecheck-$d.txt 2>&1; echo "racecheck $d: $? $(grep 'RACECHECK SUMMARY' $L/racecheck-$d.txt)"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/raystream render scenes/cornell.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --deadray $d --quiet > $L/memcheck-$d.txt 2>&1; echo "memcheck $d: $? $(grep 'ERROR SUMMARY' $L/memcheck-$d.txt)"
done
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 build-gpu/raystream render scenes/materials.json -o /tmp/m.pfm --spp 2 --width 96 --height 64 --quiet > $L/memcheck-materials.txt 2>&1; echo "memcheck materials (textured): $? $(grep 'ERROR SUMMARY' $L/memcheck-materials.txt)"
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
