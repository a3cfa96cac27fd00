#!/usr/bin/env bash
# release_c.sh SOURCE BUILD CMAKE CTEST CC — the test build_release_c:
# configures SOURCE in BUILD as a user choosing a Release build would
# (-DCMAKE_BUILD_TYPE=Release, C compiler CC), with the test suite but
# none of its other parts (README.md, "Build options"), builds the
# runtime and the Check tests of its core (core_*, test/c/) under the
# project's -Werror, and runs them. BUILD is kept, so a rerun is
# incremental.
set -euo pipefail
src=$1 build=$2 cmake=$3 ctest=$4 cc=$5
log=$build.log
quiet() { "$@" >"$log" 2>&1 || { cat "$log"; exit 1; }; }
quiet "$cmake" -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
  -DNCCC_BUILD_EXAMPLES=OFF -DNCCC_BUILD_CROSS=OFF -DNCCC_BUILD_WASM=OFF \
  -DNCCC_BUILD_BROWSER=OFF -DNCCC_BUILD_DEVICE=OFF -DNCCC_BUILD_RUST=OFF \
  -DNCCC_BUILD_FUZZ=OFF -DNCCC_BUILD_PACKAGES=OFF
# the tests' names are their programs' target names
mapfile -t tests < <(cd "$build" && "$ctest" -N -R '^core_' | sed -n 's/^ *Test *#[0-9]*: //p')
if [ "${#tests[@]}" -eq 0 ]; then
  echo "release_c.sh: the Release configure registered no core_* test"
  exit 1
fi
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt"
quiet "$cmake" --build "$build" -j 2 --target nccc_runtime "${tests[@]}"
cd "$build" && "$ctest" -R '^core_' --output-on-failure
