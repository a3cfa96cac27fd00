// check.mjs WASM GENERATED VERSION — the npm tarball's test (npm.sh), run
// by node in a project whose node_modules has nccc from `npm install` of
// the tarball: "nccc" resolves there, at VERSION; then the host fixture's
// wasm build WASM and its generated tour.mjs and hcb.mjs (GENERATED): one
// call and one callback. Prints "js: nccc VERSION from the tarball, add
// 42, fold 6".
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import * as nccc from "nccc";

const [wasm, generated, version] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const entry = require.resolve("nccc");
const home = new URL("./node_modules/nccc/", import.meta.url).pathname;
if (!entry.startsWith(home)) throw new Error(`nccc resolves to ${entry}, not under ${home}`);
const installed = JSON.parse(readFileSync(`${home}package.json`, "utf8")).version;
if (installed !== version) throw new Error(`nccc ${installed} installed, not ${version}`);

const rt = await nccc.load(wasm);
rt.callAddress(rt.symbol("nccc_fixture_open"), ":iI");   // adds tour and hcb
const gen = pathToFileURL(generated).href;
const tour = (await import(`${gen}/tour.mjs`)).bind(rt);
const hcb = (await import(`${gen}/hcb.mjs`)).bind(rt);
const sum = tour.add(40n, 2n);
const folded = hcb.fold(4, hcb.callback("step_fn", (acc, i) => acc + i));
console.log(`js: nccc ${installed} from the tarball, add ${sum}, fold ${folded}`);
process.exit(sum === 42n && folded === 6 ? 0 : 1);
