#!/bin/sh
# run_lookup.sh — instructions per lookup by name, counted by callgrind:
# nccc_lookup("m.NAME") in a module of N functions (through its hash
# index, and through its sorted index alone) against a plain scan and a
# hash table of the same names (bench/bench_lookup.c says how each way
# works).
#
#   bench/run_lookup.sh [BUILD_DIR]      (default: build/bench)
#
# Each way runs for N1 and N2 lookups (bench/callgrind.sh); the figure is
# the difference per lookup, set-up cancelled out. Deterministic.
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
. "$here/callgrind.sh"
callgrind_program run_lookup.sh nccc_bench_lookup 200 2200 "${1:-}"

echo "instructions per lookup (callgrind; lookups $N1 and $N2)"
echo
printf '%6s %9s %9s %9s %9s   %10s %10s\n' names nccc sorted scan hash \
  nccc/scan nccc/hash
for n in 10 100 1000 10000; do
  a=$(per_call "nccc.$n")
  o=$(per_call "sorted.$n")
  s=$(per_call "scan.$n")
  h=$(per_call "hash.$n")
  awk -v n="$n" -v a="$a" -v o="$o" -v s="$s" -v h="$h" 'BEGIN {
    printf "%6d %9.2f %9.2f %9.2f %9.2f   %10.2f %10.2f\n", n, a, o, s, h,
      a / s, a / h
  }'
done
echo
echo "targets: nccc/scan <= 1.0 at 10 names, nccc/hash <= 1.2 at every size"
