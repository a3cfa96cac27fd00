#!/usr/bin/env bash
# Boots a Cortex-M3 image on QEMU's mps2-an385 with semihosting and
# returns the image's exit status; UART0 goes to standard output unless
# QEMU_ARGS are given (for example "-serial tcp:127.0.0.1:PORT,server=on").
# The run is bounded: past TIMEOUT seconds (default 60) QEMU is killed
# and the status is 124.
#
# usage: run_qemu.sh IMAGE.elf [QEMU_ARGS...]
set -euo pipefail
image=$1
shift
serial=(-serial stdio)
if (($#)); then serial=("$@"); fi
exec timeout --kill-after=5 "${TIMEOUT:-60}" \
  qemu-system-arm -M mps2-an385 -display none -monitor none -semihosting \
  "${serial[@]}" -kernel "$image"
