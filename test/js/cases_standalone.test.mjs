// cases_standalone.test.mjs — the shared host case table on the
// standalone wasm build (ctest js_cases_standalone): the build a web page
// or a node program loads with nccc.load, which has no threads. Every
// case runs; a case that starts a thread (it calls hcb.fire_in_thread)
// cannot pass here and must fail, the case's other steps having run.
// NCCC_JS_WASM (nccc_js_fixture.wasm), NCCC_JS_GENERATED and NCCC_CASES
// come from the environment. The threaded build runs the whole table
// (cases.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";
import { runCases } from "./cases.mjs";

const needsThreads = (kase) =>
  [kase, ...(kase.steps ?? [])].some((step) => step.call === "hcb.fire_in_thread");

test("the shared host cases on the standalone build", async (t) => {
  const cases = JSON.parse(readFileSync(process.env.NCCC_CASES, "utf8"));
  const rt = await nccc.load(process.env.NCCC_JS_WASM);
  const { passed, failures, notRun } = await runCases({
    rt,
    gen: pathToFileURL(process.env.NCCC_JS_GENERATED).href,
    cases,
  });
  const threaded = cases.cases.filter(needsThreads).map((k) => k.name);
  console.log(`nccc js host tests (node ${process.versions.node}, runtime ${rt.version}, standalone)`);
  for (const f of failures) console.log(`FAIL ${f}`);
  for (const n of notRun) console.log(`NOT RUN ${n}`);
  console.log(`${passed} passed, ${failures.length} failed, ${notRun.length} not run ` +
              `(${threaded.length} need threads)`);
  for (const n of notRun) await t.test(`NOT RUN ${n}`, { skip: "not implemented by this runner" });
  assert.equal(passed, cases.cases.length - threaded.length - notRun.length);
  assert.deepEqual(failures.map((f) => f.slice(0, f.indexOf(": "))), threaded);
});
