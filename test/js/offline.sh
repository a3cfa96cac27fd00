#!/usr/bin/env bash
# offline.sh SOURCE BUILD NODE — the test js_offline: the wasm library
# build with the npm registry unreachable (npm_config_registry is an
# address where nothing listens). Configures SOURCE with emcmake and the
# default options (README.md, "Build options": no web example, so no
# download) in BUILD, builds the runtime and the JavaScript tests'
# fixture, and runs the fixture's tests that need no thread under node.
# BUILD is kept, so a rerun is incremental.
set -euo pipefail
src=$1 build=$2 node=$3
export npm_config_registry=http://127.0.0.1:9/
export NODE_PATH=/usr/share/nodejs   # Debian's emcc links only with it
log=$build.log
quiet() { "$@" >"$log" 2>&1 || { cat "$log"; exit 1; }; }
quiet emcmake cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  "-DNCCC_PYTHON=${NCCC_PYTHON:-/usr/bin/python3}"
quiet cmake --build "$build" -j 2
fixture=$build/test/js/wasm
export NCCC_JS_WASM=$fixture/nccc_js_fixture.wasm NCCC_JS_GENERATED=$fixture/generated
export NCCC_CASES=$src/test/hosts/cases.json
"$node" --expose-gc --test "$src/test/js/bad_input.test.mjs" \
  "$src/test/js/cases_standalone.test.mjs"
