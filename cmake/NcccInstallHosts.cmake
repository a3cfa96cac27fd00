# Install rules of the host layers (included by NcccInstall.cmake): each
# goes where its language looks under the install prefix. Every directory
# is a cache variable relative to the prefix, defaulting to the layout the
# host's pkg-config file publishes (made relative to the .pc's own prefix):
#
#   NCCC_INSTALL_LUA54_LMOD   share/lua/5.4   nccc.lua, nccc/*.lua (lua5.4.pc INSTALL_LMOD)
#   NCCC_INSTALL_LUA54_CMOD   lib/lua/5.4     nccc/core.so, the C module nccc.core
#   NCCC_INSTALL_LUAJIT_LMOD  share/lua/5.1   nccc.lua, nccc/*.lua, nccc_luajit.lua (luajit.pc INSTALL_LMOD)
#   NCCC_INSTALL_GUILE_SITE   share/guile/site/3.0   nccc/*.scm + *.sls (guile-3.0.pc sitedir)
#   NCCC_INSTALL_R6RS         share/r6rs      nccc/*.sls for Chez (--libdirs)
#   NCCC_INSTALL_RACKET_PKG   share/nccc/racket/nccc   the Racket package nccc
#                                             (raco pkg install --copy DIR)
#   NCCC_INSTALL_PYTHON       lib/python3/dist-packages   the package nccc with
#                                             its C extension (Debian's path
#                                             for /usr; PYTHONPATH elsewhere)
#
# The C module's directory is lib/lua/<major version> rather than
# lua5.4.pc's INSTALL_CMOD: Debian's INSTALL_CMOD holds the multiarch
# triplet, which Lua 5.4's default package.cpath has under /usr but not
# under /usr/local, while lib/lua/5.4 is on it under both.
include_guard(GLOBAL)

set(_nccc_hosts_src "${PROJECT_SOURCE_DIR}/bindings")
find_package(PkgConfig QUIET)

# _nccc_pc_relative(VAR MODULE VARIABLE DEFAULT): VARIABLE of pkg-config
# MODULE relative to that module's prefix, or DEFAULT when the module, the
# variable or a relation to the prefix is missing.
function(_nccc_pc_relative var module variable default)
  set(rel "${default}")
  if(PKG_CONFIG_FOUND)
    pkg_get_variable(_value "${module}" "${variable}")
    pkg_get_variable(_prefix "${module}" prefix)
    if(_value AND _prefix)
      file(RELATIVE_PATH _rel "${_prefix}" "${_value}")
      if(_rel AND NOT _rel MATCHES "^\\.\\.")
        set(rel "${_rel}")
      endif()
    endif()
  endif()
  set(${var} "${rel}" PARENT_SCOPE)
endfunction()

set(_nccc_lua54_major 5.4)
if(PKG_CONFIG_FOUND)
  pkg_get_variable(_nccc_lua54_version lua5.4 major_version)
  if(_nccc_lua54_version)
    set(_nccc_lua54_major "${_nccc_lua54_version}")
  endif()
endif()
_nccc_pc_relative(_nccc_d lua5.4 INSTALL_LMOD "share/lua/${_nccc_lua54_major}")
set(NCCC_INSTALL_LUA54_LMOD "${_nccc_d}" CACHE STRING
    "Lua 5.4 modules (nccc.lua, nccc/*.lua), relative to the prefix")
set(NCCC_INSTALL_LUA54_CMOD "lib/lua/${_nccc_lua54_major}" CACHE STRING
    "Lua 5.4 C modules (nccc/core.so), relative to the prefix")
_nccc_pc_relative(_nccc_d luajit INSTALL_LMOD "share/lua/5.1")
set(NCCC_INSTALL_LUAJIT_LMOD "${_nccc_d}" CACHE STRING
    "LuaJIT modules (nccc.lua, nccc/*.lua, nccc_luajit.lua), relative to the prefix")
_nccc_pc_relative(_nccc_d guile-3.0 sitedir "share/guile/site/3.0")
set(NCCC_INSTALL_GUILE_SITE "${_nccc_d}" CACHE STRING
    "Guile site directory (nccc/*.scm, nccc/*.sls), relative to the prefix")
set(NCCC_INSTALL_R6RS "share/r6rs" CACHE STRING
    "R6RS library directory for Chez Scheme (nccc/*.sls), relative to the prefix")
set(NCCC_INSTALL_RACKET_PKG "share/nccc/racket/nccc" CACHE STRING
    "The Racket package directory nccc, relative to the prefix")

