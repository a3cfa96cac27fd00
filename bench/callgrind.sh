# callgrind.sh — sourced by the benchmark scripts (run_calls.sh, run_lookup.sh,
# rust/run.sh): per_call VARIANT runs "$prog VARIANT N" under callgrind
# for N = N1 and N2 and prints (Ir(N2) - Ir(N1)) / (N2 - N1), the cost of
# one iteration with start-up, set-up and exit cancelled out. The caller
# sets prog, N1, N2 and tmp (a directory it removes), or calls
# callgrind_start, which checks the program and valgrind and makes tmp,
# or callgrind_program, which sets prog, N1 and N2 first.

# callgrind_program SCRIPT TARGET N1 N2 [BUILD]: prog is the program of
# the CMake target TARGET in the build BUILD (default: build/bench of the
# tree, from $here, the caller's bench folder), run for NCCC_BENCH_N1 and
# NCCC_BENCH_N2 iterations (default N1 and N2); then callgrind_start.
callgrind_program() {
  build=${5:-$here/../build/bench}
  prog=$build/bench/$2
  N1=${NCCC_BENCH_N1:-$3}
  N2=${NCCC_BENCH_N2:-$4}
  callgrind_start "$1" "$2" "$build"
}

# callgrind_start SCRIPT TARGET BUILD: exits 2 (saying why) unless $prog,
# the target TARGET of the build BUILD, is built and valgrind installed;
# then makes $tmp, removed on exit.
callgrind_start() {
  if [ ! -x "$prog" ]; then
    echo "$1: $prog not found; build it first:" >&2
    echo "  cmake --build $3 --target $2" >&2
    exit 2
  fi
  command -v valgrind >/dev/null 2>&1 || {
    echo "$1: valgrind not found (apt-get install valgrind)" >&2
    exit 2
  }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT INT TERM
}

# Total instructions of one run ("Collected" in callgrind's summary):
# "$prog" $prog_args VARIANT N (prog_args: words before the variant, an
# interpreter's program and its arguments; unset for a program of ours).
count() {
  # shellcheck disable=SC2086 # prog_args is words
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
    "$prog" ${prog_args:-} "$1" "$2" >/dev/null 2>"$tmp/log" || {
    cat "$tmp/log" >&2
    exit 1
  }
  sed -n 's/^==[0-9]*== Collected : *\([0-9]*\).*/\1/p' "$tmp/log"
}

per_call() {
  a=$(count "$1" "$N1")
  b=$(count "$1" "$N2")
  awk -v a="$a" -v b="$b" -v n1="$N1" -v n2="$N2" \
    'BEGIN { printf "%.2f", (b - a) / (n2 - n1) }'
}
