#!/usr/bin/env bash
# run.sh WARPSIM SRCDIR WORKDIR - CUDA programs under warpsim's CUDA runtime library (docs/cudart.md):
# build tests/cudart/*.cu with `nvcc -cudart shared` (PTX only, compute_75), run them with
# `warpsim exec`, check their own printed results and that warpsim's statistics appear (text and
# JSON), and the errors: an unsupported call, an out-of-bounds access, a SASS-only program; the
# device library: printf, malloc/free, assert; managed memory.  Skipped
# (exit 0 with a message) when nvcc is absent (NVCC or PATH, then /usr/local/cuda/bin/nvcc).
set -u
WARPSIM=$1 SRC=$2 WORK=$3
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "SKIP: nvcc not found (set NVCC=/path/to/nvcc); the CUDA programs of tests/cudart were not run"
    exit 0
fi
LIB=$(dirname "$WARPSIM")/cudart/libcudart.so.13
# sanitizer build: the library links ASan, whose runtime must come first in an uninstrumented program;
# the programs (and warpsim exec) run with it preloaded, nothing else does
PRE=$(ldd "$LIB" 2>/dev/null | awk '/libasan/ { print $3 }')
sim() { LD_PRELOAD=$PRE "$@"; }
mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
build() {   # NAME [nvcc options]: WORK/NAME from SRC/tests/cudart/NAME.cu
    local name=$1; shift
    "$NVCC" -cudart shared "$@" -o "$WORK/$name" "$SRC/tests/cudart/${name%_sass}.cu" > "$WORK/$name.nvcc.log" 2>&1 ||
        { bad "nvcc $name: $(tail -3 "$WORK/$name.nvcc.log")"; return 1; }
}
PTX="-gencode arch=compute_75,code=compute_75"

# 1. vector add: copies, events, streams, both launch paths; text report on stderr
if build vecadd $PTX; then
    sim "$WARPSIM" exec -- "$WORK/vecadd" 3000 > "$WORK/vecadd.out" 2> "$WORK/vecadd.err"; rc=$?
    [ $rc -eq 0 ] || bad "vecadd exit $rc: $(tail -5 "$WORK/vecadd.err")"
    grep -q '^vecadd n=3000: PASSED (0 wrong), kernel time positive$' "$WORK/vecadd.out" || bad "vecadd result: $(cat "$WORK/vecadd.out")"
    grep -q '^devices 1, SMs 15 (attribute 15), warp 32$' "$WORK/vecadd.out" || bad "vecadd device properties: $(head -1 "$WORK/vecadd.out")"
    grep -q '^kernels_launched = 2$' "$WORK/vecadd.err" || bad "vecadd: no kernels_launched = 2 in warpsim's report"
    grep -q '^gpu_tot_sim_cycle = [1-9]' "$WORK/vecadd.err" || bad "vecadd: no gpu_tot_sim_cycle in warpsim's report"
    grep -q '^L2_total_cache_accesses = ' "$WORK/vecadd.err" || bad "vecadd: no timing statistics in warpsim's report"
    grep -q 'warpsim' "$WORK/vecadd.out" && bad "vecadd: warpsim's report leaked into the program's stdout"
    # the simulated time: elapsed_ms = cycles / core clock (gtx480: 700 MHz)
    cyc=$(sed -n 's/^gpu_tot_sim_cycle = //p' "$WORK/vecadd.err")
    ms=$(sed -n 's/^elapsed_ms = //p' "$WORK/vecadd.out")
    awk -v c="$cyc" -v m="$ms" 'BEGIN { e = c / 700000.0; exit !(m > 0 && (m - e) < 1e-4 * e + 1e-6 && (e - m) < 1e-4 * e + 1e-6) }' ||
        bad "vecadd: elapsed_ms $ms is not gpu_tot_sim_cycle $cyc / 700 MHz"
    # options pass through: 4 SMs, JSON results, effective config and time series beside it
    rm -f "$WORK/vecadd.json"
    sim "$WARPSIM" exec --set gpgpu_n_clusters=4 --warp-sched lrr -o "$WORK/vecadd.json" -- "$WORK/vecadd" 1000 \
        > "$WORK/vecadd2.out" 2> "$WORK/vecadd2.err" || bad "vecadd -o: $(tail -3 "$WORK/vecadd2.err")"
    grep -q '^devices 1, SMs 4 (attribute 4)' "$WORK/vecadd2.out" || bad "vecadd --set gpgpu_n_clusters=4: $(head -1 "$WORK/vecadd2.out")"
    grep -q '"gpu_sim_cycle": [1-9]' "$WORK/vecadd.json" || bad "vecadd -o: no gpu_sim_cycle in the JSON"
    grep -q '"totals"' "$WORK/vecadd.json" || bad "vecadd -o: no timing totals in the JSON"
    grep -q '^-gpgpu_scheduler  *lrr' "$WORK/vecadd.config" || bad "vecadd -o: no effective configuration beside the JSON"
    [ -s "$WORK/vecadd.timeseries.csv" ] || bad "vecadd -o: no time series beside the JSON"
    if command -v python3 > /dev/null; then
        python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$WORK/vecadd.json" || bad "vecadd -o: invalid JSON"
    fi
    # by hand: the library path alone, functional mode by environment
    LD_PRELOAD=$PRE LD_LIBRARY_PATH=$(dirname "$LIB") WARPSIM_CUDART_FUNCTIONAL=1 "$WORK/vecadd" 500 > "$WORK/vecadd3.out" 2> "$WORK/vecadd3.err" ||
        bad "vecadd by LD_LIBRARY_PATH: $(tail -3 "$WORK/vecadd3.err")"
    grep -q 'PASSED' "$WORK/vecadd3.out" || bad "vecadd by LD_LIBRARY_PATH: $(cat "$WORK/vecadd3.out")"
    grep -q '(functional) ====' "$WORK/vecadd3.err" || bad "vecadd functional: no report"
