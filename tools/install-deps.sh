#!/usr/bin/env bash
# Installs the Debian packages nccc needs, if any is missing. Idempotent and
# quiet when everything is present. Must run as root on Debian 12.
set -euo pipefail
packages=(
  build-essential cmake pkg-config check libffi-dev help2man
  python3 python3-lark python3-pytest python3-clang-14 libclang-14-dev
  python3-dev python3-setuptools python3-pip python3-wheel python3-cffi python3-jsonschema
  zlib1g-dev libsqlite3-dev libexpat1-dev uuid-dev valgrind
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
  lua5.4 liblua5.4-dev luajit libluajit-5.1-dev luarocks
  guile-3.0 guile-3.0-dev chezscheme racket
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
  gcc-mips-linux-gnu libc6-dev-mips-cross qemu-user clang libclang-rt-14-dev
  gcc-mingw-w64-x86-64 wine64  # the Windows x86-64 target under wine (docs/CROSS.md)
  rustc cargo lld-14 llvm-14  # lld and llvm-ar of LLVM 14, as rustc 1.63: the test rust_lto
  emscripten nodejs node-typescript  # node-typescript: tsc, the npm tarball's test
  chromium  # the web example's browser test
)
# npm fetches SQLite's amalgamation, zlib's sources for wasm and the
# browser test's packages; a nodejs that bundles its own npm
# (NodeSource's) conflicts with Debian's.
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "nccc: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
