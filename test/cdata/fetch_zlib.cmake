# cmake -DDEST=<dir> -P fetch_zlib.cmake
#
# Puts zlib's C sources (zlib 1.3.1: what deflate, inflate, compress and
# the checksums need, without gzip file I/O: gzguts.h only, which
# zutil.c includes) into <dir>, taken from the
# npm package zlib-sync, which ships them under deps/zlib/: the package
# version and the SHA-256 of its tarball are pinned here, and
# cmake/fetch_npm_sources.cmake fetches, checks and extracts it. The
# wasm build compiles them with emcc for cdata_zlib_js (emscripten's own
# zlib port would be downloaded from outside the package registries).
cmake_minimum_required(VERSION 3.16)

set(PACKAGE zlib-sync)
set(VERSION 0.1.10)                  # zlib 1.3.1
set(SHA256 bd2180fc18426cf464ecab1321bb31a1af81c36b927a28cdb26c3a56f302f2b6)
set(INNER package/deps/zlib)
set(FILES adler32.c compress.c crc32.c deflate.c infback.c inffast.c inflate.c
          inftrees.c trees.c uncompr.c zutil.c crc32.h deflate.h inffast.h
          gzguts.h inffixed.h inflate.h inftrees.h trees.h zconf.h zlib.h zutil.h)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/fetch_npm_sources.cmake)
