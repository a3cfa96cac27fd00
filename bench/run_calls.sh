#!/bin/sh
# run_calls.sh — instructions per call of each way of calling, counted by
# callgrind (valgrind --tool=callgrind).
#
#   bench/run_calls.sh [BUILD_DIR]      (default: build/bench)
#
# BUILD_DIR is a CMake build of the tree without NCCC_SANITIZE; the
# program is BUILD_DIR/bench/nccc_bench_calls. Each variant runs twice,
# with N1 and N2 iterations; (Ir(N2) - Ir(N1)) / (N2 - N1) is the cost of
# one iteration, with start-up, set-up and exit cancelled out. The counts
# are deterministic: the same binary gives the same figures on every run.
# docs/BENCHMARKS.md explains the variants.
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
. "$here/callgrind.sh"
callgrind_program run_calls.sh nccc_bench_calls 10000 110000 "${1:-}"

echo "instructions per call (callgrind; iterations $N1 and $N2; loop included)"
echo "$(uname -m), $(cc --version 2>/dev/null | head -n 1), $(valgrind --version)"
echo
printf '%-6s %8s %8s %8s %8s %8s %8s   %9s %9s %9s\n' \
  function loop direct wrapper handle checked ffi_call \
  wrap/dir handle/dir wrap/ffi
for fn in add mix6 vec3; do
  for way in loop direct wrapper handle checked ffi; do
    eval "ir_$way=\$(per_call $fn.$way)"
  done
  # shellcheck disable=SC2154 # set by the eval above
  awk -v f="$fn" -v l="$ir_loop" -v d="$ir_direct" -v w="$ir_wrapper" \
      -v h="$ir_handle" -v c="$ir_checked" -v x="$ir_ffi" 'BEGIN {
    printf "%-6s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f   %9.2f %9.2f %9.2f\n",
           f, l, d, w, h, c, x, w / d, h / d, w / x
  }'
done
ir_hand=$(per_call add.hand)
ir_gen=$(per_call add.wrapper)
awk -v h="$ir_hand" -v g="$ir_gen" 'BEGIN {
  printf "\nadd: hand-written wrapper %.2f, generated wrapper %.2f (generated/hand %.2f)\n",
         h, g, g / h
}'
echo
echo "the dynamic forwarder (libnccc_ffi: an nccc_fn made at run time from a"
echo "pointer and a signature, calling through ffi_call) against the wrapper:"
printf '%-6s %8s %8s   %9s\n' function wrapper forward fwd/wrap
for fn in add mix6; do
  w=$(per_call "$fn.wrapper")
  f=$(per_call "$fn.forward")
  awk -v n="$fn" -v w="$w" -v f="$f" \
    'BEGIN { printf "%-6s %8.2f %8.2f   %9.2f\n", n, w, f, f / w }'
done
echo
echo "targets: wrapper/direct <= 2, handle/direct <= 3, wrapper/ffi_call <= 0.20"
echo
echo "callbacks: instructions per callback of a C loop (bench_fold), loop included"
printf '%-6s %8s %8s %8s %8s   %9s %9s\n' \
  '' direct backward thunk ffi_clos back/dir back/ffi
for way in direct back thunk ffi; do
  eval "cb_$way=\$(per_call cb.$way)"
done
# shellcheck disable=SC2154 # set by the eval above
awk -v d="$cb_direct" -v b="$cb_back" -v t="$cb_thunk" -v x="$cb_ffi" 'BEGIN {
  printf "%-6s %8.2f %8.2f %8.2f %8.2f   %9.2f %9.2f\n",
         "fold", d, b, t, x, b / d, b / x
}'
echo
echo "the experiment (docs/BENCHMARKS.md): hand-written backward wrappers of"
echo "the same shape without the closure and its checks, errno not kept (bare)"
echo "and kept (errno)"
printf '%-6s %8s %8s %8s\n' '' bare errno backward
cb_bare=$(per_call cb.bare)
cb_errno=$(per_call cb.errno)
awk -v a="$cb_bare" -v e="$cb_errno" -v b="$cb_back" 'BEGIN {
  printf "%-6s %8.2f %8.2f %8.2f\n", "fold", a, e, b
}'
