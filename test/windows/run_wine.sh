#!/bin/bash
# run_wine.sh WINE64 PREFIX PROGRAM [ARG...] — runs a Windows program of
# the build under wine64, in the wine prefix PREFIX (an absolute path in
# the build tree), without wine's debug output, and bounded: killed after
# NCCC_WINE_TIMEOUT seconds (default 300). Standard input and output stay
# the program's, so a host can talk to a device through them. The status
# is the program's (124 on a timeout).
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
exec timeout -k 10 "$limit" "$wine" "$@"
