#!/usr/bin/env bash
# hosts.sh PREFIX TESTDIR CMAKE CC — uses an
# installed nccc in PREFIX as its users do (run.sh after cmake --install,
# test/package/deb.sh after dpkg): copies consumer/ and the check
# programs out of TESTDIR, builds the consumer against PREFIX alone
# (find_package(nccc), PREFIX's nccc-stubgen), then runs each interpreter
# with only the set-up the host pages document for a prefix off its
# default paths, and the consumer's remote-call host against its device
# program, and the same library built without CMake (PREFIX's generator
# and pkg-config) from Python. The environment names the interpreters (LUA54, LUAJIT, GUILE,
# CHEZ, RACKET, RACO, PYTHON; default: their Debian names), PYTHON_DIR,
# the Python package directory under PREFIX, and for a sanitizer build
# SANITIZE_FLAGS (the consumer's compile and link flags) and LIBASAN
# (preloaded into the interpreters). Prints one line per host
# ("lua: 42 10", ..., "docs: installed", "remote: 42"); fails when one is
# wrong. It also checks the installed docs and the generator's man page.
set -euo pipefail
prefix=$1 testdir=$2 cmake=$3 cc=$4
sanitize=${SANITIZE_FLAGS:-} libasan=${LIBASAN:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-hosts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
work=$tmp/work out=$tmp/consumer

mkdir -p "$work"
cp -R "$testdir/consumer" "$testdir"/check* "$work/"
"$cmake" -S "$work/consumer" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$sanitize" \
  -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" >/dev/null
"$cmake" --build "$out" >/dev/null
lib=$out/libgreet.so   # the generated modules are in $out/nccc

# The interpreters load an instrumented library only with libasan first.
run() {
  if [ -n "$libasan" ]; then
    env LD_PRELOAD="$libasan" ASAN_OPTIONS=detect_leaks=0 "$@"
  else
    "$@"
  fi
}
failed=0
expect() { # NAME OUTPUT
  if [ "$2" = "$1: 42 10" ]; then echo "$2"; else echo "FAIL $1: $2"; failed=1; fi
}

expect lua "$(LUA_PATH="$prefix/share/lua/5.4/?.lua;$out/nccc/?.lua;;" \
  LUA_CPATH="$prefix/lib/lua/5.4/?.so;;" run "${LUA54:-lua5.4}" "$work/check.lua" lua "$lib" 2>&1)"
expect luajit "$(LUA_PATH="$prefix/share/lua/5.1/?.lua;$out/nccc/?.lua;;" \
  run "${LUAJIT:-luajit}" "$work/check.lua" luajit "$lib" 2>&1)"
expect guile "$(GUILE_AUTO_COMPILE=0 GUILE_LOAD_PATH="$prefix/share/guile/site/3.0:$out" \
  run "${GUILE:-guile}" "$work/check_guile.scm" "$lib" 2>&1)"
expect python "$(PYTHONPATH="$prefix/${PYTHON_DIR:-lib/python3/dist-packages}:$out/nccc" \
  NCCC_PRIMITIVE=c run "${PYTHON:-python3}" "$work/check_python.py" "$lib" 2>&1)"
expect chez "$(run "${CHEZ:-chezscheme}" --libdirs "$prefix/share/r6rs:$out" \
  --program "$work/check_chez.sps" "$lib" 2>&1)"
# Racket: the package from the prefix, into a user scope of our own; the
# generated module by its path (nccc/greet.rkt beside the program).
export PLTUSERHOME=$tmp/home
"${RACO:-raco}" pkg install --copy --scope user --no-docs "$prefix/share/nccc/racket/nccc" >/dev/null
cp "$work/check_racket.rkt" "$out/"
expect racket "$(run "${RACKET:-racket}" "$out/check_racket.rkt" "$lib" 2>&1)"
# The same library made without CMake (docs/IDL.md, "Without CMake"):
# PREFIX's generator, pkg-config and the compiler; used from Python.
plain=$tmp/no-cmake
"$prefix/bin/nccc-stubgen" --lang c,python -o "$plain" "$work/consumer/greet.idl"
pc() { PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@" nccc; }
# shellcheck disable=SC2046,SC2086  # flags: one word each
"$cc" $sanitize -shared -fPIC -o "$plain/libgreet.so" -I"$plain" -I"$work/consumer" \
  "$plain/greet_nccc.c" "$work/consumer/greet.c" $(pc --cflags) \
  -Wl,--whole-archive $(pc --libs) -Wl,--no-whole-archive
expect python "$(PYTHONPATH="$prefix/${PYTHON_DIR:-lib/python3/dist-packages}:$plain" \
  NCCC_PRIMITIVE=c run "${PYTHON:-python3}" "$work/check_python.py" "$plain/libgreet.so" 2>&1)"
# The docs and the generator's man page (cmake/NcccInstallDocs.cmake); the
# installed generator names its docs where they are installed.
doc=$(cd "$prefix" && pwd -P)/share/doc/nccc/IMPORT.md
if [ -f "$doc" ] && [ -f "$prefix/share/doc/nccc/README.md" ] &&
   grep -q '^\.TH NCCC-STUBGEN "1"' "$prefix/share/man/man1/nccc-stubgen.1" &&
   "$prefix/bin/nccc-stubgen" --help | tr -s ' \n' ' ' | grep -qF "($doc)"; then
  echo "docs: installed"
else
  echo "FAIL docs: $doc, README.md or nccc-stubgen.1 missing, or --help names another IMPORT.md"
  failed=1
fi
# Remote calls: the client (nccc::remote) calls greet on a device program
# (nccc::rpc_posix), both built from the prefix alone.
remote=$("$out/greet_remote" "$out/greet_device" 2>&1) || true
if [ "$remote" = "remote: 42" ]; then echo "$remote"; else echo "FAIL remote: $remote"; failed=1; fi
exit $failed
