#!/usr/bin/env bash
# make_fatbins.sh - regenerate the fatbinaries that test_fatbin.c reads (needs nvcc; the files are
# committed so the parser is tested without it).  Each is the .nv_fatbin section of an object file
# that nvcc compiles from fatbin_kernel.cu:
#   nvcc -c -cudart shared GENCODE [-compress-mode MODE] fatbin_kernel.cu -o k.o
#   objcopy -O binary --only-section=.nv_fatbin k.o NAME.fatbin
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one() {   # NAME, then nvcc options
    name=$1; shift
    "$NVCC" -c -cudart shared "$@" fatbin_kernel.cu -o "$tmp/k.o"
    objcopy -O binary --only-section=.nv_fatbin "$tmp/k.o" "$name.fatbin"
    echo "$name.fatbin: $(stat -c %s "$name.fatbin") bytes ($*)"
}
one ptx75_zstd  -gencode arch=compute_75,code=compute_75                        # nvcc 13's default: zstd
one ptx75_lz4   -gencode arch=compute_75,code=compute_75 -compress-mode speed   # LZ4 block
one ptx75_plain -gencode arch=compute_75,code=compute_75 -compress-mode none
one sass75_only -gencode arch=compute_75,code=sm_75                             # no PTX
one multi       -gencode arch=compute_75,code=compute_75 -gencode arch=compute_86,code=compute_86 \
                -gencode arch=compute_80,code=sm_80