fi

# 2. BFS: two kernels in a host loop, __constant__ / __device__ symbols, events
if build bfs $PTX; then
    sim "$WARPSIM" exec -- "$WORK/bfs" 1500 > "$WORK/bfs.out" 2> "$WORK/bfs.err"; rc=$?
    [ $rc -eq 0 ] || bad "bfs exit $rc: $(tail -5 "$WORK/bfs.err")"
    grep -q '^bfs n=1500 edges=6000 levels=[0-9]* depth=[0-9]* visits=1500: PASSED (0 wrong)$' "$WORK/bfs.out" ||
        bad "bfs result: $(cat "$WORK/bfs.out")"
    grep -q '^kernel _Z6expandPKiS0_PbS1_S1_Pi: launches = ' "$WORK/bfs.err" || bad "bfs: no per-kernel line in warpsim's report"
    grep -q '^gpu_tot_ipc = ' "$WORK/bfs.err" || bad "bfs: no gpu_tot_ipc in warpsim's report"
fi

# 3. an unsupported call: cudaErrorNotSupported and one line naming it; the program goes on
if build unsupported $PTX; then
    sim "$WARPSIM" exec -- "$WORK/unsupported" > "$WORK/unsupported.out" 2> "$WORK/unsupported.err"; rc=$?
    [ $rc -eq 0 ] || bad "unsupported exit $rc: $(tail -5 "$WORK/unsupported.err")"
    grep -q '^cudaGraphCreate -> cudaErrorNotSupported$' "$WORK/unsupported.out" || bad "unsupported: $(cat "$WORK/unsupported.out")"
    grep -q '^kernel after the unsupported call: PASSED$' "$WORK/unsupported.out" || bad "unsupported: kernel did not run"
    [ "$(grep -c 'cudaGraphCreate is not supported by warpsim' "$WORK/unsupported.err")" = 1 ] ||
        bad "unsupported: expected one stderr line naming cudaGraphCreate: $(head -3 "$WORK/unsupported.err")"
fi

