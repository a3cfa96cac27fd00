#!/bin/sh
# run.sh — remote calls against their limit: for the calls "add" (2
# slots in, 1 out) and "slab" (slab_turn: 64 in, 64 out), over a pipe to
# the test device and over TCP on 127.0.0.1, the calls per second through
# the client (nccc_rpc_bench) beside the raw round trips per second moving
# the same bytes each way over the same transport (nccc_pingpong), and
# the CPU time of one call and of one raw round trip, both sides counted;
# over a pipe also the raw rate with this side waiting in poll before
# each read, as a client that must time out on a pipe does; then the same
# pipe figures with the device (and the raw peer) under qemu-arm and
# qemu-mips.
#
#   bench/rpc/run.sh [BUILD_DIR] [SECONDS] [ROUNDS]
#
# BUILD_DIR: a plain (not ASan) build of the tree, default build/plain.
# Each figure is the median of ROUNDS (default 5) measurements of SECONDS
# (default 1), the rpc and raw ones taken in turn so that both see the
# same load. Columns: calls/s, raw/s and their ratio; polled/s, the raw
# rate with poll, and the ratio to it; the CPU microseconds of a call and
# of a raw round trip, and raw over rpc: the share of a call's cost that
# is the transport's. docs/BENCHMARKS.md ("Remote calls") explains them.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
build=${1:-$here/../../build/plain}
secs=${2:-1}
rounds=${3:-5}
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

# the median of the numbers in file $1
median() {
  sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
percent() { echo "$1 $2" | awk '{ printf "%.0f%%", 100 * $1 / $2 }'; }

printf '%-19s %5s %5s %8s %8s %5s %8s %5s %6s %6s %5s\n' "" "req B" "res B" "calls/s" \
  "raw/s" "ratio" "polled/s" "ratio" "cpu us" "raw us" "ratio"
# measure LABEL TRANSPORT CALL DEVICE WORDS... [-- RAW PEER WORDS...]
measure() {
  label=$1 transport=$2 call=$3
  shift 3
  dev_words="" peer_words=""
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do dev_words="$dev_words $1"; shift; done
  [ $# -gt 0 ] && shift
  peer_words="$*"
  for f in rate cpu raw raw_cpu polled; do : >"$tmp/$f"; done
  k=0
  while [ $k -lt "$rounds" ]; do
    # shellcheck disable=SC2086
    set -- $("$rpc" "$transport" "$call" "$secs" $dev_words)
    req=$4 resp=${5%:}
    echo "$6" >>"$tmp/rate"
    echo "$7" >>"$tmp/cpu"
    # shellcheck disable=SC2086
    set -- $("$raw" "$transport" "$req" "$resp" "$secs" $peer_words)
    echo "$5" >>"$tmp/raw"
    echo "$6" >>"$tmp/raw_cpu"
    if [ "$transport" = pipe ]; then
      # shellcheck disable=SC2086
      set -- $("$raw" pipe "$req" "$resp" "$secs" --poll $peer_words)
      echo "$5" >>"$tmp/polled"
    fi
    k=$((k + 1))
  done
  r=$(median "$tmp/rate") l=$(median "$tmp/raw") c=$(median "$tmp/cpu") rc=$(median "$tmp/raw_cpu")
  if [ -s "$tmp/polled" ]; then
    p=$(median "$tmp/polled")
    polled=$(printf '%8.0f %5s' "$p" "$(percent "$r" "$p")")
  else
    polled=$(printf '%8s %5s' - -)
  fi
  printf '%-19s %5s %5s %8.0f %8.0f %5s %s %6.2f %6.2f %5s\n' "$label" "$req" "$resp" "$r" \
    "$l" "$(percent "$r" "$l")" "$polled" "$c" "$rc" "$(percent "$rc" "$c")"
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
