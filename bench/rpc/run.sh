#!/bin/sh
# run.sh — remote calls per second against their limit: for the calls
# "add" (2 slots in, 1 out) and "slab" (slab_turn: 64 in, 64 out), over a
# pipe to the test device and over TCP on 127.0.0.1, the rate of calls
# through the client (nccc_rpc_bench) beside the rate of raw round trips
# moving the same bytes each way over the same transport
# (nccc_pingpong), and their ratio; then the same pipe figures with the
# device (and the raw peer) under qemu-arm and qemu-mips.
#
#   bench/rpc/run.sh [BUILD_DIR] [SECONDS]
#
# BUILD_DIR: a plain (not ASan) build of the tree, default build/plain;
# SECONDS: the length of each measurement, default 2. docs/BENCHMARKS.md
# ("Remote calls") explains the figures.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
build=${1:-$here/../../build/plain}
secs=${2:-2}
rpc=$build/bench/rpc/nccc_rpc_bench
raw=$build/bench/rpc/nccc_pingpong
device=$build/test/remote/wire_device
for p in "$rpc" "$raw" "$device"; do
  if [ ! -x "$p" ]; then
    echo "run.sh: $p not found; build $build first" >&2
    exit 2
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

printf '%-22s %9s %9s %12s %12s %7s\n' "" "req B" "resp B" "calls/s" "raw trips/s" "ratio"
# measure LABEL TRANSPORT CALL DEVICE WORDS... [-- RAW PEER WORDS...]:
# the RPC rate (its line: "rpc T CALL REQ RESP: RATE"), then the raw
# rate of REQ and RESP bytes over the same transport.
measure() {
  label=$1 transport=$2 call=$3
  shift 3
  dev_words="" peer_words=""
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do dev_words="$dev_words $1"; shift; done
  [ $# -gt 0 ] && shift
  peer_words="$*"
  if [ "$transport" = tcp ]; then
    # shellcheck disable=SC2086
    $dev_words --tcp 0 >"$tmp/port" &
    pid=$!
    while ! grep -q '^port ' "$tmp/port" 2>/dev/null; do sleep 0.05; done
    port=$(sed -n 's/^port //p' "$tmp/port")
    line=$("$rpc" "tcp:$port" "$call" "$secs")
    wait "$pid" || true
  else
    # shellcheck disable=SC2086
    line=$("$rpc" pipe "$call" "$secs" $dev_words)
  fi
  set -- $line
  req=$4 resp=${5%:} rate=$6
  # shellcheck disable=SC2086
  limit=$("$raw" "$transport" "$req" "$resp" "$secs" $peer_words)
  limit=${limit##*: }
  printf '%-22s %9s %9s %12s %12s %6s%%\n' "$label" "$req" "$resp" "$rate" "$limit" \
    "$(awk "BEGIN { printf \"%.0f\", 100 * $rate / $limit }")"
}

for call in add slab; do
  measure "pipe $call" pipe "$call" "$device"
  measure "tcp $call" tcp "$call" "$device"
done
for arch in arm:arm-linux-gnueabihf mips:mips-linux-gnu; do
  name=${arch%%:*} triple=${arch#*:}
  cross=$build/cross/$name
  if [ -x "$cross/wire_device" ] && command -v "qemu-$name" >/dev/null; then
    for call in add slab; do
      measure "qemu-$name pipe $call" pipe "$call" \
        "qemu-$name" -L "/usr/$triple" "$cross/wire_device" -- \
        "qemu-$name" -L "/usr/$triple" "$cross/pingpong"
    done
  fi
done
