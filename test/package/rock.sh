#!/usr/bin/env bash
# rock.sh SOURCE VERSION FIXTURE GENERATED [LUA] — ctest package_rock: the
# LuaRocks rock of bindings/lua, built with Debian's luarocks and used from
# lua5.4 (LUA, default lua5.4).
#  1. bindings/lua and nccc_runtime/include of SOURCE copied to a
#     temporary checkout (luarocks make builds where it runs), then
#     `luarocks --lua-version 5.4 --tree TREE make nccc-VERSION-1.rockspec`
#     in its bindings/lua, with HOME there too (no user configuration).
#  2. `luarocks list` in TREE shows nccc VERSION-1, and TREE holds every
#     Lua file of SOURCE's bindings/lua (the rockspec names each module)
#     and the C module nccc/core.so.
#  3. lua5.4 with the paths of `luarocks path` for TREE and GENERATED (the
#     host fixture's generated modules): nccc and nccc.core come from TREE,
#     tour.add(40, 2) is 42 and hcb.fold(4, a callback adding i to acc)
#     into FIXTURE is 0+1+2+3 = 6 (check_rock.lua).
# LD_PRELOAD and ASAN_OPTIONS of the environment (a sanitizer build's
# fixture) go to lua5.4 only.
set -euo pipefail
src=$1 version=$2 fixture=$3 generated=$4 lua=${5:-lua5.4}
source "$(dirname "$0")/common.sh"
package_start rock
export HOME=$tmp/home
tree=$tmp/tree rocks=(luarocks --lua-version 5.4 --tree "$tmp/tree")
mkdir -p "$HOME" "$tmp/checkout/bindings" "$tmp/checkout/nccc_runtime"
cp -R "$src/bindings/lua" "$tmp/checkout/bindings/"
cp -R "$src/nccc_runtime/include" "$tmp/checkout/nccc_runtime/"

(cd "$tmp/checkout/bindings/lua" && quiet "${rocks[@]}" make "nccc-$version-1.rockspec")
listed=$("${rocks[@]}" list --porcelain nccc)
case "$listed" in
  "nccc	$version-1	installed	$tree/lib/luarocks/rocks-5.4") echo "rock: $listed" ;;
  *) fail "luarocks list: $listed" ;;
esac
lmod=$tree/share/lua/5.4
for f in $(cd "$src/bindings/lua" && find . -name '*.lua' | sort); do
  [ -f "$lmod/$f" ] || fail "the rock lacks bindings/lua/${f#./}: name it in the rockspec's build.modules"
done
[ -f "$tree/lib/lua/5.4/nccc/core.so" ] || fail "the rock lacks nccc/core.so"

eval "$("${rocks[@]}" path)"
export LUA_PATH="$LUA_PATH;$generated/?.lua"
LD_PRELOAD=$preload "$lua" "$here/check_rock.lua" "$tree" "$fixture"
