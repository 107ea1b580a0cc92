# fuzz.cmake - the fuzz harnesses of tests/fuzz (docs/fuzzing.md); included at the end of CMakeLists.txt.
#
# Every build (any compiler, WARPSIM_FUZZ off) compiles each harness with
# tests/fuzz/standalone_main.c into fuzz_<target>_replay, and ctest replays
#   fuzz_regress_<target>: tests/fuzz/regressions/<target>/ (every crash ever found)
#   fuzz_corpus_<target>:  the seed corpus tests/fuzz/corpus.sh assembles in <build>/fuzz-corpus/
# so the harnesses keep compiling and old crashes stay fixed, under the sanitizer builds too.
#
# With -DWARPSIM_FUZZ=ON (clang only) the simulator libraries (HeteroPDP's and the fatbinary parser's too)
# are instrumented for libFuzzer (-fsanitize=fuzzer-no-link,address,undefined) and each harness is also
# linked with libFuzzer into fuzz_<target>; `make fuzz` builds them in build-fuzz and runs them
# (tests/fuzz/run.sh).

option(WARPSIM_FUZZ "Build the libFuzzer harnesses fuzz_<target> (needs clang)" OFF)

set(WS_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
set(WS_FUZZ_TARGETS ptx_load ptx_exec ptx_timing config graph trace pdp_dataset pdp_model pdp_bubble fatbin)
set(WS_FUZZ_EXTRA_ptx_exec ${WS_FUZZ_DIR}/fuzz_ptx_run.c)
set(WS_FUZZ_EXTRA_ptx_timing ${WS_FUZZ_DIR}/fuzz_ptx_run.c)
# libraries a harness needs besides warpsim_workloads and warpsim_lib
set(WS_FUZZ_LIBS_pdp_dataset warpsim_pdp)
set(WS_FUZZ_LIBS_pdp_model warpsim_pdp)
set(WS_FUZZ_LIBS_pdp_bubble warpsim_pdp)
# the fatbinary parser (src/cudart/fatbin.c, libzstd and liblz4) needs no simulator library; warpsim_fatbin is
# defined after this file is included (CMakeLists.txt), so it is instrumented at the end of the directory
set(WS_FUZZ_LIBS_fatbin warpsim_fatbin)
set(WS_FUZZ_ONLY_LIBS_fatbin ON)

if(WARPSIM_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WARPSIM_FUZZ needs clang (libFuzzer): configure with -DCMAKE_C_COMPILER=clang")
  endif()
  set(WS_FUZZ_SAN -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  foreach(lib warpsim_lib warpsim_workloads warpsim_pdp)
    target_compile_options(${lib} PRIVATE -fsanitize=fuzzer-no-link ${WS_FUZZ_SAN})
    # whatever links the instrumented libraries (the CLI, unit tests) needs the sanitizer runtimes
    target_link_options(${lib} INTERFACE -fsanitize=address,undefined)
  endforeach()
  add_custom_target(fuzz_harnesses)
  function(ws_fuzz_instrument_fatbin)
    target_compile_options(warpsim_fatbin PRIVATE -fsanitize=fuzzer-no-link ${WS_FUZZ_SAN})
    target_link_options(warpsim_fatbin INTERFACE -fsanitize=address,undefined)
    # the CUDA runtime library, a shared object linked with --no-undefined, links the instrumented parser: it
    # takes the sanitizer runtimes as shared libraries (so that the fuzz tree's other targets still build)
    target_link_options(warpsim_cudart PRIVATE -shared-libsan)
  endfunction()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL ws_fuzz_instrument_fatbin)
endif()

foreach(t ${WS_FUZZ_TARGETS})
  set(src ${WS_FUZZ_DIR}/fuzz_${t}.c ${WS_FUZZ_EXTRA_${t}})
  set(libs ${WS_FUZZ_LIBS_${t}})
  if(NOT WS_FUZZ_ONLY_LIBS_${t})
    list(APPEND libs warpsim_workloads warpsim_lib)
  endif()
  add_executable(fuzz_${t}_replay ${src} ${WS_FUZZ_DIR}/standalone_main.c)
  target_include_directories(fuzz_${t}_replay PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(fuzz_${t}_replay PRIVATE ${libs})
  add_test(NAME fuzz_regress_${t} COMMAND fuzz_${t}_replay ${WS_FUZZ_DIR}/regressions/${t})
  add_test(NAME fuzz_corpus_${t} COMMAND fuzz_${t}_replay ${CMAKE_BINARY_DIR}/fuzz-corpus/${t})
  set_tests_properties(fuzz_regress_${t} fuzz_corpus_${t} PROPERTIES TIMEOUT 600 LABELS fuzz)
  set_tests_properties(fuzz_corpus_${t} PROPERTIES FIXTURES_REQUIRED fuzz_corpus)
  if(WARPSIM_FUZZ)
    add_executable(fuzz_${t} ${src})
    target_compile_options(fuzz_${t} PRIVATE -fsanitize=fuzzer ${WS_FUZZ_SAN})
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_include_directories(fuzz_${t} PRIVATE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(fuzz_${t} PRIVATE ${libs})
    add_dependencies(fuzz_harnesses fuzz_${t})
  endif()
endforeach()
add_test(NAME fuzz_corpus_setup COMMAND bash ${WS_FUZZ_DIR}/corpus.sh ${CMAKE_BINARY_DIR}/fuzz-corpus)
set_tests_properties(fuzz_corpus_setup PROPERTIES FIXTURES_SETUP fuzz_corpus LABELS fuzz)