# ---- Lua 5.4 and LuaJIT -------------------------------------------------------
# The support library is the same files on both; nccc_luajit.lua is
# LuaJIT's primitive only.
foreach(_nccc_d "${NCCC_INSTALL_LUA54_LMOD}" "${NCCC_INSTALL_LUAJIT_LMOD}")
  install(FILES "${_nccc_hosts_src}/lua/nccc.lua" DESTINATION "${_nccc_d}")
  install(DIRECTORY "${_nccc_hosts_src}/lua/nccc/" DESTINATION "${_nccc_d}/nccc"
          FILES_MATCHING PATTERN "*.lua")
endforeach()
install(FILES "${_nccc_hosts_src}/lua/nccc_luajit.lua"
        DESTINATION "${NCCC_INSTALL_LUAJIT_LMOD}")
# (not in a wasm build: a Lua interpreter loads native code only)
if(PKG_CONFIG_FOUND AND NOT EMSCRIPTEN)
  pkg_check_modules(NCCC_INSTALL_LUA54_DEV QUIET lua5.4)
endif()
if(NCCC_INSTALL_LUA54_DEV_FOUND)
  include("${_nccc_hosts_src}/lua/core/lua_core.cmake")
  nccc_lua_core(nccc_lua54_core "${PROJECT_BINARY_DIR}/lua54"
                ${NCCC_INSTALL_LUA54_DEV_INCLUDE_DIRS})
  install(TARGETS nccc_lua54_core LIBRARY DESTINATION "${NCCC_INSTALL_LUA54_CMOD}/nccc")
else()
  message(STATUS "nccc: lua5.4 headers (pkg-config lua5.4) not found; the Lua 5.4 "
                 "C module nccc.core is not installed (apt-get install liblua5.4-dev)")
endif()

# ---- Scheme: one source tree, each implementation's files --------------------
# Guile reads the .scm entries (which include the .sls files from its load
# path); Chez the .sls libraries, its adapter compat.chezscheme.sls first;
# Racket the .rkt entries over the .sls libraries, its adapter
# compat.mzscheme.sls first. Each gets only its own adapter.
set(_nccc_scheme "${_nccc_hosts_src}/scheme/nccc/")
install(DIRECTORY "${_nccc_scheme}" DESTINATION "${NCCC_INSTALL_GUILE_SITE}/nccc"
        FILES_MATCHING PATTERN "*.scm" PATTERN "*.sls"
        PATTERN "compat.*.sls" EXCLUDE)
install(DIRECTORY "${_nccc_scheme}" DESTINATION "${NCCC_INSTALL_R6RS}/nccc"
        FILES_MATCHING PATTERN "*.sls" PATTERN "compat.mzscheme.sls" EXCLUDE)
install(DIRECTORY "${_nccc_scheme}" DESTINATION "${NCCC_INSTALL_RACKET_PKG}"
        FILES_MATCHING PATTERN "*.rkt" PATTERN "*.sls"
        PATTERN "compat.chezscheme.sls" EXCLUDE)
install(FILES "${PROJECT_SOURCE_DIR}/cmake/nccc-racket-info.rkt"
        DESTINATION "${NCCC_INSTALL_RACKET_PKG}" RENAME info.rkt)

# JavaScript: the npm-style package nccc (package.json with exports and
# types; docs/JS.md, "Install") in lib/node_modules/nccc, with the C file
# and link-time import list nccc_add_bindings uses for wasm modules.
set(NCCC_INSTALL_JS "${CMAKE_INSTALL_LIBDIR}/node_modules/nccc" CACHE STRING
    "where the JavaScript package nccc goes, relative to the prefix")
install(DIRECTORY "${_nccc_hosts_src}/js/" DESTINATION "${NCCC_INSTALL_JS}")

# ---- Python: the package nccc, its C extension when python3-dev is there ----
set(NCCC_INSTALL_PYTHON "lib/python3/dist-packages" CACHE STRING
    "Python packages (nccc/), relative to the prefix")
install(DIRECTORY "${_nccc_hosts_src}/python/nccc/" DESTINATION "${NCCC_INSTALL_PYTHON}/nccc"
        FILES_MATCHING PATTERN "*.py")
include("${_nccc_hosts_src}/python/python_package.cmake")
nccc_python_package()
if(TARGET nccc_python_core)
  install(TARGETS nccc_python_core LIBRARY DESTINATION "${NCCC_INSTALL_PYTHON}/nccc")
endif()
