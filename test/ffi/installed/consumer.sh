#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds consumer.c with
# find_package(nccc) and the nccc::ffi target against that prefix alone,
# and checks its output.
# usage: consumer.sh CMAKE BUILD_DIR HERE CC [EXTRA_CFLAGS]
set -euo pipefail
cmake_bin=$1 build=$2 here=$3 cc=$4 extra=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

"$cmake_bin" --install "$build" --prefix "$prefix" >"$tmp/install.log"
[ -f "$prefix/include/nccc/ffi_forward.h" ] \
  || { echo "FAIL: nccc/ffi_forward.h not installed"; exit 1; }
find "$prefix" -name libnccc_ffi.a | grep -q . \
  || { echo "FAIL: libnccc_ffi.a not installed"; exit 1; }

"$cmake_bin" -S "$here" -B "$tmp/fp" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >"$tmp/fp.log" 2>&1 \
  || { cat "$tmp/fp.log"; exit 1; }
"$cmake_bin" --build "$tmp/fp" >>"$tmp/fp.log" 2>&1 \
  || { cat "$tmp/fp.log"; exit 1; }

# The pool size is the one the build was configured with.
size=$(sed -n 's/^NCCC_FFI_MAX_FORWARDERS:[A-Z]*=//p' "$build/CMakeCache.txt")
args=$(sed -n 's/^NCCC_FFI_MAX_ARGS:[A-Z]*=//p' "$build/CMakeCache.txt")
expected="register: 0
cbrt(27) = 3 (status 0)
pool: $((size - 1)) of $size free, $args arguments at most
release: 0
struct: 0x4002 forwarder: a struct by value needs a layout the forwarder does not have: {point}:d"
out=$("$tmp/fp/consumer")
if [ "$out" != "$expected" ]; then
  echo "FAIL: output differs"
  diff <(echo "$expected") <(echo "$out") || true
  exit 1
fi
echo "ok: find_package(nccc) with nccc::ffi"