# 4. an out-of-bounds store: the memory checker's report, cudaErrorIllegalAddress that sticks; a bad
#    configuration that does not
if build oob $PTX; then
    sim "$WARPSIM" exec -- "$WORK/oob" > "$WORK/oob.out" 2> "$WORK/oob.err"; rc=$?
    [ $rc -eq 0 ] || bad "oob exit $rc: $(cat "$WORK/oob.out")"
    grep -q '^bad configuration: cudaErrorInvalidConfiguration, then cudaSuccess$' "$WORK/oob.out" || bad "oob: $(cat "$WORK/oob.out")"
    grep -q '^out of bounds: cudaErrorIllegalAddress, then cudaErrorIllegalAddress$' "$WORK/oob.out" || bad "oob: $(cat "$WORK/oob.out")"
    grep -q 'Invalid __global__ write of size 4 bytes' "$WORK/oob.err" || bad "oob: no memory-checker report: $(head -3 "$WORK/oob.err")"
    grep -q '^status = WS_ERROR_' "$WORK/oob.err" || bad "oob: the report does not give the failure"
fi

# 5. pitched memory and 2D copies; the occupancy calculator
if build pitch $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/pitch" > "$WORK/pitch.out" 2> "$WORK/pitch.err"; rc=$?
    [ $rc -eq 0 ] || bad "pitch exit $rc: $(cat "$WORK/pitch.out") $(tail -3 "$WORK/pitch.err")"
    grep -q '^pitch ok (multiple of 256: yes), 2D copies PASSED (0 wrong), bad pitch: cudaErrorInvalidPitchValue$' \
        "$WORK/pitch.out" || bad "pitch: $(cat "$WORK/pitch.out")"
    grep -q '^occupancy: [1-8] blocks of 256 per SM, potential block size [1-9][0-9]*, min grid [1-9][0-9]* (cudaSuccess)$' \
        "$WORK/pitch.out" || bad "pitch occupancy: $(cat "$WORK/pitch.out")"
fi

# 6. texture objects over linear and pitched memory; a refused descriptor
if build tex $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/tex" > "$WORK/tex.out" 2> "$WORK/tex.err"; rc=$?
    [ $rc -eq 0 ] || bad "tex exit $rc: $(cat "$WORK/tex.out") $(tail -3 "$WORK/tex.err")"
    grep -q '^tex1Dfetch PASSED (0 wrong), tex2D PASSED (0 wrong), linear filtering: cudaErrorNotSupported$' \
        "$WORK/tex.out" || bad "tex: $(cat "$WORK/tex.out")"
    grep -q 'cudaCreateTextureObject: not supported by warpsim: linear filtering' "$WORK/tex.err" || bad "tex: no message"
fi

# 7a. device printf: formats, divergent lanes in lane order, the return value, the output at
#     synchronisation after what the host printed; several blocks (their order is the simulator's:
#     compared sorted), the same output with 2 host threads and in functional mode
if build printf $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/printf" > "$WORK/printf.out" 2> "$WORK/printf.err"; rc=$?
    [ $rc -eq 0 ] || bad "printf exit $rc: $(tail -3 "$WORK/printf.err")"
    cat > "$WORK/printf.want" <<'WANT'
host: launched
t00: warp  | 0.00|0|a|0
t03: warp  | 0.75|33|d|3298534883328
t06: warp  | 1.50|66|g|6597069766656
t4: 1.234500e+03 0.0001 4000000000 100 lit -4 %
t7: no arguments
host: synchronised (cudaSuccess)
returns: 6 -1 -1 6 7 -1 6 0
WANT
    head -8 "$WORK/printf.out" | cmp -s - "$WORK/printf.want" ||
        bad "printf: first kernel's output differs: $(head -8 "$WORK/printf.out" | diff "$WORK/printf.want" - | head -10)"
    want_many=$(for b in 0 1 2; do for w in 0 1; do for l in 0 16; do echo "block $b warp $w lane $l"; done; done; done)
    [ "$(sed -n '9,20p' "$WORK/printf.out" | sort)" = "$want_many" ] || bad "printf: the blocks' lines: $(sed -n '9,20p' "$WORK/printf.out")"
    [ "$(sed -n '21p' "$WORK/printf.out")" = "host: done (cudaSuccess)" ] || bad "printf: last line: $(tail -1 "$WORK/printf.out")"
    sim "$WARPSIM" exec --quiet --threads 2 -- "$WORK/printf" > "$WORK/printf2.out" 2>&1
    cmp -s "$WORK/printf.out" "$WORK/printf2.out" || bad "printf: output differs with --threads 2"
    sim "$WARPSIM" exec --quiet --functional -- "$WORK/printf" > "$WORK/printf3.out" 2>&1
    head -8 "$WORK/printf3.out" | cmp -s - "$WORK/printf.want" || bad "printf: functional mode differs"
