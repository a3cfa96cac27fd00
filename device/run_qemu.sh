#!/usr/bin/env bash
# Boots a Cortex-M3 image on QEMU's mps2-an385 with semihosting.
#
# usage: run_qemu.sh IMAGE.elf [QEMU_ARGS...]
#   returns the image's exit status; UART0 goes to standard output unless
#   QEMU_ARGS say where (for example "-serial tcp:127.0.0.1:PORT,server=on").
# usage: run_qemu.sh --link IMAGE.elf
#   UART0 on standard input and output, for a host's remote-call client
#   (nccc_remote_open_exec): QEMU is stopped as soon as standard input
#   ends, so that a host that closes the link or exits leaves nothing
#   running.
#
# Either way the run is bounded: past TIMEOUT seconds (default 60) QEMU is
# killed and the status is 124. Semihosting output goes to standard error.
set -euo pipefail
qemu=(qemu-system-arm -M mps2-an385 -display none -monitor none -semihosting)
bounded=(timeout --kill-after=5 "${TIMEOUT:-60}")
if [[ $1 == --link ]]; then
  image=$2
  pidfile=$(mktemp)
  { cat; kill "$(cat "$pidfile")" 2>/dev/null || true; rm -f "$pidfile"; } |
    "${bounded[@]}" "${qemu[@]}" -pidfile "$pidfile" -serial stdio -kernel "$image"
  exit
fi
image=$1
shift
serial=(-serial stdio)
if (($#)); then serial=("$@"); fi
exec "${bounded[@]}" "${qemu[@]}" "${serial[@]}" -kernel "$image"
