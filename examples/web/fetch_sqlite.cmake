# cmake -DDEST=<dir> -P fetch_sqlite.cmake
#
# Puts SQLite's amalgamation (sqlite3.c, sqlite3.h) into <dir>, taken from
# the npm package better-sqlite3, which ships it under deps/sqlite3/. The
# package version and the SHA-256 of its tarball are pinned here: a
# tarball with another hash is refused, never built. The tarball stays in
# <dir> as the cache, so a second run (or a rebuild) needs no network.
cmake_minimum_required(VERSION 3.16)

set(package better-sqlite3)
set(version 13.2.0)                  # SQLite 3.54.1
set(sha256 40487589df3496f2ee0079d22b73c63fccebe7db0e8ee9a2c42421861e321e0b)

if(NOT DEST)
  message(FATAL_ERROR "fetch_sqlite.cmake: pass -DDEST=<dir>")
endif()
file(MAKE_DIRECTORY "${DEST}")
set(tarball "${DEST}/${package}-${version}.tgz")

function(check_hash result)
  set(${result} FALSE PARENT_SCOPE)
  if(EXISTS "${tarball}")
    file(SHA256 "${tarball}" got)
    if(got STREQUAL sha256)
      set(${result} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

check_hash(cached)
if(NOT cached)
  find_program(NPM npm)
  if(NOT NPM)
    message(FATAL_ERROR "fetch_sqlite.cmake: npm not found (apt-get install npm)")
  endif()
  file(REMOVE "${tarball}")
  execute_process(COMMAND "${NPM}" pack "${package}@${version}"
                          --pack-destination "${DEST}" --silent
                  WORKING_DIRECTORY "${DEST}" RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fetch_sqlite.cmake: npm pack ${package}@${version} failed (${rc})")
  endif()
  check_hash(fetched)
  if(NOT fetched)
    file(SHA256 "${tarball}" got)
    file(REMOVE "${tarball}")
    message(FATAL_ERROR "fetch_sqlite.cmake: ${package}-${version}.tgz has SHA-256 "
                        "${got}, not the pinned ${sha256}; refused")
  endif()
endif()

# Extract only the two files, then move them to DEST itself, dated now
# (the tarball dates its files 1985, which would make them older than
# this script and rebuilt every time).
set(inner package/deps/sqlite3)
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${tarball}"
                        "${inner}/sqlite3.c" "${inner}/sqlite3.h"
                WORKING_DIRECTORY "${DEST}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fetch_sqlite.cmake: ${tarball} has no ${inner}/sqlite3.[ch]")
endif()
foreach(name sqlite3.c sqlite3.h)
  file(RENAME "${DEST}/${inner}/${name}" "${DEST}/${name}")
  file(TOUCH "${DEST}/${name}")
endforeach()
file(REMOVE_RECURSE "${DEST}/package")
