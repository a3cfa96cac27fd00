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
#
# The program is built three ways: as a program links a module by default
# (the methods call the wrappers through the pointers Module::bind bound);
# statically with cross-language LTO (docs/RUST.md, "Static linking and
# LTO": the wrappers compiled by clang-N to LLVM bitcode, the cfg
# nccc_static="bench", -Clinker-plugin-lto), when the clang, llvm-ar and
# ld.lld of rustc's LLVM N are installed; and the same without nccc's std
# feature (a panic in a callback aborts: no check after each call).
#
# cargo and rustc are the build's (cmake/NcccRust.cmake: Debian's when
# installed, whose LLVM is the one Debian's clang-N matches); CARGO and
# RUSTC choose others. When the LTO builds cannot be made, the output says
# so and why, on standard output with the figures.
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
. "$build/bench/rust/env.sh"
cargo=${CARGO:-${NCCC_BENCH_CARGO:-cargo}}
rustc=${RUSTC:-${NCCC_BENCH_RUSTC:-rustc}}
out=$(CDPATH= cd -- "$build/bench/rust" && pwd)

# build TARGET_DIR [cargo options]: the program, with RUSTFLAGS as set
build() {
  dir=$1
  shift
  CARGO_HOME="$out/cargo-home" RUSTC="$rustc" NCCC_BENCH_LIBS="$libs" \
    NCCC_BENCH_GENERATED="$NCCC_BENCH_GENERATED" \
    "$cargo" build --offline --quiet --release --manifest-path "$manifest" \
    --target-dir "$out/$dir" "$@"
}

libs=$NCCC_BENCH_LIBS
build target
progs=$out/target/release/bench

llvm=$("$rustc" -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
lto_skipped=
for tool in "clang-$llvm" "llvm-ar-$llvm" "ld.lld-$llvm"; do
  command -v "$tool" >/dev/null 2>&1 || lto_skipped="$lto_skipped $tool"
done
if [ -z "$lto_skipped" ]; then
  mkdir -p "$out/lto"
  # shellcheck disable=SC2086 # NCCC_BENCH_INCLUDES is a list of -I options
  "clang-$llvm" -flto=thin -O2 -fPIC -std=c11 -I"$NCCC_BENCH_GENERATED" \
    $NCCC_BENCH_INCLUDES -c "$NCCC_BENCH_GENERATED/bench_nccc.c" -o "$out/lto/bench_nccc.o"
  rm -f "$out/lto/libnccc_bench_lto.a"
  "llvm-ar-$llvm" rcs "$out/lto/libnccc_bench_lto.a" "$out/lto/bench_nccc.o"
  libs=$out/lto/libnccc_bench_lto.a:${NCCC_BENCH_LIBS#*:}
  export RUSTFLAGS="-Clinker-plugin-lto -Clinker=clang-$llvm -Clink-arg=--ld-path=$(command -v "ld.lld-$llvm") --cfg nccc_static=\"bench\""
  build target-lto
  build target-lto-nostd --no-default-features
  unset RUSTFLAGS
  progs="$progs $out/target-lto/release/bench $out/target-lto-nostd/release/bench"
else
  lto_skipped="LTO builds skipped: $rustc uses LLVM $llvm, and$lto_skipped not installed (apt-get install clang-$llvm lld-$llvm llvm-$llvm, or RUSTC and CARGO of a toolchain whose LLVM has them)"
  echo "run.sh: $lto_skipped" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$here/../callgrind.sh"

echo "instructions per call (callgrind; iterations $N1 and $N2; loop included)"
echo "$(uname -m), $("$rustc" --version), $(valgrind --version)"
for prog in $progs; do
  case $prog in
    */target/*) echo; echo "default build (calls through the pointers bound at Module::bind):" ;;
    */target-lto/*) echo; echo "static, cross-language LTO (clang-$llvm, cfg nccc_static):" ;;
    *) echo; echo "static, cross-language LTO, without nccc's std (a panic in a callback aborts):" ;;
  esac
  printf '%-6s %8s %10s %10s %12s\n' what loop direct generated generated/dir
  loop=$(per_call loop)
  for fn in add mix6 fold; do
    direct=$(per_call "$fn.direct")
    gen=$(per_call "$fn.generated")
    if [ "$fn" = fold ]; then base=0; else base=$loop; fi
    awk -v f="$fn" -v l="$loop" -v d="$direct" -v g="$gen" -v base="$base" \
      'BEGIN { printf "%-6s %8s %10s %10s %12.2f\n", f, l, d, g, (g - base) / (d - base) }'
  done
done
if [ -n "$lto_skipped" ]; then echo; echo "$lto_skipped"; fi
echo
echo "fold: per callback (one forward call runs N callbacks); the ratio of"
echo "add and mix6 is over the loop's own instructions taken out of both."
