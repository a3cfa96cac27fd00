#!/bin/bash
# run_wine.sh WINE64 PREFIX PROGRAM [ARG...] — runs a Windows program of
# the build under wine64, in the wine prefix PREFIX (an absolute path in
# the build tree), without wine's debug output, and bounded: killed after
# NCCC_WINE_TIMEOUT seconds (default 300). Standard input and output stay
# the program's, so a host can talk to a device through them. The status
# is the program's (124 on a timeout). The wine server stays up 30 s after
# the last program, then stops.
# run_wine.sh WINE64 PREFIX --init makes the prefix (or brings it up to
# date) and waits until wine's server has stopped, so that the programs
# that follow start on a settled prefix.
set -u
wine=$1 prefix=$2
shift 2
mkdir -p "$prefix"
export WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
limit=${NCCC_WINE_TIMEOUT:-300}
if [ "$*" = "--init" ]; then
  timeout -k 10 "$limit" "$wine" wineboot --init || exit
  exec timeout -k 10 "$limit" "${wine%/*}/wineserver" -w
fi
# A wine server kept for 30 s after its last program (it stops by itself;
# status 2 when one runs already), with wine's own processes started away
# from this program's streams (they live as long as the server; on the
# program's streams they would hold its pipes open): a program then
# starts in a fraction of a second instead of about two, well within a
# host's wait for a device.
if "${wine%/*}/wineserver" -p30 </dev/null >/dev/null 2>&1; then
  timeout -k 10 "$limit" "$wine" wineboot </dev/null >/dev/null 2>&1
fi
exec timeout -k 10 "$limit" "$wine" "$@"
