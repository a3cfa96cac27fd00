# cmake -DDEST=<dir> -P fetch_sqlite.cmake
#
# Puts SQLite's amalgamation (sqlite3.c, sqlite3.h) into <dir>, taken from
# the npm package better-sqlite3, which ships it under deps/sqlite3/: the
# package version and the SHA-256 of its tarball are pinned here, and
# cmake/fetch_npm_sources.cmake fetches, checks and extracts it.
cmake_minimum_required(VERSION 3.16)

set(PACKAGE better-sqlite3)
set(VERSION 13.2.0)                  # SQLite 3.54.1
set(SHA256 40487589df3496f2ee0079d22b73c63fccebe7db0e8ee9a2c42421861e321e0b)
set(INNER package/deps/sqlite3)
set(FILES sqlite3.c sqlite3.h)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/fetch_npm_sources.cmake)
