set -u
. .gpu-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S0=$(date +%s)
meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 -Dviewer=disabled --buildtype=release > $L/setup.log 2>&1 && ninja -j16 -C build-gpu raystream > $L/build.log 2>&1; echo "build: $? $(( $(date +%s) - S0 )) s"
O=$(find build-gpu -name '*kernel_shade.cu.o' | head -1); echo "obj $O"
cuobjdump -sass $O > $L/shade.sass 2>&1; python3 - $L/shade.sass <<'PY'
import re,sys,collections
txt=open(sys.argv[1]).read()
for f in re.split(r'\n\s+Function : ',txt)[1:]:
    name=f.split('\n')[0].strip()
    ins=re.findall(r'/\*[0-9a-f]{4}\*/\s+([^;]+);',f)
    ops=collections.Counter((i.split()[1] if i.startswith('@') else i.split()[0]).split('.')[0] for i in ins)
    print(name[:60], 'n', len(ins), {k:ops[k] for k in ['LDL','STL','LDG','STG','BSSY','BSYNC','WARPSYNC','VOTE','BAR','ATOMG','RED','BRA','CALL','RET','LD','ST'] if ops[k]})
PY
M="--section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum"
G='Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|thread_inst_executed_per|inst_executed.sum|sector_hit_rate|Warp Cycles Per Issued|local_ld|local_st|Stall|Block Limit'
for s in flags stencil compact-warp; do
timeout 120 ncu --clock-control none --kernel-name regex:rs_kernel_shade --launch-skip 2 --launch-count 1 $M build-gpu/raystream bench --scenes scenes/diffuse.json --integrator whitted --depths 1 --deadray $s --frames 1 --warmup 0 --quiet > $L/ncu-whitted-$s.txt 2>&1
echo "== whitted shade $s: $?"; grep -E "$G" $L/ncu-whitted-$s.txt | head -24
done
for s in compact-cub stencil; do
timeout 150 ncu --clock-control none --kernel-name regex:rs_kernel_shade --launch-skip 2 --launch-count 1 $M build-gpu/raystream bench --scenes tools/bench/scenes/sponza.json --integrator path --depths 8 --width 960 --height 540 --spp 4 --deadray $s --frames 1 --warmup 0 --quiet > $L/ncu-sponza-$s.txt 2>&1
echo "== sponza shade $s: $?"; grep -E "$G" $L/ncu-sponza-$s.txt | head -24
done
tar -czf $OUT/logs.tgz -C $OUT logs && rm -rf $OUT/logs
