#!/bin/sh
# bench/hosts/run.sh BUILD_DIR [N] — time per call of bench_add and per
# callback of bench_fold from every host interpreter present: the host's
# own FFI, the nccc primitive by hand, and the support library
# (docs/BENCHMARKS.md, "Hosts"). N iterations per variant (default
# 300000), best of 3 runs; CPU time. Build first:
#   cmake --build BUILD_DIR --target nccc_hbench nccc_hbench_lua nccc_hbench_lua_core
set -eu
build=$(cd "${1:?usage: run.sh BUILD_DIR [N]}" && pwd)
n=${2:-300000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$build/bench/hosts
lib=$out/libnccc_hbench.so
[ -f "$lib" ] || { echo "run.sh: $lib not built" >&2; exit 1; }
scm=$here/scheme
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { command -v "$1" >/dev/null 2>&1; }

# host label, then the command printing "variant ns" lines
measure() {
  label=$1; shift
  if "$@" >"$tmp/$label" 2>"$tmp/$label.err"; then
    awk -v h="$label" '{print h, $1, $2}' "$tmp/$label" >>"$tmp/all"
  else
    echo "run.sh: $label failed:" >&2; cat "$tmp/$label.err" >&2
  fi
}

: >"$tmp/all"
# The generated Lua module of bench.idl, as users make it.
NCCC_PYTHON=${NCCC_PYTHON:-/usr/bin/python3} "$root/bin/nccc-stubgen" --lang lua \
  -o "$tmp/gen" "$root/bench/bench.idl" >/dev/null
if have lua5.4 && [ -f "$out/lua/hbench.so" ]; then
  measure lua5.4 lua5.4 "$here/bench.lua" "$root/bindings/lua" "$lib" "$n" "$out/lua" "$tmp/gen"
fi
if have luajit; then
  measure luajit luajit "$here/bench.lua" "$root/bindings/lua" "$lib" "$n" "" "$tmp/gen"
fi
if [ -z "${NCCC_HBENCH_LUA_ONLY:-}" ]; then
  . "$here/scheme_tree.sh"
  scheme_tree "$out"
fi
if [ -z "${NCCC_HBENCH_LUA_ONLY:-}" ] && have guile-3.0; then
  measure guile env GUILE_AUTO_COMPILE=0 GUILE_LOAD_COMPILED_PATH="$cache" \
    guile-3.0 -x .sls -L "$slib" -L "$scm" "$scm/bench.sps" "$lib" "$n"
fi
if [ -z "${NCCC_HBENCH_LUA_ONLY:-}" ] && have chezscheme; then
  measure chez chezscheme --libdirs "$slib:$scm" --optimize-level 3 --program \
    "$scm/bench.sps" "$lib" "$n"
fi
if [ -z "${NCCC_HBENCH_LUA_ONLY:-}" ] && have racket; then
  measure racket racket -S "$slib" -S "$scm" "$scm/bench.sps" "$lib" "$n"
fi

echo "ns per call (add) and per callback (fold); $n iterations, best of 3; CPU time"
echo "ratio: against the host's own FFI (add.own for add.*, cb.own for cb.*)"
echo
awk '{ t[$1 " " $2] = $3; rows[++k] = $0 }
  END {
    printf "%-8s %-15s %10s %8s\n", "host", "variant", "ns/call", "ratio"
    for (i = 1; i <= k; i++) {
      split(rows[i], f, " ")
      split(f[2], v, ".")
      base = t[f[1] " " v[1] ".own"]
      printf "%-8s %-15s %10.1f %8.2f\n", f[1], f[2], f[3], (base > 0 ? f[3] / base : 0)
    }
  }' "$tmp/all"
