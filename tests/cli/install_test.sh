#!/usr/bin/env bash
# make install / cmake --install and the pkg-config file: install the build tree into a temporary prefix,
# check what lands where, build tests/cli/data/host_vecadd.c (a host program of its own) with
#   cc host_vecadd.c $(pkg-config --cflags --libs --static warpsim)
# and run it in timing and functional mode on workloads/vecadd/vecadd.ptx; a DESTDIR install keeps the prefix
# in warpsim.pc.  Exit 77 (ctest: skipped) without pkg-config.
# Usage: install_test.sh WARPSIM_BINARY SOURCE_DIR BUILD_DIR CMAKE CC [CFLAGS]
#   CC and CFLAGS: the compiler and flags the library was built with (a sanitizer build's runtimes)
. "$(dirname "$0")/testlib.sh"
BUILD=$3 CMAKE=$4 CC=$5 CFLAGS=${6:-}
if ! command -v pkg-config >/dev/null 2>&1; then
    echo "install_pkgconfig: skipped: pkg-config is missing (apt-get install pkg-config, or scripts/deps.sh)"
    exit 77
fi
P=$tmp/prefix
expect_rc 0 "cmake --install --prefix" "$CMAKE" --install "$BUILD" --prefix "$P"
for f in bin/warpsim include/warpsim/warpsim.h lib/libwarpsim.a lib/pkgconfig/warpsim.pc \
         lib/warpsim/libcudart.so.13 share/warpsim/python/warpsim/report.py; do
    [ -e "$P/$f" ] && ok || bad "installed: $f is missing"
done
[ -e "$P/lib/libcudart.so.13" ] && bad "libcudart.so.13 must stay out of PREFIX/lib (it would shadow CUDA's)" || ok

export PKG_CONFIG_PATH=$P/lib/pkgconfig
expect_rc 0 "pkg-config --modversion" pkg-config --modversion warpsim
version=$(cat "$tmp/out")
"$P/bin/warpsim" --version 2>&1 | grep -qF "$version" && ok ||
    bad "pkg-config's version $version is warpsim --version's"
expect_rc 0 "pkg-config --cflags --libs --static" pkg-config --cflags --libs --static warpsim
flags=$(cat "$tmp/out")
case " $flags " in *" -I$P/include "*) ok ;; *) bad "Cflags name the installed headers: $flags" ;; esac
case " $flags " in *" -L$P/lib -lwarpsim "*) ok ;; *) bad "Libs name the installed library: $flags" ;; esac
for l in -lm -lz -llzma; do
    case " $flags " in *" $l "*) ok ;; *) bad "--static adds the library's own dependency $l: $flags" ;; esac
done

# shellcheck disable=SC2086  # the flags are words
expect_rc 0 "build host_vecadd.c against the installed library" \
    "$CC" $CFLAGS -std=c11 -Wall -Wextra -Werror "$SRC/tests/cli/data/host_vecadd.c" -o "$tmp/host_vecadd" $flags
[ -s "$tmp/err" ] && bad "building host_vecadd.c printed: $(head -3 "$tmp/err")" || ok
for mode in timing functional; do
    expect_rc 0 "host_vecadd ($mode)" "$tmp/host_vecadd" "$SRC/workloads/vecadd/vecadd.ptx" $mode
    grep -qE "^vecadd n=10007: ok; 1 kernel\(s\), 16 CTAs, [1-9][0-9]* warp instructions" "$tmp/out" && ok ||
        bad "host_vecadd ($mode) output: $(cat "$tmp/out" "$tmp/err" | head -3)"
done
grep -qE "[1-9][0-9]* GPU cycles$" "$tmp/out" && bad "functional mode counts no GPU cycles" || ok

# the installed command runs on its own
expect_rc 0 "installed warpsim run" "$P/bin/warpsim" run vecadd --size tiny --functional

# DESTDIR (packaging): files under DESTDIR, the prefix in warpsim.pc without it
expect_rc 0 "DESTDIR install" env DESTDIR="$tmp/stage" "$CMAKE" --install "$BUILD" --prefix /opt/warpsim
grep -qx "prefix=/opt/warpsim" "$tmp/stage/opt/warpsim/lib/pkgconfig/warpsim.pc" 2>/dev/null && ok ||
    bad "DESTDIR install: warpsim.pc's prefix is /opt/warpsim"
finish
