#!/bin/sh
# bench/js/run.sh BUILD_DIR [N [ROUNDS]] — JavaScript under node, in one
# run: time per call of bench_add (int64) and bench_mix4 (int32 and
# double) and per callback of bench_fold, generated nccc module against
# emcc's direct export call, ccall and an addFunction callback; then the
# size of the runtime built for wasm at -Os (docs/BENCHMARKS.md,
# "JavaScript"). BUILD_DIR is a plain build of the project; its wasm
# build (BUILD_DIR/wasm, made by the target nccc_js_wasm) gets the
# benchmark's modules (bench/js/CMakeLists.txt).
set -eu
build=$(cd "${1:?usage: run.sh BUILD_DIR [N [ROUNDS]]}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
wasm=$build/wasm
cmake --build "$build" --target nccc_js_wasm >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build "$wasm" -j 2 \
  --target nccc_bench_js nccc_bench_peers nccc_runtime_os >/dev/null
out=$wasm/bench/js
node "$here/bench.mjs" "$out/nccc_bench_js.wasm" "$out/generated/bench.mjs" \
  "$out/nccc_bench_peers.mjs" "$root/bindings/js" ${2:-} ${3:-}
size=$(wc -c <"$out/nccc_runtime_os.wasm")
gz=$(gzip -9c "$out/nccc_runtime_os.wasm" | wc -c)
echo
echo "runtime at -Os (core, dispatcher import; exports nccc_root): $size bytes of wasm, $gz gzipped"
