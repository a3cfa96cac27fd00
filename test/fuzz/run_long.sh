#!/bin/sh
# run_long.sh — each libFuzzer target of the remote-call decoders for a
# long run, one after the other, niced, keeping a corpus per target.
#
#   test/fuzz/run_long.sh [BUILD_DIR] [RUNS] [CORPUS_DIR] [TARGET...]
#
# BUILD_DIR: a plain build of the tree (default build/plain), whose
# fuzz/ holds the targets (cmake/NcccFuzz.cmake); RUNS: executions per
# target (default 10000000); CORPUS_DIR: where each target's corpus grows
# (default BUILD_DIR/fuzz/corpus); TARGET: frame, server, client or
# session (default: all four, in that order). Prints each target's last status line
# and exits non-zero on the first finding (libFuzzer writes the input as
# CORPUS_DIR/TARGET-crash-*, -leak-* or -timeout-*).
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
build=${1:-$here/../../build/plain}
runs=${2:-10000000}
corpus=${3:-$build/fuzz/corpus}
[ $# -gt 3 ] && shift 3 || set -- frame server client session
for target in "$@"; do
  prog=$build/fuzz/fuzz_$target
  if [ ! -x "$prog" ]; then
    echo "run_long.sh: $prog not found; build $build first" >&2
    exit 2
  fi
  mkdir -p "$corpus/$target"
  start=$(date +%s)
  nice -n 19 "$prog" -runs="$runs" -max_len=1024 -print_final_stats=1 \
    -artifact_prefix="$corpus/$target-" \
    "$corpus/$target" >"$corpus/$target.log" 2>&1 || {
    tail -40 "$corpus/$target.log"
    echo "run_long.sh: fuzz_$target found a failure (log: $corpus/$target.log)" >&2
    exit 1
  }
  end=$(date +%s)
  echo "fuzz_$target: $(grep -E '^Done [0-9]+ runs' "$corpus/$target.log"), $((end - start)) s, corpus $(ls "$corpus/$target" | wc -l) inputs"
done
