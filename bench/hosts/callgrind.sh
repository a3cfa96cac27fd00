#!/bin/sh
# bench/hosts/callgrind.sh [BUILD_DIR] — instructions per call of the
# generated bench module's add and mix6, and per callback of its fold (a
# "forever" closure of step_fn), from Lua 5.4, LuaJIT, Guile and Chez
# Scheme, those installed (docs/BENCHMARKS.md, "Host interpreters under
# callgrind"). Each variant is one untimed run of count.lua or
# scheme/count.sps under callgrind for N1 and N2 iterations
# (NCCC_BENCH_N1, NCCC_BENCH_N2; default 20000 and 220000), counted as
# (Ir(N2) - Ir(N1)) / (N2 - N1) (../callgrind.sh). LuaJIT runs with its
# JIT compiler on; Chez at --optimize-level 3; Guile from files compiled
# by guild; Racket from the same tree copied and compiled by raco make
# (loading the R6RS libraries from source under callgrind would take
# longer than the counted loop). NCCC_BENCH_HOSTS names the hosts to
# count (default "lua5.4 luajit guile chez"; add racket to count it too:
# each Racket run spends about a minute starting under callgrind, about
# 8 minutes in all). BUILD_DIR (default build/bench) must have nccc_hbench
# and nccc_hbench_lua_core built.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scm=$here/scheme
. "$here/../callgrind.sh"
build=$(cd "${1:-$root/build/bench}" && pwd)
out=$build/bench/hosts
N1=${NCCC_BENCH_N1:-20000}
N2=${NCCC_BENCH_N2:-220000}
# what must be built: the library every host binds
prog=$out/libnccc_hbench.so
callgrind_start callgrind.sh nccc_hbench "$build"
lib=$prog

hosts=" ${NCCC_BENCH_HOSTS:-lua5.4 luajit guile chez} "
# want HOST COMMAND: HOST is to be counted and COMMAND installed
want() {
  case $hosts in *" $1 "*) command -v "$2" >/dev/null 2>&1 ;; *) return 1 ;; esac
}

# host, then the interpreter and its words before VARIANT N
row() {
  host=$1 prog=$(command -v "$2"); shift 2
  prog_args="$*"
  printf "%-8s %10s %10s %10s\n" "$host" "$(per_call add)" "$(per_call mix6)" \
    "$(per_call callback)"
}

echo "instructions per call (add, mix6) and per callback (fold); callgrind;" \
  "N $N1 and $N2"
printf "%-8s %10s %10s %10s\n" host add mix6 callback
NCCC_PYTHON=${NCCC_PYTHON:-/usr/bin/python3} "$root/bin/nccc-stubgen" --lang lua \
  -o "$tmp/gen" "$root/bench/bench.idl" >/dev/null
if want lua5.4 lua5.4 && [ -f "$out/lua/nccc/core.so" ]; then
  row lua5.4 lua5.4 "$here/count.lua" "$root/bindings/lua" "$lib" "$out/lua" "$tmp/gen"
fi
want luajit luajit && row luajit luajit "$here/count.lua" "$root/bindings/lua" "$lib" - "$tmp/gen"
. "$here/scheme_tree.sh"
scheme_tree "$out"
if want guile guile-3.0; then
  export GUILE_AUTO_COMPILE=0 GUILE_LOAD_COMPILED_PATH="$cache"
  row guile guile-3.0 -x .sls -L "$slib" -L "$scm" "$scm/count.sps" "$lib"
fi
if want chez chezscheme; then
  row chez chezscheme --libdirs "$slib:$scm" --optimize-level 3 --program "$scm/count.sps" "$lib"
fi
if want racket racket; then
  # A copy, not the links of scheme-lib: raco make writes compiled/
  # beside each source, and the sources are the repository's.
  rkt=$tmp/racket
  mkdir -p "$rkt"
  cp -RL "$slib" "$rkt/lib"
  cp -R "$scm" "$rkt/scm"
  (cd "$rkt" && racket -S "$rkt/lib" -S "$rkt/scm" -l- raco make scm/count.sps)
  row racket racket -S "$rkt/lib" -S "$rkt/scm" "$rkt/scm/count.sps" "$lib"
fi
