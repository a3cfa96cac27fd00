// check_install.mjs WASM MODULE — the JavaScript install test (install.sh):
// the package nccc as a project gets it (import "nccc" from its
// node_modules), the generated greet.mjs of the consumer, one call and
// one callback. Prints "js: 42 10".
import * as nccc from "nccc";

const [wasm, module] = process.argv.slice(2);
const greet = (await import(module)).bind(await nccc.load(wasm));
const sum = greet.add(40n, 2n);
const folded = greet.fold(4, greet.callback("step_fn", (acc, i) => acc + i));
console.log(`js: ${sum} ${folded}`);
process.exit(sum === 42n && folded === 10 ? 0 : 1);
