# nccc_python_package(): the package nccc of bindings/python/nccc in
# ${PROJECT_BINARY_DIR}/python/nccc, importable with that directory on
# sys.path (the tests, the demo and the install use it): its Python files
# copied there, and the C extension nccc._core (bindings/python/core)
# built as the target nccc_python_core against the development files of
# NCCC_PYTHON (Debian: python3-dev). Without them the target is not
# defined and the package runs on its ctypes primitive. Made once, by the
# first caller. The extension does not link the runtime: the runtime
# lives in the library it loads.
function(nccc_python_package)
  get_property(_done GLOBAL PROPERTY NCCC_PYTHON_PACKAGE_DONE)
  if(_done)
    return()
  endif()
  set_property(GLOBAL PROPERTY NCCC_PYTHON_PACKAGE_DONE ON)
  set(target nccc_python_core)
  set(output_dir ${PROJECT_BINARY_DIR}/python)
  set(_src ${PROJECT_SOURCE_DIR}/bindings/python/nccc)
  file(GLOB _py CONFIGURE_DEPENDS ${_src}/*.py)
  foreach(_f ${_py})
    get_filename_component(_n ${_f} NAME)
    configure_file(${_f} ${output_dir}/nccc/${_n} COPYONLY)
  endforeach()
  # The C extension is a module of this machine's interpreter: none for wasm.
  if(NOT NCCC_PYTHON OR EMSCRIPTEN)
    return()
  endif()
  set(Python3_EXECUTABLE ${NCCC_PYTHON})
  find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
  if(NOT Python3_Development.Module_FOUND)
    message(WARNING "nccc: no Python development files for ${NCCC_PYTHON}; "
                    "the C extension nccc._core is not built (apt-get install "
                    "python3-dev)")
    return()
  endif()
  file(GLOB _c ${PROJECT_SOURCE_DIR}/bindings/python/core/*.c)
  Python3_add_library(${target} MODULE WITH_SOABI ${_c})
  target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME _core
    C_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${output_dir}/nccc)
endfunction()
