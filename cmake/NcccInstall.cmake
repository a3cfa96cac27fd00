# Install rules: the runtime library and its headers, pkg-config modules
# `nccc` and `nccc-tvm-compat`, the CMake package (find_package(nccc) ->
# nccc::runtime), the generator with its IDL files when present, the host
# layers (NcccInstallHosts.cmake), the docs and the man page (NcccInstallDocs.cmake).
include(CMakePackageConfigHelpers)

set(NCCC_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/nccc")
set(_nccc_src "${PROJECT_SOURCE_DIR}")

# ---- the runtime ----------------------------------------------------------
# Installed consumers see the same include directories as the build tree:
# include/ and include/nccc/tvm-compat.
set_target_properties(nccc_runtime PROPERTIES EXPORT_NAME runtime)
target_include_directories(nccc_runtime PUBLIC
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/nccc/tvm-compat>)
install(TARGETS nccc_runtime EXPORT ncccTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${_nccc_src}/nccc_runtime/include/nccc"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
# The shim headers generated wrappers include (<nccc/shim_*.h>).
install(DIRECTORY "${_nccc_src}/shims/nccc"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
install(EXPORT ncccTargets NAMESPACE nccc:: FILE ncccTargets.cmake
        DESTINATION "${NCCC_CMAKE_INSTALL_DIR}")

# ---- pkg-config ---------------------------------------------------------------
# The .pc files locate the prefix from their own directory, so
# `cmake --install --prefix DIR` and moving the tree both work.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(NCCC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(NCCC_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(NCCC_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _nccc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" _nccc_up "${_nccc_up}")
  set(NCCC_PC_PREFIX "\${pcfiledir}/${_nccc_up}")
  set(NCCC_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(NCCC_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# A static library: its users link what it links.
get_target_property(_nccc_links nccc_runtime INTERFACE_LINK_LIBRARIES)
set(_nccc_threads 0)
if(_nccc_links AND "Threads::Threads" IN_LIST _nccc_links)
  set(_nccc_threads 1)
  find_package(Threads REQUIRED)
endif()
set(NCCC_PC_LIBS_EXTRA "")
if(_nccc_threads AND CMAKE_THREAD_LIBS_INIT)
  set(NCCC_PC_LIBS_EXTRA "${CMAKE_THREAD_LIBS_INIT}")
endif()
foreach(_nccc_pc nccc nccc-tvm-compat)
  configure_file("${_nccc_src}/cmake/${_nccc_pc}.pc.in"
                 "${PROJECT_BINARY_DIR}/pkgconfig/${_nccc_pc}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/pkgconfig/${_nccc_pc}.pc"
          DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endforeach()

# ---- the CMake package -----------------------------------------------------------
set(NCCC_CONFIG_NEEDS_THREADS ${_nccc_threads})
set(NCCC_INSTALL_BINDIR "${CMAKE_INSTALL_BINDIR}")
set(NCCC_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/nccc")
configure_package_config_file(
  "${_nccc_src}/cmake/ncccConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/ncccConfig.cmake"
  INSTALL_DESTINATION "${NCCC_CMAKE_INSTALL_DIR}"
  PATH_VARS NCCC_INSTALL_BINDIR NCCC_INSTALL_DATADIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/ncccConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/cmake/ncccConfig.cmake"
              "${PROJECT_BINARY_DIR}/cmake/ncccConfigVersion.cmake"
        DESTINATION "${NCCC_CMAKE_INSTALL_DIR}")

# ---- the generator, when the tree has it ------------------------------------------
if(EXISTS "${_nccc_src}/bin/nccc-stubgen")
  install(PROGRAMS "${_nccc_src}/bin/nccc-stubgen"
          DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
if(IS_DIRECTORY "${_nccc_src}/stubgen")
  install(DIRECTORY "${_nccc_src}/stubgen/"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/nccc/stubgen"
          FILES_MATCHING PATTERN "*.py" PATTERN "*.lark"
          PATTERN "__pycache__" EXCLUDE)
endif()
if(IS_DIRECTORY "${_nccc_src}/idl")
  install(DIRECTORY "${_nccc_src}/idl/"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/nccc/idl"
          PATTERN "__pycache__" EXCLUDE)
endif()
if(EXISTS "${_nccc_src}/cmake/NcccBindings.cmake")
  install(FILES "${_nccc_src}/cmake/NcccBindings.cmake"
          DESTINATION "${NCCC_CMAKE_INSTALL_DIR}")
endif()

# ---- the host layers (Lua, Guile, Chez, Racket) ------------------------------------
include("${_nccc_src}/cmake/NcccInstallHosts.cmake")

# ---- the documentation and the generator's man page --------------------------------
include("${_nccc_src}/cmake/NcccInstallDocs.cmake")