fi
# a bundled workload's PTX with a printf added, under `warpsim run`: the lines on stdout
{ echo '#include <cstdio>'
  sed 's|^{$|{\n    if (blockIdx.x == 0 \&\& threadIdx.x < 2) printf("vecadd says hello from thread %d of %d, n=%d\\n", threadIdx.x, blockDim.x, n);|' \
      "$SRC/workloads/vecadd/vecadd.cu"; } > "$WORK/vecadd_printf.cu"
if "$NVCC" -ptx -arch=compute_75 -O3 -o "$WORK/vecadd_printf.ptx" "$WORK/vecadd_printf.cu" > "$WORK/vecadd_printf.log" 2>&1; then
    "$WARPSIM" run vecadd --size tiny --ptx "$WORK/vecadd_printf.ptx" > "$WORK/vecadd_printf.out" 2> "$WORK/vecadd_printf.err" ||
        bad "warpsim run with printf: $(tail -3 "$WORK/vecadd_printf.err")"
    [ "$(head -2 "$WORK/vecadd_printf.out")" = "vecadd says hello from thread 0 of 256, n=50000
vecadd says hello from thread 1 of 256, n=50000" ] || bad "warpsim run with printf: $(head -3 "$WORK/vecadd_printf.out")"
else
    bad "nvcc vecadd_printf: $(tail -3 "$WORK/vecadd_printf.log")"
fi

# 7b. malloc/free in kernels: blocks across launches, the heap's limit, NULL when exhausted
if build malloc $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/malloc" > "$WORK/malloc.out" 2> "$WORK/malloc.err"; rc=$?
    [ $rc -eq 0 ] || bad "malloc exit $rc: $(cat "$WORK/malloc.out") $(tail -3 "$WORK/malloc.err")"
    grep -q '^heap: default 8388608, set to 4194304 (cudaSuccess)$' "$WORK/malloc.out" || bad "malloc limits: $(cat "$WORK/malloc.out")"
    grep -q '^malloc/free across kernels: PASSED (0 wrong, 0 overlapping)$' "$WORK/malloc.out" || bad "malloc: $(cat "$WORK/malloc.out")"
    grep -q '^exhausted: 4 of 64 blocks of 1 MiB from a 4 MiB heap, the rest NULL (cudaSuccess)$' "$WORK/malloc.out" ||
        bad "malloc exhaustion: $(cat "$WORK/malloc.out")"
fi

# 7c. assert: the device's message per failing thread on stderr, cudaErrorAssert (710) that sticks
if build assert $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/assert" > "$WORK/assert.out" 2> "$WORK/assert.err"; rc=$?
    [ $rc -eq 0 ] || bad "assert exit $rc: $(cat "$WORK/assert.out") $(tail -3 "$WORK/assert.err")"
    grep -q '^passing assert: cudaSuccess; failing assert: cudaErrorAssert (710), then cudaErrorAssert$' "$WORK/assert.out" ||
        bad "assert: $(cat "$WORK/assert.out")"
    for t in 6 7; do
        grep -q "assert.cu:9: void check(const int \*, int): block: \[0,0,0\], thread: \[$t,0,0\] Assertion \`v\[i\] < n\` failed.\$" \
            "$WORK/assert.err" || bad "assert: no message for thread $t: $(head -3 "$WORK/assert.err")"
    done
    [ "$(grep -c 'Assertion' "$WORK/assert.err")" = 2 ] || bad "assert: expected two messages: $(cat "$WORK/assert.err")"
fi

# 7d. managed memory: cudaMallocManaged and __managed__ variables shared by host and kernels
if build managed $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/managed" > "$WORK/managed.out" 2> "$WORK/managed.err"; rc=$?
    [ $rc -eq 0 ] || bad "managed exit $rc: $(cat "$WORK/managed.out") $(tail -3 "$WORK/managed.err")"
    grep -q '^counter starts at 5, table\[3\] = 4$' "$WORK/managed.out" || bad "managed initial values: $(cat "$WORK/managed.out")"
    grep -q '^managed PASSED (0 wrong), counter 8, table\[0\] 40, copy 27, pointer type 3, attribute 1$' "$WORK/managed.out" ||
        bad "managed: $(cat "$WORK/managed.out")"
    grep -q '^limits: printf FIFO 1048576, heap 8388608$' "$WORK/managed.out" || bad "managed limits: $(cat "$WORK/managed.out")"
    grep -q '^cudaFree(managed): cudaSuccess$' "$WORK/managed.out" || bad "managed free: $(cat "$WORK/managed.out")"
    grep -q '^mapped host memory: PASSED (0 wrong; cudaSuccess cudaSuccess cudaSuccess)$' "$WORK/managed.out" ||
        bad "managed: mapped host memory: $(cat "$WORK/managed.out")"
fi

# 7e. CUDA arrays: copies to and from them, texture objects over them; a surface-capable array
if build array $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/array" > "$WORK/array.out" 2> "$WORK/array.err"; rc=$?
    [ $rc -eq 0 ] || bad "array exit $rc: $(cat "$WORK/array.out") $(tail -3 "$WORK/array.err")"
    grep -q '^arrays: PASSED (0 wrong), info 37x20 x=32 flags 0, textures cudaSuccess cudaSuccess, surface array: cudaSuccess$' \
        "$WORK/array.out" || bad "array: $(cat "$WORK/array.out")"
fi

# 7f. surface objects over CUDA arrays: surf2Dwrite in one kernel, surf2Dread in another, a 1D
# surface, the .clamp and .zero boundary modes, and a .trap out-of-range write as a checker fault
if build surface $PTX; then
    sim "$WARPSIM" exec --quiet -- "$WORK/surface" > "$WORK/surface.out" 2> "$WORK/surface.err"; rc=$?
    [ $rc -eq 0 ] || bad "surface exit $rc: $(cat "$WORK/surface.out") $(tail -3 "$WORK/surface.err")"
    grep -q '^surface 2D 45x19: PASSED (0 wrong)$' "$WORK/surface.out" || bad "surface 2D: $(cat "$WORK/surface.out")"
    grep -q '^surface 1D 100: PASSED (0 wrong), clamp/zero PASSED$' "$WORK/surface.out" || bad "surface 1D: $(cat "$WORK/surface.out")"
    grep -q '^surface trap: cudaErrorIllegalAddress$' "$WORK/surface.out" || bad "surface trap: $(cat "$WORK/surface.out")"
    grep -q 'Invalid surface write of size 4 bytes' "$WORK/surface.err" || bad "surface trap: no checker report: $(tail -5 "$WORK/surface.err")"
fi

# 7. a SASS-only program: the clear error with the -gencode to add
if build unsupported_sass -gencode arch=compute_75,code=sm_75; then
    sim "$WARPSIM" exec --quiet -- "$WORK/unsupported_sass" > "$WORK/sass.out" 2> "$WORK/sass.err"
    grep -q 'no PTX, only machine code (sm_75).*-gencode arch=compute_75,code=compute_75' "$WORK/sass.err" ||
        bad "SASS-only: no clear error: $(head -3 "$WORK/sass.err")"
    grep -q 'kernel after the unsupported call: FAILED' "$WORK/sass.out" || bad "SASS-only: the launch did not fail"
fi

# 8. exec's own errors
sim "$WARPSIM" exec --config no-such-preset -- "$WORK/vecadd" > /dev/null 2> "$WORK/err1"; rc=$?
[ $rc -eq 2 ] && grep -q "no such file and no built-in preset" "$WORK/err1" || bad "exec --config bad: rc $rc $(cat "$WORK/err1")"
sim "$WARPSIM" exec > /dev/null 2> "$WORK/err2"; rc=$?
[ $rc -eq 2 ] && grep -q "which program" "$WORK/err2" || bad "exec without a program: rc $rc"
sim "$WARPSIM" exec -- "$WORK/no-such-program" > /dev/null 2> "$WORK/err3"; rc=$?
[ $rc -eq 127 ] || bad "exec of a missing program: rc $rc"

[ $fail -eq 0 ] && echo "cudart: all checks passed"
exit $fail
