#!/usr/bin/env bash
# install.sh WASM_BUILD SOURCE NODE — the JavaScript install test (ctest
# js_install): installs the project's wasm build into a temporary prefix,
# builds test/js/consumer (the install test's greet.idl
# through find_package(nccc) and nccc_add_bindings(... SHARED)) with
# emcmake against that prefix alone, installs the package nccc from the
# prefix into a node project as npm would (a link in node_modules), and
# runs check_install.mjs there: one call and one callback through the
# generated greet.mjs. Prints "js: 42 10".
set -euo pipefail
build=$1 src=$2 node=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-js-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix out=$tmp/consumer app=$tmp/app
export NODE_PATH=/usr/share/nodejs   # Debian's emcc links only with it

# quiet unless a step fails (emcmake echoes its command line)
quiet() { "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }; }
quiet cmake --install "$build" --prefix "$prefix"
quiet emcmake cmake -S "$src/test/js/consumer" -B "$out" \
  -Dnccc_DIR="$prefix/lib/cmake/nccc" -DCMAKE_BUILD_TYPE=Release
quiet cmake --build "$out"
mkdir -p "$app/node_modules"
ln -s "$prefix/lib/node_modules/nccc" "$app/node_modules/nccc"
cp "$src/test/js/check_install.mjs" "$app/"
"$node" "$app/check_install.mjs" "$out/greet.wasm" "$out/nccc/greet.mjs"
