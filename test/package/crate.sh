#!/usr/bin/env bash
# crate.sh SOURCE VERSION FIXTURE CARGO RUSTC — ctest package_crate: the
# Rust crate bindings/rust/nccc as `cargo package` makes it, used by a
# project that depends on the unpacked .crate. One cargo (CARGO, with
# RUSTC) does everything, with its own CARGO_HOME and target directories
# in a temporary folder, offline: no Cargo.lock is shared with another
# cargo, and the source tree is not written.
#  1. A copy of bindings/rust/nccc (not in a git checkout, so cargo
#     packages the files as they are) goes through `cargo package
#     --offline`, which also builds the packaged sources:
#     nccc-VERSION.crate, holding Cargo.toml (version VERSION) and src/.
#  2. The .crate unpacked (tar), and crate_app/ copied next to it with its
#     dependency's path filled in; bin/nccc-stubgen --lang rust writes
#     tour.rs and hcb.rs into its src/.
#  3. `cargo build --offline` of it, linking FIXTURE (RUSTFLAGS: -L, -l
#     and a run path), and the program run: tour.add(40, 2) is 42 and
#     hcb.fold(4, a closure adding i to acc) is 0+1+2+3 = 6.
# LD_PRELOAD and ASAN_OPTIONS of the environment (a sanitizer build's
# fixture) go to the program only.
set -euo pipefail
src=$1 version=$2 fixture=$3 cargo=$4
export RUSTC=$5
source "$(dirname "$0")/common.sh"
package_start crate
export CARGO_HOME=$tmp/cargo-home

cp -R "$src/bindings/rust/nccc" "$tmp/nccc"
rm -f "$tmp/nccc/Cargo.lock"   # the copy's own lock, written by this cargo
quiet env CARGO_TARGET_DIR="$tmp/target" "$cargo" package --offline \
  --manifest-path "$tmp/nccc/Cargo.toml"
crate=$tmp/target/package/nccc-$version.crate
[ -f "$crate" ] || fail "no nccc-$version.crate in: $(ls "$tmp/target/package")"
mkdir "$tmp/unpacked"
tar -xzf "$crate" -C "$tmp/unpacked"
unpacked=$tmp/unpacked/nccc-$version
grep -qx "version = \"$version\"" "$unpacked/Cargo.toml" \
  || fail "the packaged Cargo.toml has no version = \"$version\""
[ -f "$unpacked/src/lib.rs" ] || fail "the .crate has no src/lib.rs"
echo "crate: $(basename "$crate")"

app=$tmp/app
mkdir "$app"
cp -R "$here/crate_app/src" "$app/"
sed "s|@CRATE@|$unpacked|" "$here/crate_app/Cargo.toml.in" >"$app/Cargo.toml"
for idl in "$src/idl/examples/tour.idl" "$src/test/hosts/fixture/hcb.idl"; do
  quiet "$src/bin/nccc-stubgen" --lang rust -o "$app/src" "$idl"
done
lib=$(basename "$fixture" .so)
quiet env CARGO_TARGET_DIR="$tmp/app-target" \
  RUSTFLAGS="-L native=$(dirname "$fixture") -l dylib=${lib#lib} -C link-arg=-Wl,-rpath,$(dirname "$fixture")" \
  "$cargo" build --offline --manifest-path "$app/Cargo.toml"
LD_PRELOAD=$preload "$tmp/app-target/debug/nccc_crate_app"
