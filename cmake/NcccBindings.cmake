# nccc_add_bindings(<target> <file.idl> [LANGS c ...] [OUTPUT_DIR <dir>]
#                   [MODULE <name>] [SHARED])
#
# Generates the nccc wrappers of an IDL file with bin/nccc-stubgen and
# builds the C ones into the static library <target>, linked to
# nccc::runtime; with SHARED, into a shared library a host can load. The generation re-runs when the IDL or the generator
# changes. <target> gets the output directory as a PUBLIC include
# directory (for <module>_nccc.h) and the IDL's own directory as a
# PRIVATE one (for its #include "..." lines). Link the library the IDL
# describes to <target> yourself.
#
# LANGS: targets of the generator: c (always made: it is <target>'s
#   library), lua (<module>.lua), python (<module>.py and its stubs
#   <module>.pyi), scheme (<module>.sls, with <module>.scm
#   and <module>.rkt for Guile's and Racket's module systems), js
#   (<module>.mjs and <module>.d.ts, docs/JS.md), rust (<module>.rs,
#   docs/RUST.md); the host modules go to OUTPUT_DIR beside the C files.
# OUTPUT_DIR: where the files go (default: ${CMAKE_CURRENT_BINARY_DIR}/nccc/<target>).
# MODULE: the IDL's module name; read from its "module NAME" line if absent.
#   Required when the IDL is made at build time: the OUTPUT of an
#   add_custom_command in the same directory, which cannot be read at
#   configure time (the generation then runs after that command, and
#   again whenever it changes the IDL).
# SHARED: <target> is a shared library (lib<target>.so) holding the whole
#   runtime (libnccc_runtime.a, position-independent, linked whole), the
#   wrappers and their entry point nccc_<module>_open: what a host loads
#   (nccc.open / nccc-load) and binds the generated module to, which calls
#   nccc_<module>_open itself. Link the library the IDL describes to it.
#   Needs CMake 3.24 (WHOLE_ARCHIVE). A later nccc_add_bindings with the
#   same <target> adds its module's wrappers (and nccc_<module>_open) to
#   that library: one library, one runtime, several modules.
#   Under emscripten (emcmake cmake) the library is <target>.wasm, a
#   standalone wasm module for the JavaScript host (docs/JS.md, "Building
#   for wasm"): the runtime, the wrappers and the host's dispatcher import
#   (bindings/js/wasm/nccc_js.c); it exports nccc_root, each
#   nccc_<module>_open and the functions listed in the target property
#   NCCC_WASM_EXPORTS (append your own C entry points there). In a build
#   configured with -pthread in CMAKE_C_FLAGS it is <target>.js (with
#   <target>.wasm and <target>.worker.js): emscripten's glue, which a
#   threaded module needs (docs/JS.md, "Threads").
#
# Works in the nccc source tree (this file in <root>/cmake) and from an
# installed package (this file next to ncccConfig.cmake, somewhere under
# <prefix>): the generator is found relative to this file.
include_guard(GLOBAL)

set(_NCCC_BINDINGS_DIR "${CMAKE_CURRENT_LIST_DIR}")

# Finds bin/nccc-stubgen in a directory above this file, with the stubgen
# package where the script itself looks for it; sets NCCC_STUBGEN and
# NCCC_STUBGEN_SOURCES (what the generated files depend on: the script, the
# grammar, the ABI description and the package).
function(_nccc_find_stubgen)
  set(dir "${_NCCC_BINDINGS_DIR}")
  foreach(level RANGE 5)
    get_filename_component(dir "${dir}" DIRECTORY)
    set(script "${dir}/bin/nccc-stubgen")
    if(EXISTS "${script}" AND EXISTS "${dir}/stubgen/cli.py")
      set(pkg "${dir}/stubgen")
      set(idl_files "${dir}/idl/nccc.lark;${dir}/idl/abi.json")
    elseif(EXISTS "${script}" AND EXISTS "${dir}/share/nccc/stubgen/cli.py")
      set(pkg "${dir}/share/nccc/stubgen")
      set(idl_files "${dir}/share/nccc/idl/nccc.lark;${dir}/share/nccc/idl/abi.json")
    else()
      continue()
    endif()
    file(GLOB_RECURSE sources "${pkg}/*.py")
    set(NCCC_STUBGEN "${script}" PARENT_SCOPE)
    set(NCCC_STUBGEN_SOURCES "${script};${idl_files};${sources}" PARENT_SCOPE)
    return()
  endforeach()
  message(FATAL_ERROR "nccc: bin/nccc-stubgen not found above ${_NCCC_BINDINGS_DIR}")
