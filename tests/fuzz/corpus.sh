#!/usr/bin/env bash
# corpus.sh DEST - assemble the seed corpora of the fuzz harnesses (docs/fuzzing.md) in
# DEST/<target>/ from the project's own files, plus a dictionary DEST/<target>.dict per target:
#
#   ptx_load    workloads/*/*.ptx, tests/ptx_bad/*.ptx
#   ptx_exec    the same PTX behind launch headers (4 bytes, tests/fuzz/fuzz_ptx_run.h)
#   ptx_timing  the same as ptx_exec
#   config      configs/*.config; a preset that includes another (-config X) becomes
#               "preset with the include renamed other.config" NUL "X", the harness's two-file form
#   graph       workloads/bfs/data/*.graph and a few small graphs written here
#   trace       small ChampSim traces written here: plain, gzip and xz (when gzip/xz are installed),
#               a truncated one, an empty one
#   pdp_dataset a few small HeteroPDP training CSVs written here
#   pdp_model   models/*.model (HeteroPDP's published model)
#   pdp_bubble  two small Bubble-up slowdown tables written here
#   fatbin      tests/cudart/*.fatbin (nvcc's .nv_fatbin sections: plain, zstd, LZ4, SASS-only,
#               multi-architecture), two of them laid end to end with padding between, a truncated one
#
# and for every target tests/fuzz/seeds/<target>/* (hand-made seeds) and
# tests/fuzz/regressions/<target>/* (every crash found so far).  Files already in DEST/<target>
# (inputs a fuzzer added) are kept; seed files are overwritten.  Names say where a seed came from.
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 DEST" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dest=$1
# HeteroPDP's feature names (src/pdp/features.h), in column order
pdp_feats=$(sed -n 's/^ *X([A-Z_]*, *"\([a-z_0-9]*\)".*/\1/p' "$root/src/pdp/features.h")
targets="ptx_load ptx_exec ptx_timing config graph trace pdp_dataset pdp_model pdp_bubble fatbin"
for t in $targets; do
    mkdir -p "$dest/$t"
done

# ---- PTX --------------------------------------------------------------------------------
for f in "$root"/workloads/*/*.ptx; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .ptx)
    cp "$f" "$dest/ptx_load/wl-$n.ptx"
    # header: grid shape, block shape, (dyn smem | warp sched << 2 | CTA sched << 5), scalar seed
    { printf '\000\000\000\005'; cat "$f"; } > "$dest/ptx_exec/wl-$n-1x32.ptx"
    { printf '\003\011\105\011'; cat "$f"; } > "$dest/ptx_exec/wl-$n-4x64.ptx"
    cp "$dest/ptx_exec/wl-$n-1x32.ptx" "$dest/ptx_exec/wl-$n-4x64.ptx" "$dest/ptx_timing/"
done
for f in "$root"/tests/ptx_bad/*.ptx; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .ptx)
    cp "$f" "$dest/ptx_load/bad-$n.ptx"
    { printf '\000\000\000\005'; cat "$f"; } > "$dest/ptx_exec/bad-$n.ptx"
done

# ---- configs ----------------------------------------------------------------------------
for f in "$root"/configs/*.config; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .config)
    inc=$(sed -n 's/^[[:space:]]*-config[[:space:]]\{1,\}\([^[:space:]#]*\).*/\1/p' "$f" | head -n 1)
    if [ -n "$inc" ] && [ -f "$root/configs/$inc" ]; then
        { sed 's/^\([[:space:]]*-config[[:space:]]\{1,\}\)[^[:space:]#]*/\1other.config/' "$f"
          printf '\000'
          cat "$root/configs/$inc"; } > "$dest/config/preset-$n.config"
    else
        cp "$f" "$dest/config/preset-$n.config"
    fi
done

# ---- ChampSim traces (64-byte records: ip, branch flags, registers, memory addresses) ---------
trace_rec() {   # trace_rec IP_BYTE BRANCH TAKEN LOAD_BYTE STORE_BYTE: one 64-byte record, little-endian
    z8='\0\0\0\0\0\0\0\0'
    printf "\x$1\x10\x40\0\0\0\0\0"                   # ip
    printf "\x$2\x$3\x01\x00\x02\x03\x00\x00"        # is_branch, branch_taken, 2 destination + 4 source registers
    printf "\x$5\x20\0\0\0\0\0\0$z8"                 # destination memory [2]
    printf "\x$4\x30\0\0\0\0\0\0$z8$z8$z8"           # source memory [4]
}
{ trace_rec 00 00 00 40 00; trace_rec 04 01 01 00 00; trace_rec 08 00 00 00 80; trace_rec 0c 01 00 c0 c0; } \
    > "$dest/trace/gen-4.trace"
