#!/usr/bin/env bash
# run.sh BUILD TUTORIAL CMAKE PYTHON [IDL] — the tutorial's test
# (test/tutorial/CMakeLists.txt): the steps of docs/TUTORIAL.md with the
# files taken out of the page itself. Installs BUILD into a temporary
# prefix, builds the page's two projects against the prefix alone (part
# one's expat, part two's zstream), runs their programs on its document
# with the environment the page shows, and compares their output with
# the page's. The environment names the interpreters (LUA54, LUAJIT,
# GUILE, PYTHON3, CHEZ, RACKET) and Rust's CARGO and RUSTC (default: their Debian names);
# the Rust program takes the crate from the source tree of TUTORIAL.
# With IDL, that file replaces the page's expat.idl (the importer's test,
# test/importer/, runs the page's programs on an imported draft).
set -euo pipefail
build=$1 tutorial=$2 cmake=$3 python=$4 idl=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-tutorial.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix work=$tmp/work
mkdir -p "$work"
"$python" "$here/extract.py" "$tutorial" "$work" >/dev/null
[ -z "$idl" ] || cp "$idl" "$work/expat.idl"
for f in expat.idl CMakeLists.txt planets.xml count.lua count.scm \
         zstream/zstream.idl zstream/CMakeLists.txt zstream/stream.lua zstream/stream.py \
         zstream/stream.scm zstream/stream.sps zstream/Cargo.toml zstream/build.rs zstream/stream.rs; do
  [ -f "$work/$f" ] || { echo "FAIL: docs/TUTORIAL.md shows no $f"; exit 1; }
done
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
cd "$work"
"$cmake" -S . -B build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
"$cmake" --build build >/dev/null
lua_out=$(LUA_PATH="$prefix/share/lua/5.4/?.lua;build/nccc/?.lua;;" \
  LUA_CPATH="$prefix/lib/lua/5.4/?.so;;" \
  "${LUA54:-lua5.4}" count.lua build/libexpat_nccc.so planets.xml 2>&1)
guile_out=$(GUILE_AUTO_COMPILE=0 GUILE_LOAD_PATH="$prefix/share/guile/site/3.0:build" \
  "${GUILE:-guile}" count.scm build/libexpat_nccc.so planets.xml 2>&1)
got=$(printf '%s\n%s' "$lua_out" "$guile_out")

# part two: zlib streamed through a z_stream, from each host
if [ -z "$idl" ]; then
  cd zstream
  "$cmake" -S . -B build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  "$cmake" --build build >/dev/null
  lib=build/libzstream_nccc.so
  got=$got$'\n'$(LUA_PATH="$prefix/share/lua/5.4/?.lua;build/nccc/?.lua;;" \
    LUA_CPATH="$prefix/lib/lua/5.4/?.so;;" "${LUA54:-lua5.4}" stream.lua $lib ../planets.xml 2>&1 || true)
  got=$got$'\n'$(LUA_PATH="$prefix/share/lua/5.1/?.lua;build/nccc/?.lua;;" \
    "${LUAJIT:-luajit}" stream.lua $lib ../planets.xml 2>&1 || true)
  got=$got$'\n'$(PYTHONPATH="$prefix/lib/python3/dist-packages:build/nccc" \
    "${PYTHON3:-python3}" stream.py $lib ../planets.xml 2>&1 || true)
  got=$got$'\n'$(GUILE_AUTO_COMPILE=0 GUILE_LOAD_PATH="$prefix/share/guile/site/3.0:build" \
    "${GUILE:-guile}" stream.scm $lib ../planets.xml 2>&1 || true)
  got=$got$'\n'$("${CHEZ:-chezscheme}" --libdirs "$prefix/share/r6rs:build" \
    --program stream.sps $lib ../planets.xml 2>&1 || true)
  got=$got$'\n'$(PLTCOLLECTS="$prefix/share/nccc/racket:$PWD/build:" \
    "${RACKET:-racket}" stream.sps $lib ../planets.xml 2>&1 || true)
  # Rust: the crate from this source tree, the build's cargo and rustc
  sed -i "s|NCCC_SOURCE|$(cd "$(dirname "$tutorial")/.." && pwd)|" Cargo.toml
  got=$got$'\n'$(CARGO_HOME="$tmp/cargo-home" CARGO_TARGET_DIR="$tmp/target" \
    RUSTC="${RUSTC:-rustc}" "${CARGO:-cargo}" run --offline --quiet -- ../planets.xml 2>&1 || true)
  cd ..
  expected=$(cat expected)
else # the importer's test: part one on the draft
  expected=$(grep '^elements ' expected)
fi
echo "$got"
if [ "$got" != "$expected" ]; then
  echo "FAIL: the page shows"
  echo "$expected"
  exit 1
fi
