// cases.test.mjs — the shared host case table under node's own test
// runner (ctest js_cases): node --expose-gc --test cases.test.mjs, with
// NCCC_JS_WASM (the host fixture's wasm build), NCCC_JS_GENERATED (the
// directory of the generated tour.mjs and hcb.mjs) and NCCC_CASES
// (test/hosts/cases.json) in the environment. Prints one line per
// failure and the closing line "N passed, M failed"; the cases of
// wasm32.json (facts of the other hosts' target) are run, must fail, and
// are reported apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runCases } from "./cases.mjs";

test("the shared host cases", async () => {
  const cases = JSON.parse(readFileSync(process.env.NCCC_CASES, "utf8"));
  const target = JSON.parse(readFileSync(new URL("./wasm32.json", import.meta.url), "utf8")).cases;
  const { passed, failures: all, runtime } = await runCases({
    wasm: process.env.NCCC_JS_WASM,
    gen: pathToFileURL(process.env.NCCC_JS_GENERATED).href,
    cases,
  });
  console.log(`nccc js host tests (node ${process.versions.node}, runtime ${runtime.version})`);
  const failures = [], differing = new Set();
  for (const f of all) {
    const name = f.slice(0, f.indexOf(": step "));
    if (name in target) differing.add(name);
    else failures.push(f);
  }
  for (const name of Object.keys(target)) {
    if (!differing.has(name)) failures.push(`${name}: listed in wasm32.json but did not fail`);
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  for (const name of differing) console.log(`TARGET ${name}: ${target[name]}`);
  console.log(`${passed} passed, ${failures.length} failed (${differing.size} cases of another target's facts, not counted)`);
  assert.equal(failures.length, 0);
});
