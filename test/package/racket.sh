#!/usr/bin/env bash
# racket.sh BUILD VERSION FIXTURE [RACO RACKET] — ctest package_racket: the
# Racket package nccc, made with raco pkg create and installed with raco
# pkg install into a private add-on directory, then used from racket.
#  1. cmake --install BUILD into a temporary prefix puts the package's
#     directory in PREFIX/share/nccc/racket/nccc (info.rkt: collection
#     nccc, version VERSION; the .rkt entries, the .sls libraries, Racket's
#     adapter).
#  2. `raco pkg create --format zip` of that directory: nccc.zip and its
#     .CHECKSUM.
#  3. `raco pkg install --scope user --no-docs nccc.zip` with PLTADDONDIR
#     a fresh directory (the user scope lives there; nothing else is
#     touched).
#  4. racket check_racket_pkg.rkt with the same PLTADDONDIR: the package
#     nccc is installed there, at VERSION; then nccc/core loads FIXTURE,
#     tour.add(40, 2) is 42 and hcb.fold(4, a callback adding i to acc)
#     is 0+1+2+3 = 6.
# LD_PRELOAD and ASAN_OPTIONS of the environment (a sanitizer build's
# fixture) go to racket only.
set -euo pipefail
build=$1 version=$2 fixture=$3 raco=${4:-raco} racket=${5:-racket}
source "$(dirname "$0")/common.sh"
package_start racket
export PLTADDONDIR=$tmp/addon

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
mkdir -p "$tmp/dist"
"$raco" pkg create --format zip --dest "$tmp/dist" "$tmp/prefix/share/nccc/racket/nccc" >/dev/null
[ -f "$tmp/dist/nccc.zip" ] && [ -f "$tmp/dist/nccc.zip.CHECKSUM" ] \
  || fail "raco pkg create made: $(ls "$tmp/dist")"
echo "racket package: nccc.zip"
quiet "$raco" pkg install --scope user --no-docs "$tmp/dist/nccc.zip"
LD_PRELOAD=$preload "$racket" "$here/check_racket_pkg.rkt" "$PLTADDONDIR" "$version" "$fixture"
