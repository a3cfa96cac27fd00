# nccc_lua_core(TARGET OUTPUT_DIR INCLUDE_DIRS...): the Lua 5.4 C module
# nccc.core (bindings/lua/core) as TARGET, written to OUTPUT_DIR/nccc/core.so
# so that package.cpath "OUTPUT_DIR/?.so" finds it; INCLUDE_DIRS are Lua's
# headers. The module does not link the runtime: the runtime lives in
# the library it loads.
function(nccc_lua_core target output_dir)
  set(_core ${PROJECT_SOURCE_DIR}/bindings/lua/core)
  add_library(${target} MODULE ${_core}/module.c ${_core}/calls.c ${_core}/specs.c
              ${_core}/dispatch.c)
  target_include_directories(${target} PRIVATE ${ARGN} ${PROJECT_SOURCE_DIR}/nccc_runtime/include)
  target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME core
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}/nccc)
endfunction()
