#!/usr/bin/env bash
# deb.sh BUILD VERSION INSTALL_TESTDIR CMAKE CC — ctest
# package_deb: the Debian package of BUILD, made by CPack
# (cmake/NcccPackage.cmake), installed with dpkg into a private root and
# used from there; the machine's own installation is not touched.
#  1. cpack -G DEB on BUILD's CPackConfig.cmake, into a temporary folder:
#     nccc_VERSION_<arch>.deb (dpkg-deb -f: Package nccc, Version VERSION).
#  2. A private dpkg database (--admindir) holding only the packages the
#     .deb depends on, copied from this machine's database
#     (dpkg-query -s), so dpkg checks the Depends against what is
#     installed here; then dpkg --instdir=ROOT -i: the files go to
#     ROOT/usr, the log to the temporary folder.
#  3. ROOT/usr/bin/nccc-stubgen --version is "nccc-stubgen VERSION", and
#     the private database lists nccc VERSION as installed.
#  4. test/install/hosts.sh with the prefix ROOT/usr: the consumer project
#     built with the package's CMake files and generator, one call and one
#     callback from lua5.4, luajit, guile, python3, chezscheme and racket
#     through the package's host layers, and one remote call (hosts.sh
#     takes its environment: the interpreters, the sanitizer's flags).
#  5. dpkg -r nccc in the private root removes every file it installed
#     (Python's __pycache__ aside, which the imports wrote).
set -euo pipefail
build=$1 version=$2 install_tests=$3
shift 3
source "$(dirname "$0")/common.sh"
package_start deb
admin=$tmp/admin root=$tmp/root

quiet cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out"
deb=$(echo "$tmp"/out/nccc_"$version"_*.deb)
[ -f "$deb" ] || fail "no nccc_${version}_*.deb in: $(ls "$tmp/out")"
fields=$(dpkg-deb -f "$deb" Package Version)
[ "$fields" = "Package: nccc
Version: $version" ] || fail "the package says: $fields"

mkdir -p "$admin/info" "$admin/updates" "$root"
touch "$admin/available" "$admin/status"
for d in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//'); do
  dpkg-query -s "$d" >>"$admin/status" || fail "the dependency $d is not installed"
  echo >>"$admin/status"
  touch "$admin/info/$(dpkg-query -W -f='${binary:Package}' "$d").list"
done
quiet dpkg --admindir="$admin" --instdir="$root" --log="$tmp/dpkg.log" --no-triggers -i "$deb"

stubgen=$("$root/usr/bin/nccc-stubgen" --version)
[ "$stubgen" = "nccc-stubgen $version" ] || fail "nccc-stubgen --version: $stubgen"
echo "$stubgen"
dpkg-query --admindir="$admin" -W -f='dpkg: ${Package} ${Version} ${Status}\n' nccc
bash "$install_tests/hosts.sh" "$root/usr" "$install_tests" "$@"
quiet dpkg --admindir="$admin" --instdir="$root" --log="$tmp/dpkg.log" -r nccc
left=$(find "$root" -type f ! -name '*.pyc' | head -3)
[ -z "$left" ] || fail "dpkg -r nccc left $left"
echo "dpkg -r: removed"
