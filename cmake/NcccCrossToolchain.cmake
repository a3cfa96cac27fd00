# A toolchain file for Linux on another processor with Debian's
# <triple>-gcc, the C library in /usr/<triple>:
#   cmake -DCMAKE_TOOLCHAIN_FILE=.../NcccCrossToolchain.cmake \
#         -DNCCC_CROSS_TRIPLE=mips-linux-gnu -DNCCC_CROSS_PROCESSOR=mips
# (cmake/NcccCross.cmake passes both; docs/CROSS.md).
if(NOT NCCC_CROSS_TRIPLE OR NOT NCCC_CROSS_PROCESSOR)
  message(FATAL_ERROR "NcccCrossToolchain.cmake needs NCCC_CROSS_TRIPLE and "
                      "NCCC_CROSS_PROCESSOR")
endif()
# CMake's test compilations read this file again: they need both too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NCCC_CROSS_TRIPLE
     NCCC_CROSS_PROCESSOR)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${NCCC_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${NCCC_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${NCCC_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
