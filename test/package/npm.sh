#!/usr/bin/env bash
# npm.sh SOURCE VERSION WASM_BUILD NODE — ctest package_npm: the npm
# tarball of bindings/js, installed into a project with npm and used from
# node, with the registry unreachable (npm_config_registry points to a
# closed local port; npm's cache is in the temporary folder).
#  1. `npm pack` of a copy of bindings/js: nccc-VERSION.tgz, holding
#     package.json (version VERSION), the ES module nccc/index.mjs with
#     its declarations nccc/index.d.ts, and wasm/nccc_js.c.
#  2. npm_app/ copied to a temporary project; `npm install --offline` of
#     the tarball's path there.
#  3. tsc (Debian's node-typescript) type-checks npm_app/types.mts against
#     the installed package ("nccc", "nccc/remote", "nccc/remote/node" and
#     "nccc/remote/bridge", each by its declarations) (module and resolution nodenext, strict), with
#     --skipLibCheck: Debian's TypeScript 4.8 does not know the
#     declarations' [Symbol.dispose] (TypeScript 5.2 does).
#  4. node check.mjs in the project: nccc from its node_modules at
#     VERSION; the host fixture's wasm build in WASM_BUILD (the target
#     nccc_js_wasm, test/js), tour.add(40n, 2n) is 42n and hcb.fold(4, a
#     callback adding i to acc) is 0+1+2+3 = 6.
set -euo pipefail
src=$1 version=$2 wasm_build=$3 node=$4
source "$(dirname "$0")/common.sh"
package_start npm
export npm_config_cache=$tmp/npm-cache npm_config_registry=http://127.0.0.1:9/
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

cp -R "$src/bindings/js" "$tmp/js"
mkdir "$tmp/dist"
quiet npm pack --offline --pack-destination "$tmp/dist" "$tmp/js"
tgz=$tmp/dist/nccc-$version.tgz
[ -f "$tgz" ] || fail "no nccc-$version.tgz in: $(ls "$tmp/dist")"
listing=$(tar -tzf "$tgz")
for f in package/package.json package/nccc/index.mjs package/nccc/index.d.ts \
         package/nccc/remote/index.d.ts package/nccc/remote/node.d.ts \
         package/nccc/remote/bridge.d.ts package/wasm/nccc_js.c; do
  grep -qx "$f" <<<"$listing" || fail "the tarball lacks $f"
done
echo "npm tarball: $(basename "$tgz")"

app=$tmp/app
cp -R "$here/npm_app" "$app"
(cd "$app" && quiet npm install --offline "$tgz")
(cd "$app" && quiet tsc --noEmit --strict --skipLibCheck --module nodenext --moduleResolution nodenext \
   --target es2022 --lib es2022,dom types.mts)
echo "tsc: types.mts checks against the installed declarations"
(cd "$app" && "$node" check.mjs "$wasm_build/test/js/wasm/nccc_js_fixture.wasm" \
   "$wasm_build/test/js/wasm/generated" "$version")
