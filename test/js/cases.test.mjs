// cases.test.mjs — the shared host case table under node's own test
// runner (ctest js_cases): node --expose-gc --test cases.test.mjs, with
// NCCC_JS_GLUE (the threaded build of the host fixture: emscripten's
// glue nccc_js_fixture.js, beside its .wasm and .worker.js),
// NCCC_JS_GENERATED (the directory of the generated tour.mjs and hcb.mjs)
// and NCCC_CASES (test/hosts/cases.json) in the environment. Prints one
// line per failure, one "NOT RUN" line per case this runner does not
// implement (also a skipped node test of that name) and the closing line
// "N passed, M failed, K not run"; passes when every other case passed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";
import { runCases } from "./cases.mjs";

// The glue's module, started: its wasm given as bytes (under node 20 the
// glue of emscripten 3.1.6 would fetch a file path and fail).
async function startGlue(path) {
  const factory = createRequire(import.meta.url)(path);
  return factory({ wasmBinary: readFileSync(path.replace(/\.js$/, ".wasm")) });
}

test("the shared host cases", async (t) => {
  const cases = JSON.parse(readFileSync(process.env.NCCC_CASES, "utf8"));
  const module = await startGlue(process.env.NCCC_JS_GLUE);
  try {
    const rt = await nccc.attach(module);
    const { passed, failures, notRun } = await runCases({
      rt,
      gen: pathToFileURL(process.env.NCCC_JS_GENERATED).href,
      cases,
    });
    console.log(`nccc js host tests (node ${process.versions.node}, runtime ${rt.version}, threaded)`);
    for (const f of failures) console.log(`FAIL ${f}`);
    for (const n of notRun) console.log(`NOT RUN ${n}`);
    console.log(`${passed} passed, ${failures.length} failed, ${notRun.length} not run`);
    for (const n of notRun) await t.test(`NOT RUN ${n}`, { skip: "not implemented by this runner" });
    assert.equal(failures.length, 0);
    assert.equal(passed, cases.cases.length - notRun.length);
  } finally {
    module.PThread.terminateAllThreads(); // its idle worker would keep node running
  }
});
