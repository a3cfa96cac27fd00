# The build's one Rust toolchain: NCCC_CARGO and NCCC_RUSTC, chosen here
# once for every cargo command of the build, its tests and tools/demo.sh
# (through the script examples/CMakeLists.txt writes). Two cargos must
# never share a Cargo.lock: a newer cargo writes a lock file an older one
# cannot read. Debian's cargo and rustc (/usr/bin) are preferred, as on a
# fresh machine, else the first on PATH; set either cache variable to
# choose another: the configure that sees a new cargo removes the lock
# files of the build tree, which the new cargo then writes again (no
# crate comes from a registry, so nothing else is lost).
include_guard(GLOBAL)
find_program(NCCC_CARGO NAMES cargo HINTS /usr/bin NO_DEFAULT_PATH)
find_program(NCCC_CARGO NAMES cargo)
find_program(NCCC_RUSTC NAMES rustc HINTS /usr/bin NO_DEFAULT_PATH)
find_program(NCCC_RUSTC NAMES rustc)
if(NCCC_CARGO AND DEFINED CACHE{NCCC_CARGO_OF_LOCKS}
   AND NOT NCCC_CARGO_OF_LOCKS STREQUAL NCCC_CARGO)
  file(GLOB_RECURSE _nccc_locks "${PROJECT_BINARY_DIR}/Cargo.lock")
  if(_nccc_locks)
    file(REMOVE ${_nccc_locks})
  endif()
endif()
set(NCCC_CARGO_OF_LOCKS "${NCCC_CARGO}" CACHE INTERNAL
    "the cargo the build's Cargo.lock files were written by")
if(NOT NCCC_CARGO OR NOT NCCC_RUSTC)
  message(WARNING "nccc: cargo or rustc not found; the Rust tests and the "
                  "Rust demo are not built (apt-get install cargo rustc)")
endif()

# nccc_generate_rust(IDL DIR WHAT): the custom command writing DIR/M.rs
# (nccc-stubgen --lang rust) from IDL at build time, for a Rust test
# (WHAT names it in the build's messages).
function(nccc_generate_rust idl dir what)
  get_filename_component(_m ${idl} NAME_WE)
  file(GLOB_RECURSE _stubgen_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/stubgen/*.py)
  add_custom_command(
    OUTPUT ${dir}/${_m}.rs
    COMMAND ${CMAKE_COMMAND} -E env "NCCC_PYTHON=${NCCC_PYTHON}"
            ${PROJECT_SOURCE_DIR}/bin/nccc-stubgen --lang rust -o ${dir} ${idl}
    DEPENDS ${idl} ${_stubgen_sources} ${PROJECT_SOURCE_DIR}/bin/nccc-stubgen
    COMMENT "nccc-stubgen --lang rust ${_m} (${what})"
    VERBATIM)
endfunction()