endfunction()

# The wasm module of nccc_add_bindings(... SHARED) under emscripten: a
# standalone module (no emscripten JavaScript glue) that imports only the
# JavaScript host's one dispatcher and a few system calls, which the
# support library supplies (bindings/js/nccc/runtime.mjs).
function(_nccc_wasm_module target module)
  get_filename_component(js "${_NCCC_BINDINGS_DIR}/../bindings/js/wasm" ABSOLUTE)
  if(NOT EXISTS "${js}/nccc_js.c")
    # installed: PREFIX/lib/cmake/nccc and PREFIX/lib/node_modules/nccc
    get_filename_component(js "${_NCCC_BINDINGS_DIR}/../../node_modules/nccc/wasm" ABSOLUTE)
  endif()
  add_executable(${target} ${ARGN} "${js}/nccc_js.c")
  set_target_properties(${target} PROPERTIES SUFFIX ".wasm" NCCC_BINDINGS_SHARED ON
    NCCC_WASM_EXPORTS "nccc_root;nccc_js_dispatcher;malloc;free;nccc_${module}_open")
  target_link_libraries(${target} PRIVATE nccc::runtime)
  set(exports "$<TARGET_PROPERTY:${target},NCCC_WASM_EXPORTS>")
  _nccc_wasm_table(${target} "${exports}")
  set(kind --no-entry -sSTANDALONE_WASM=1 -sALLOW_MEMORY_GROWTH=1)
  if(CMAKE_C_FLAGS MATCHES "(^| )-pthread( |$)")
    # A threaded module (docs/JS.md, "Threads"): emscripten's glue
    # <target>.js and <target>.worker.js start it, with a fixed memory;
    # -O2 after the build type's flags, since -O3 and -Os rename the
    # exports that attach finds by name. The factory's name (for a
    # browser's global scope) is the target's, as a C identifier.
    string(MAKE_C_IDENTIFIER "${target}" factory)
    set_target_properties(${target} PROPERTIES SUFFIX ".js")
    set(kind -pthread -O2 -sMODULARIZE=1 -sEXPORT_NAME=${factory})
  endif()
  target_link_options(${target} PRIVATE ${kind} -sWASM_BIGINT=1
    "--js-library=${js}/nccc_js_imports.js"
    "-sEXPORTED_FUNCTIONS=_$<JOIN:${exports},$<COMMA>_>" -Wl,--export=nccc_js_exported)
endfunction()

