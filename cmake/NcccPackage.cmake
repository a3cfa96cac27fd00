# The Debian package of an install (docs/PACKAGING.md): CPack's DEB
# generator over the install rules (NcccInstall.cmake) with the prefix
# /usr, so the host layers land where each interpreter looks under /usr
# (NcccInstallHosts.cmake). Its version is PROJECT_VERSION, the project's
# one version (tools/version.py). Made by `cpack -G DEB` in a build tree
# (or its target `package`); ctest package_deb builds and installs it.
# cpack packages what the build made: installing does not build the
# target all first (which holds the whole test suite), so build, then pack.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(NCCC_PACKAGE_MAINTAINER "nccc developers" CACHE STRING
    "the Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME "nccc")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "normalized-calling-convention FFI: the C runtime, the generator and the host layers")
# The control file's extended description, one line per line (CPack
# indents each).
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "One IDL describes a C API; nccc-stubgen generates C wrappers of one shape,"
  "void f(const uint64_t *in, uint64_t *out), and the host modules of Lua 5.4,"
  "LuaJIT, Guile, Chez Scheme, Racket, Python, JavaScript and Rust that call"
  "them through one primitive. The package holds the static runtime libraries"
  "and their headers, the CMake and pkg-config files, nccc-stubgen with its"
  "IDL files, the documentation, and the support libraries of the hosts.")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${NCCC_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION "libdevel")
# nccc-stubgen runs on Python 3 with lark; the rest is static libraries,
# headers and interpreted sources, and the two loadable modules (Lua's
# nccc/core.so, Python's nccc/_core) need only the C library.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3 (>= 3.7), python3-lark, libc6")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "cmake, pkg-config, libffi-dev, lua5.4, luajit, guile-3.0, chezscheme, racket")
set(CPACK_SOURCE_IGNORE_FILES "/build/" "/\\\\.git")
include(CPack)
