# The libFuzzer targets of test/fuzz/ (a project of its own, built with
# clang and -fsanitize=fuzzer,address,undefined) as part of the main
# build, and a ctest test per target that runs it for a bounded number of
# executions (NCCC_FUZZ_RUNS, default 100000: seconds) from a fixed seed,
# inputs up to 1 KiB, label fuzz. Plain builds only: the targets carry their own sanitizers.
# test/fuzz/run_long.sh runs them for long (docs/RPC.md, "Fuzzing").
include_guard(GLOBAL)
include(ExternalProject)

find_program(NCCC_CLANG NAMES clang-14 clang)
set(_ok FALSE)
if(NCCC_CLANG)
  # libFuzzer's runtime is a separate package on Debian (libclang-rt-14-dev)
  set(_probe "${PROJECT_BINARY_DIR}/fuzz_probe")
  file(WRITE "${_probe}.c"
       "#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND "${NCCC_CLANG}" -fsanitize=fuzzer,address,undefined
                          "${_probe}.c" -o "${_probe}"
                  RESULT_VARIABLE _r OUTPUT_QUIET ERROR_QUIET)
  if(_r EQUAL 0)
    set(_ok TRUE)
  endif()
endif()
if(NOT _ok)
  message(WARNING "nccc: clang with libFuzzer not found; the fuzz targets are "
                  "not built (apt-get install clang libclang-rt-14-dev)")
  return()
endif()

set(NCCC_FUZZ_RUNS 100000 CACHE STRING "executions of each fuzz target in ctest")
set(NCCC_FUZZ_DIR "${PROJECT_BINARY_DIR}/fuzz")
ExternalProject_Add(nccc_fuzz
  SOURCE_DIR "${PROJECT_SOURCE_DIR}/test/fuzz"
  BINARY_DIR "${NCCC_FUZZ_DIR}"
  CMAKE_ARGS "-DCMAKE_C_COMPILER=${NCCC_CLANG}" "-DCMAKE_BUILD_TYPE=RelWithDebInfo"
  BUILD_ALWAYS ON
  INSTALL_COMMAND "")
foreach(_target frame server client session)
  add_test(NAME fuzz_${_target}
           COMMAND "${NCCC_FUZZ_DIR}/fuzz_${_target}" -runs=${NCCC_FUZZ_RUNS}
                   -seed=1 -max_len=1024)
  set_tests_properties(fuzz_${_target} PROPERTIES LABELS "fuzz;rpc")
endforeach()