head -c 100 "$dest/trace/gen-4.trace" > "$dest/trace/gen-truncated.trace"
: > "$dest/trace/gen-empty.trace"
if command -v gzip >/dev/null 2>&1; then
    gzip -c "$dest/trace/gen-4.trace" > "$dest/trace/gen-4.trace.gz"
fi
if command -v xz >/dev/null 2>&1; then
    xz -c "$dest/trace/gen-4.trace" > "$dest/trace/gen-4.trace.xz"
fi

# ---- graphs -----------------------------------------------------------------------------
for f in "$root"/workloads/bfs/data/*.graph; do
    [ -f "$f" ] || continue
    cp "$f" "$dest/graph/wl-$(basename "$f")"
done
printf '1\n0 0\n0\n0\n' > "$dest/graph/gen-single.graph"
printf '3\n0 2\n2 1\n3 0\n\n1\n3\n0 1\n2 1\n0 1\n' > "$dest/graph/gen-cycle.graph"
printf '2\r\n\r\n0 1\r\n1 1\r\n\r\n1\r\n\r\n2\r\n1 1\r\n0 1\r\n' > "$dest/graph/gen-crlf.graph"
printf '4\n0 1\n1 0\n1 1\n2 0\n2\n2\n3 5\n0 7\n' > "$dest/graph/gen-unreachable.graph"

# ---- HeteroPDP: training CSVs (src/pdp/dataset.h) and model files (src/pdp/model.h) ----------
printf 'kernel,threads,buffer_bytes,cpu_salu,time_cpu_alone,time_gpu_alone\na,1024,4096,7,1.5,0.5\nb,2048,8192,9,,0.25\n' \
    > "$dest/pdp_dataset/gen-small.csv"
printf '# comment\r\n\r\nthreads,"time_cpu_coloc",extra\r\n1,2,"x ""y"""\r\n 3 ,4,\r\n' > "$dest/pdp_dataset/gen-crlf.csv"
{
    printf 'kernel'
    for f in $pdp_feats time_cpu_alone time_gpu_alone time_cpu_coloc time_gpu_coloc; do printf ',%s' "$f"; done
    printf '\n'
    for k in 1 2 3; do
        printf '"k,%s"' "$k"
        for f in $pdp_feats; do printf ',%s' "$k.5e$k"; done
        printf ',%s,%s,%s,%s\n' "$k" "0.$k" "1e-$k" "$k$k"
    done
} > "$dest/pdp_dataset/gen-all-columns.csv"
for f in "$root"/models/*.model; do
    [ -f "$f" ] || continue
    cp "$f" "$dest/pdp_model/wl-$(basename "$f")"
done
# Bubble-up slowdown tables (src/pdp/bubble.h)
printf 'app,kind,cores,footprint,slowdown\nmcf,cpu,1,65536,1.02\nmcf,cpu,3,8388608,1.41\nmcf,dma,1,0,1.13\n' \
    > "$dest/pdp_bubble/gen-mcf.csv"
printf '# measured\r\n\r\napp,kind,cores,footprint,slowdown\r\nlbm,cpu,2,1e6,1.5\r\nlbm,dma,1,0,1e-3\r\n' \
    > "$dest/pdp_bubble/gen-crlf.csv"

# ---- CUDA fatbinaries (src/cudart/fatbin.h) ------------------------------------------------
for f in "$root"/tests/cudart/*.fatbin; do
    [ -f "$f" ] || continue
    cp "$f" "$dest/fatbin/wl-$(basename "$f")"
done
if [ -f "$root/tests/cudart/ptx75_zstd.fatbin" ] && [ -f "$root/tests/cudart/ptx75_lz4.fatbin" ]; then
    { cat "$root/tests/cudart/ptx75_zstd.fatbin"; printf '\0\0\0\0\0\0\0\0'
      cat "$root/tests/cudart/ptx75_lz4.fatbin"; } > "$dest/fatbin/gen-two-containers.fatbin"
    head -c 200 "$root/tests/cudart/ptx75_zstd.fatbin" > "$dest/fatbin/gen-truncated.fatbin"
fi

# ---- hand-made seeds and regressions ----------------------------------------------------
for t in $targets; do
    for kind in seeds regressions; do
        for f in "$here/$kind/$t"/*; do
            [ -f "$f" ] || continue
            cp "$f" "$dest/$t/$kind-$(basename "$f")"
        done
    done
done

# ---- dictionaries (libFuzzer -dict): tokens of the project's own files --------------------
dict_words() {   # quote every line of stdin as a dictionary entry
    LC_ALL=C sort -u | sed -n 's/\\/\\\\/g; s/"/\\"/g; s/^\(..*\)$/"\1"/p'
}
{
    # opcodes with their modifiers and directives; not register names (r12, fd3) or parameter names
    cat "$root"/workloads/*/*.ptx | LC_ALL=C grep -oE '\.?[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*' |
        LC_ALL=C grep -vE '^[a-z]{1,3}[0-9]+$|_param_[0-9]+$|^_|\.cu$' || true
    printf '%s\n' '%tid.x' '%ntid.x' '%ctaid.x' '%nctaid.x' '%laneid' '%warpid' '%smid' '%nsmid' '%clock' \
        '{' '}' ';' ',' '[' ']' '@%p' '@!%p' '0f3F800000' '0d3FF0000000000000' '<' '>'
} | dict_words > "$dest/ptx_load.dict"
cp "$dest/ptx_load.dict" "$dest/ptx_exec.dict"
cp "$dest/ptx_load.dict" "$dest/ptx_timing.dict"
{
    sed -n 's/^[[:space:]]*O("\([^"]*\)".*/-\1/p' "$root/src/sys/gpu_config.c"
    cat "$root"/configs/*.config | LC_ALL=C grep -oE '^-[A-Za-z0-9_:.]+' || true
    sed -n 's/^X(\([a-z_]*\), *\([a-z_0-9]*\)).*/\2/p' "$root/src/policy/registry.def"
    printf '%s\n' '-config' 'other.config' 'main.config' './other.config' '"' '#' 'true' 'false' '0x'
} | dict_words > "$dest/config.dict"
{
    printf '%s\n' '"\x0A"' '" "' '"\x0D\x0A"' '"\x09"'
    printf '%s\n' '-1' '2147483647' '2147483648' '99999999999' '0 0' '1 1' | dict_words
} > "$dest/graph.dict"
{
    printf '%s\n' $pdp_feats kernel time_cpu_alone time_gpu_alone time_cpu_coloc time_gpu_coloc | dict_words
    printf '%s\n' '","' '"\"\""' '"\x0A"' '"\x0D\x0A"' '"#"'
} > "$dest/pdp_dataset.dict"
{
    printf '%s\n' $pdp_feats heteropdp-model name note model end term stat cpu gpu alone coloc nan \
        rows folds rank r2 cv_r2 cv_mape cv_within20 groups groups_kept 'heteropdp-model 1' 'model cpu alone' \
        'term threads 1 ' 'stat rows ' | dict_words
    printf '%s\n' '"\x0A"' '" "' '"#"' '"1e308"' '"4294967296"'
} > "$dest/pdp_model.dict"
{
    printf '%s\n' app kind cores footprint slowdown cpu dma 'app,kind,cores,footprint,slowdown' | dict_words
    printf '%s\n' '","' '"\x0A"' '"\x0D\x0A"' '"#"' '"1e308"' '"-1"' '"4294967296"' '"nan"' '"inf"'
} > "$dest/pdp_bubble.dict"
# dictionary: the container and wrapper magic numbers, entry kinds and flags (zstd, LZ4), architectures,
# the zstd frame magic, sizes near the limits
printf '%s\n' '"\x50\xed\x55\xba"' '"\xb1\x43\x62\x46"' '"\x01\x00\x10\x00"' '"\x01\x00\x01\x01"' \
    '"\x02\x00\x01\x01"' '"\x40\x00\x00\x00"' '"\x11\x80\x00\x00"' '"\x11\x20\x00\x00"' '"\x4b\x00\x00\x00"' \
    '"\x56\x00\x00\x00"' '"\x78\x00\x00\x00"' '"\x28\xb5\x2f\xfd"' '"\xff\xff\xff\xff"' \
    '"\x00\x00\x00\x00\x01\x00\x00\x00"' '".version"' '".target sm_"' > "$dest/fatbin.dict"
# dictionary: the gzip and xz magic numbers, eight zero bytes (an absent address), a taken branch's flags
printf '%s\n' '"\x1f\x8b\x08\x00"' '"\xfd7zXZ\x00"' '"\x00\x00\x00\x00\x00\x00\x00\x00"' '"\x01\x01"' \
    > "$dest/trace.dict"
