#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds
# installed_consumer.c against that prefix alone, twice: with pkg-config
# (nccc-tvm-compat) and with find_package(nccc), and checks its output.
# usage: installed_consumer.sh CMAKE BUILD_DIR TEST_DIR CC [EXTRA_CFLAGS]
set -euo pipefail
cmake_bin=$1 build=$2 here=$3 cc=$4 extra=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

"$cmake_bin" --install "$build" --prefix "$prefix" >"$tmp/install.log"

expected="system library: type 9 handle 0x8000
add(40, 2) = 42 (status 0, type 0, resource registry)
register app.twice: 0, again: 0x103
app.twice(21) = 42 (status 0, resource NULL)
missing global: status 0, handle NULL
missing in module: 0x100
bad handle: -1, TVMFuncCall: invalid function handle
free module index 2: -1"

check() {
  local what=$1 out
  out=$("$2")
  if [ "$out" != "$expected" ]; then
    echo "FAIL ($what): output differs"
    diff <(echo "$expected") <(echo "$out") || true
    exit 1
  fi
  echo "ok: $what"
}

# pkg-config: the .pc files must be found under the prefix and need no
# path from the build or source tree.
pc=$(find "$prefix" -name nccc-tvm-compat.pc -print -quit)
[ -n "$pc" ] || { echo "FAIL: nccc-tvm-compat.pc not installed"; exit 1; }
[ -f "$(dirname "$pc")/nccc.pc" ] || { echo "FAIL: nccc.pc not installed"; exit 1; }
flags=$(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags --libs nccc-tvm-compat)
root=$(cd "$here/../.." && pwd)
case "$flags" in
  *"$build"*|*"$root"*) echo "FAIL: flags point outside the prefix: $flags"; exit 1;;
esac
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $extra "$here/installed_consumer.c" \
  $flags -o "$tmp/consumer_pc"
check "pkg-config nccc-tvm-compat" "$tmp/consumer_pc"

# The plain nccc module gives the nccc headers only.
nflags=$(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags nccc)
echo '#include <nccc/nccc.h>
int main(void) { return nccc_init(0, 0) == NCCC_OK ? 0 : 1; }' >"$tmp/plain.c"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $extra "$tmp/plain.c" $nflags \
  $(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --libs nccc) -o "$tmp/plain"
"$tmp/plain"
echo "ok: pkg-config nccc"

# find_package(nccc) and the nccc::runtime target.
"$cmake_bin" -S "$here/find_package" -B "$tmp/fp" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >"$tmp/fp.log" 2>&1 \
  || { cat "$tmp/fp.log"; exit 1; }
"$cmake_bin" --build "$tmp/fp" >>"$tmp/fp.log" 2>&1 || { cat "$tmp/fp.log"; exit 1; }
check "find_package(nccc)" "$tmp/fp/consumer"
