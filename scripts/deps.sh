#!/usr/bin/env bash
# Install the build dependencies that are missing (Debian/Ubuntu), or say which
# ones to install when we cannot (not root, no apt-get).
set -eu
need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc    >/dev/null 2>&1 || need+=(gcc)
command -v make  >/dev/null 2>&1 || need+=(make)
command -v clang >/dev/null 2>&1 || need+=(clang)   # `make test` also builds and tests with clang
# CMake finds libzstd, liblz4 and LAPACKE with pkg-config; the install test links a program with warpsim.pc
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# CPU instruction traces (src/cpu/trace.c) are read and written with zlib and liblzma
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
[ -f /usr/include/lzma.h ] || need+=(liblzma-dev)
# HeteroPDP's least-squares fits (src/pdp/model.c) call LAPACK's SVD solver through LAPACKE
[ -f /usr/include/lapacke.h ] || [ -f /usr/include/lapacke/lapacke.h ] || need+=(liblapacke-dev)
# the CUDA runtime library (src/cudart) decompresses the PTX that nvcc embeds (zstd, LZ4)
[ -f /usr/include/zstd.h ] || need+=(libzstd-dev)
[ -f /usr/include/lz4.h ] || need+=(liblz4-dev)
# plots and HTML reports (`warpsim report`, `compare --html`, python/warpsim: docs/report.md) use
# Debian's Python with pandas and matplotlib; tests/cli/report_test.sh renders the pages in headless Chromium
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c "import pandas" >/dev/null 2>&1 || need+=(python3-pandas)
/usr/bin/python3 -c "import matplotlib" >/dev/null 2>&1 || need+=(python3-matplotlib)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# libasan/libubsan come with gcc on Debian; nothing else is needed to build or test.
# `scripts/deps.sh fuzz` (make fuzz): also clang and libFuzzer's runtime (libclang-rt-N-dev, N = clang's major)
if [ "${1:-}" = fuzz ]; then
    case " ${need[*]-} " in *" clang "*) ;; *) command -v clang >/dev/null 2>&1 || need+=(clang) ;; esac
    if command -v clang >/dev/null 2>&1; then
        rt="libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
        probe=$(mktemp -d)
        printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
            > "$probe/p.c"
        clang -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" >/dev/null 2>&1 || need+=("$rt")
        rm -rf "$probe"
    else
        need+=(libclang-rt-14-dev)   # Debian 12's clang is clang 14
    fi
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
else
    echo "deps: please install: ${need[*]} (e.g. sudo apt-get install ${need[*]})" >&2
    exit 1
fi
