#!/bin/sh
# run.sh — instructions per call of the generated Rust module against a
# direct `extern "C"` call of the same C function, and of a Rust closure
# callback against a plain `extern "C" fn` callback, counted by callgrind.
#
#   bench/rust/run.sh [BUILD_DIR]      (default: build/bench)
#
# BUILD_DIR is a CMake build of the tree without NCCC_SANITIZE (it has the
# bench wrappers, bench.rs generated from bench/bench.idl, and the cargo
# package bench/rust configured into BUILD_DIR/bench/rust). Each variant
# runs with N1 and N2 iterations; (Ir(N2) - Ir(N1)) / (N2 - N1) is one
# iteration's cost, start-up cancelled out. docs/BENCHMARKS.md has the
# figures.
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
build=${1:-$here/../../build/bench}
N1=${NCCC_BENCH_N1:-10000}
N2=${NCCC_BENCH_N2:-110000}
manifest=$build/bench/rust/Cargo.toml
[ -f "$manifest" ] || {
  echo "run.sh: $manifest not found; configure and build first:" >&2
  echo "  cmake -S $here/../.. -B $build -DCMAKE_BUILD_TYPE=Release" \
       "&& cmake --build $build --target nccc_bench_rust_inputs" >&2
  exit 2
}
command -v valgrind >/dev/null 2>&1 || {
  echo "run.sh: valgrind not found (apt-get install valgrind)" >&2
  exit 2
}
cargo=${CARGO:-cargo}
. "$build/bench/rust/env.sh"
CARGO_HOME="$build/bench/rust/cargo-home" NCCC_BENCH_LIBS="$NCCC_BENCH_LIBS" \
  NCCC_BENCH_GENERATED="$NCCC_BENCH_GENERATED" \
  "$cargo" build --offline --quiet --release --manifest-path "$manifest" \
  --target-dir "$build/bench/rust/target"
prog=$build/bench/rust/target/release/bench

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$here/../callgrind.sh"

echo "instructions per call (callgrind; iterations $N1 and $N2; loop included)"
echo "$(uname -m), $("${RUSTC:-rustc}" --version), $(valgrind --version)"
echo
printf '%-6s %8s %10s %10s %12s\n' what loop direct generated generated/dir
loop=$(per_call loop)
for fn in add mix6 fold; do
  direct=$(per_call "$fn.direct")
  gen=$(per_call "$fn.generated")
  if [ "$fn" = fold ]; then base=0; else base=$loop; fi
  awk -v f="$fn" -v l="$loop" -v d="$direct" -v g="$gen" -v base="$base" \
    'BEGIN { printf "%-6s %8s %10s %10s %12.2f\n", f, l, d, g, (g - base) / (d - base) }'
done
echo
echo "fold: per callback (one forward call runs N callbacks); the ratio of"
echo "add and mix6 is over the loop's own instructions taken out of both."
