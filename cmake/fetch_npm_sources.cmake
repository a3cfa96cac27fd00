# cmake -DPACKAGE=<name> -DVERSION=<v> -DSHA256=<hash> -DINNER=<dir>
#       "-DFILES=<f1;f2;...>" -DDEST=<dir> -P fetch_npm_sources.cmake
# (or include()d by a script that sets them)
#
# Puts the C sources FILES, found under INNER in the tarball of the npm
# package PACKAGE@VERSION, into DEST. The tarball is fetched with
# `npm pack` and refused, never built, unless its SHA-256 is the pinned
# SHA256. It stays in DEST as the cache, so a second run (or a rebuild)
# needs no network.
cmake_minimum_required(VERSION 3.16)

foreach(var PACKAGE VERSION SHA256 INNER FILES DEST)
  if(NOT ${var})
    message(FATAL_ERROR "fetch_npm_sources.cmake: pass -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY "${DEST}")
set(tarball "${DEST}/${PACKAGE}-${VERSION}.tgz")

function(check_hash result)
  set(${result} FALSE PARENT_SCOPE)
  if(EXISTS "${tarball}")
    file(SHA256 "${tarball}" got)
    if(got STREQUAL SHA256)
      set(${result} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

check_hash(cached)
if(NOT cached)
  find_program(NPM npm)
  if(NOT NPM)
    message(FATAL_ERROR "fetch_npm_sources.cmake: npm not found (apt-get install npm)")
  endif()
  file(REMOVE "${tarball}")
  execute_process(COMMAND "${NPM}" pack "${PACKAGE}@${VERSION}"
                          --pack-destination "${DEST}" --silent
                  WORKING_DIRECTORY "${DEST}" RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fetch_npm_sources.cmake: npm pack ${PACKAGE}@${VERSION} failed (${rc})")
  endif()
  check_hash(fetched)
  if(NOT fetched)
    file(SHA256 "${tarball}" got)
    file(REMOVE "${tarball}")
    message(FATAL_ERROR "fetch_npm_sources.cmake: ${PACKAGE}-${VERSION}.tgz has SHA-256 "
                        "${got}, not the pinned ${SHA256}; refused")
  endif()
endif()

# Extract only FILES, then move them to DEST itself, dated now (a
# tarball dates its files 1985, which would make them older than the
# script and rebuilt every time).
set(members ${FILES})
list(TRANSFORM members PREPEND "${INNER}/")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${tarball}" ${members}
                WORKING_DIRECTORY "${DEST}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fetch_npm_sources.cmake: ${tarball} lacks some of ${members}")
endif()
foreach(name ${FILES})
  file(RENAME "${DEST}/${INNER}/${name}" "${DEST}/${name}")
  file(TOUCH "${DEST}/${name}")
endforeach()
string(REGEX REPLACE "/.*" "" top "${INNER}")
file(REMOVE_RECURSE "${DEST}/${top}")