# wasm-ld gives a slot of the function table only to functions whose
# address the program takes, and an export is not one: without a slot,
# the host could make an export callable by address (rt.symbol) only by
# growing the table. This C file takes the address of every function the
# module exports, so that each has its slot from the start and the table
# never grows. Its declarations are only ever used for their addresses
# (wasm-ld checks a function's type only where it is called), and each
# has a name of its own (the asm label names the export) so that none
# redeclares a C function such as malloc.
function(_nccc_wasm_table target exports)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${target}_nccc_exported.c")
  set(each "$<JOIN:${exports},)NCCC_EXPORTED(>")
  file(GENERATE OUTPUT "${file}" CONTENT
"/* the functions ${target}.wasm exports, by address (cmake/NcccBindings.cmake) */
#define NCCC_EXPORTED(name) extern void nccc_exported_##name(void) __asm__(#name);
NCCC_EXPORTED(${each})
#undef NCCC_EXPORTED
#define NCCC_EXPORTED(name) nccc_exported_##name,
void (*const nccc_js_exported[])(void) = {NCCC_EXPORTED(${each})};
")
  target_sources(${target} PRIVATE "${file}")
endfunction()

function(nccc_add_bindings target idl)
  cmake_parse_arguments(B "SHARED" "OUTPUT_DIR;MODULE" "LANGS" ${ARGN})
  if(B_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nccc_add_bindings: unknown arguments ${B_UNPARSED_ARGUMENTS}")
  endif()
  _nccc_find_stubgen()
  list(PREPEND B_LANGS c)
  list(REMOVE_DUPLICATES B_LANGS)
  foreach(lang IN LISTS B_LANGS)
    if(NOT lang MATCHES "^(c|lua|python|scheme|js|rust)$")
      message(FATAL_ERROR "nccc_add_bindings: unknown language '${lang}' "
                          "(known: c, js, lua, python, rust, scheme)")
    endif()
  endforeach()
  get_filename_component(idl "${idl}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # Without MODULE the IDL is read now; with it, it may be made at build
  # time by a custom command (whose OUTPUT it must then be).
  if(NOT B_MODULE AND NOT EXISTS "${idl}")
    message(FATAL_ERROR "nccc_add_bindings: ${idl} does not exist (an IDL "
                        "made at build time needs MODULE <name>)")
  endif()
  if(B_MODULE AND NOT B_MODULE MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "nccc_add_bindings: MODULE '${B_MODULE}' is not a C identifier")
  endif()
  get_filename_component(idl_dir "${idl}" DIRECTORY)

  set(module "${B_MODULE}")
  if(NOT module)
    file(STRINGS "${idl}" line REGEX "^[ \t]*module[ \t]+[A-Za-z_][A-Za-z0-9_]*"
         LIMIT_COUNT 1)
    string(REGEX REPLACE "^[ \t]*module[ \t]+([A-Za-z_][A-Za-z0-9_]*).*" "\\1"
           module "${line}")
    if(NOT module)
      message(FATAL_ERROR "nccc_add_bindings: no 'module NAME;' line in ${idl}")
    endif()
    # A new module name means new output files: configure again.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${idl}")
  endif()

  set(out "${B_OUTPUT_DIR}")
  if(NOT out)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/nccc/${target}")
  endif()
  set(outputs "${out}/${module}_nccc.h" "${out}/${module}_nccc.c")
  if("lua" IN_LIST B_LANGS)
    list(APPEND outputs "${out}/${module}.lua")
  endif()
  if("python" IN_LIST B_LANGS)
    list(APPEND outputs "${out}/${module}.py" "${out}/${module}.pyi")
  endif()
  if("scheme" IN_LIST B_LANGS)
    list(APPEND outputs "${out}/${module}.sls" "${out}/${module}.scm" "${out}/${module}.rkt")
  endif()
  if("js" IN_LIST B_LANGS)
    list(APPEND outputs "${out}/${module}.mjs" "${out}/${module}.d.ts")
  endif()
  if("rust" IN_LIST B_LANGS)
    list(APPEND outputs "${out}/${module}.rs")
  endif()
  set(env)
  if(NCCC_PYTHON)
    set(env "${CMAKE_COMMAND}" -E env "NCCC_PYTHON=${NCCC_PYTHON}")
  endif()
  if(B_SHARED AND CMAKE_VERSION VERSION_LESS 3.24 AND NOT EMSCRIPTEN)
    message(FATAL_ERROR "nccc_add_bindings: SHARED needs CMake 3.24 or later")
  endif()
  string(REPLACE ";" "," langs "${B_LANGS}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${env} "${NCCC_STUBGEN}" --lang "${langs}" -o "${out}" "${idl}"
    DEPENDS "${idl}" ${NCCC_STUBGEN_SOURCES}
    COMMENT "nccc-stubgen ${module} (${idl})"
    VERBATIM)
  set(sources "${out}/${module}_nccc.c" "${out}/${module}_nccc.h")
  if(TARGET ${target})
    get_target_property(shared ${target} NCCC_BINDINGS_SHARED)
    if(NOT shared)
      message(FATAL_ERROR "nccc_add_bindings: target ${target} exists and is "
                          "not a library made with SHARED")
    endif()
    target_sources(${target} PRIVATE ${sources})
    set_property(TARGET ${target} APPEND PROPERTY NCCC_WASM_EXPORTS nccc_${module}_open)
  elseif(B_SHARED AND EMSCRIPTEN)
    _nccc_wasm_module(${target} ${module} ${sources})
  elseif(B_SHARED)
    # The host binds the library's nccc_root, which reaches the whole
    # runtime through the registry: every object of the archive goes in,
    # and only this library carries it (its users must not link a second
    # runtime).
    add_library(${target} SHARED ${sources})
    set_target_properties(${target} PROPERTIES NCCC_BINDINGS_SHARED ON)
    target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,nccc::runtime>")
  else()
    add_library(${target} STATIC ${sources})
    target_link_libraries(${target} PUBLIC nccc::runtime)
  endif()
  target_include_directories(${target} PUBLIC "${out}" PRIVATE "${idl_dir}")
endfunction()
