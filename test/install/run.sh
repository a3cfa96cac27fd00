#!/usr/bin/env bash
# run.sh BUILD TESTDIR CMAKE CC — the install test
# (test/install/CMakeLists.txt): installs BUILD into a temporary prefix
# with cmake --install, then uses it from every host (hosts.sh, which
# takes the same environment).
set -euo pipefail
build=$1 testdir=$2 cmake=$3 cc=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$cmake" --install "$build" --prefix "$tmp/prefix" >/dev/null
bash "$testdir/hosts.sh" "$tmp/prefix" "$testdir" "$cmake" "$cc"
