# common.sh — sourced by the package tests' scripts (test/package/*.sh):
# package_start NAME makes the temporary folder $tmp (removed on exit),
# sets $here (the scripts' folder), and moves LD_PRELOAD (a sanitizer
# build's libasan, for an interpreter that loads the host fixture) to
# $preload, so that the packaging tools run without it; quiet CMD... runs
# CMD with its output shown only when it fails; fail MESSAGE prints
# "FAIL: MESSAGE" and exits 1.
package_start() {
  here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-$1.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  preload=${LD_PRELOAD:-}
  unset LD_PRELOAD
}
quiet() { "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }; }
fail() { echo "FAIL: $*"; exit 1; }
