# warpsim - convenience front end over CMake.
#
#   make run     install what is missing, build, run the main job (bfs, small, GTX480 timing model, verified)
#                and write its HTML report (build/bfs-small.html; needs Python with pandas and matplotlib)
#   make install PREFIX=/usr/local   build and install the warpsim command, the host API's header, library
#                (libwarpsim.a) and pkg-config file, and the CUDA runtime library (PREFIX/lib/warpsim/)
#   make test    install what is missing, build four trees (gcc RelWithDebInfo, gcc ASan/UBSan Debug,
#                gcc Release, clang Debug), run the tests in each (the policy matrix and the per-workload
#                thread tests, labels policy_matrix and threads,
#                in the two gcc optimised builds only), and a short run of every fuzz harness
#   make ptx     regenerate workloads/*/*.ptx and *.ptxas with nvcc/ptxas (needs the CUDA toolkit)
#   make bench   timing-model speed benchmark (make bench-functional: the functional executor)
#   make tsan    ThreadSanitizer build and the thread tests (minutes)
#   make test-slow   also the small-size workload runs (minutes)

BUILD       ?= build
BUILD_SAN   ?= build-san
BUILD_REL   ?= build-release
BUILD_CLANG ?= build-clang
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build build-san build-release build-clang build-matrix run install test test-slow tsan bench bench-functional ptx clean fuzz fuzz-build fuzz-smoke

all: build

deps:
	@bash scripts/deps.sh

# The developer and CI builds treat warnings as errors (WARPSIM_WERROR); a plain `cmake` build does not.
build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-san: deps
	@cmake -S . -B $(BUILD_SAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON -DWARPSIM_WERROR=ON >/dev/null
	@cmake --build $(BUILD_SAN) -j $(JOBS)

build-release: deps
	@cmake -S . -B $(BUILD_REL) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DWARPSIM_WERROR=ON >/dev/null
	@cmake --build $(BUILD_REL) -j $(JOBS)

build-clang: deps
	@CC=clang cmake -S . -B $(BUILD_CLANG) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_WERROR=ON >/dev/null
	@cmake --build $(BUILD_CLANG) -j $(JOBS)

# the main job, then its HTML report; a missing Python (the report says why) does not fail the run
run: build
	./$(BUILD)/warpsim run bfs --size small -o $(BUILD)/bfs-small.json
	@if ./$(BUILD)/warpsim report $(BUILD)/bfs-small.json -o $(BUILD)/bfs-small.html; then \
	    echo "report of the main job: $(BUILD)/bfs-small.html (file://$(abspath $(BUILD))/bfs-small.html)"; \
	else echo "no report of the main job written (see above); the run itself succeeded"; fi

# cmake --install: PREFIX/bin/warpsim, PREFIX/include/warpsim/, PREFIX/lib/libwarpsim.a and
# PREFIX/lib/pkgconfig/warpsim.pc, PREFIX/lib/warpsim/libcudart.so.*, PREFIX/share/warpsim/python (DESTDIR works)
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

test: build build-san build-release build-clang
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE slow
	cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -LE "slow|policy_matrix|threads"
	cd $(BUILD_REL) && ctest --output-on-failure -j $(JOBS) -LE slow
	cd $(BUILD_CLANG) && ctest --output-on-failure -j $(JOBS) -LE "slow|policy_matrix|threads"
	$(MAKE) --no-print-directory fuzz-smoke

test-slow: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L slow

# Every build type with gcc and clang, warnings as errors (make test covers four of the eight;
# this is the whole matrix, for a change to the build or to compiler-sensitive code).
# MATRIX_TEST=1 also runs the test suite in each.
MATRIX_DIR ?= build-matrix
build-matrix: deps
	@set -e; for cc in gcc clang; do for t in Debug Release RelWithDebInfo MinSizeRel; do \
	    d=$(MATRIX_DIR)/$$cc-$$t; echo "== $$cc $$t ($$d)"; \
	    CC=$$cc cmake -S . -B $$d $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=$$t -DWARPSIM_WERROR=ON >/dev/null; \
	    cmake --build $$d -j $(JOBS) >$$d/build.log 2>&1 || { tail -40 $$d/build.log; exit 1; }; \
	    if [ -n "$(MATRIX_TEST)" ]; then (cd $$d && ctest -j $(JOBS) -LE slow --output-on-failure | tail -3); fi; \
	done; done

# ThreadSanitizer build (build-tsan/) and the thread tests in it: no data race may be reported while the
# SMs tick on several threads (docs/timing.md, "Threads").  Minutes; not part of make test.
BUILD_TSAN ?= build-tsan
tsan: deps
	@cmake -S . -B $(BUILD_TSAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-fsanitize=thread \
	    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
	@cmake --build $(BUILD_TSAN) -j $(JOBS)
	cd $(BUILD_TSAN) && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -LE slow -R "^threads_|test_workers"

bench: build
	./$(BUILD)/warpsim bench

bench-functional: build
	./$(BUILD)/warpsim bench --functional

# ---- PTX generation (only when a .cu changes; the .ptx files are committed) ----
NVCC      ?= nvcc
PTXAS     ?= ptxas
PTX_ARCH  ?= compute_75
SASS_ARCH ?= sm_75
WL_CU  := $(wildcard workloads/*/*.cu)
WL_PTX := $(WL_CU:.cu=.ptx)

ptx: $(WL_PTX)

workloads/%.ptx: workloads/%.cu
	@echo "nvcc  $<"
	@{ echo "// GENERATED by 'make ptx' from $(notdir $<): $(NVCC) -ptx -arch=$(PTX_ARCH) -O3. Do not edit."; \
	   $(NVCC) -ptx -arch=$(PTX_ARCH) -O3 -o - $<; } > $@.tmp && mv $@.tmp $@
	@$(PTXAS) -v -arch=$(SASS_ARCH) -o /dev/null $@ 2>&1 | grep -E "Compiling entry|Used|Function properties|stack frame" \
	   | sed 's/^ptxas info *: *//' > $(@:.ptx=.ptxas)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_REL) $(BUILD_CLANG) $(BUILD_TSAN) $(MATRIX_DIR) $(BUILD_FUZZ)

# ---- fuzzing (docs/fuzzing.md): libFuzzer harnesses of tests/fuzz, built with clang in $(BUILD_FUZZ) ----
#   make fuzz FUZZ_SECONDS=60   every harness for FUZZ_SECONDS, one after the other; exit 1 if one found something
#   make fuzz-smoke             the same, 8 s each
BUILD_FUZZ   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

fuzz-build:
	@bash scripts/deps.sh fuzz
	@cmake -S . -B $(BUILD_FUZZ) $(CMAKE_GEN) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	   -DWARPSIM_FUZZ=ON -DWARPSIM_WERROR=OFF >/dev/null
	@cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_harnesses

fuzz: fuzz-build
	@bash tests/fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	@bash tests/fuzz/run.sh $(BUILD_FUZZ) 8 $(FUZZ_TARGETS)
