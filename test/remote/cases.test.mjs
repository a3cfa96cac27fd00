// cases.test.mjs — the shared case table's cases that need cdata
// (test/hosts/cases.json) from JavaScript against a device (ctest
// rpc_cdata_js_<device>): test/js/cases.mjs with device true, on the
// module cdata (test/cdata/cdata.idl) bound from the device with the
// JavaScript client (nccc/remote). C objects are made in the device's
// memory, their fields read and written at its offsets and in its byte
// order; the runner's memory steps use the device's memory. Prints one
// line per failure, one "NOT RUN name: reason" line per case this runner
// does not run (NOT_RUN below; a skipped node test of that name too) and
// "N passed, M failed, K not run (device ...)"; passes when every case
// run passed.
//
//   node --test cases.test.mjs      with the environment
//     NCCC_REMOTE_COMMAND  the device's command line (words split at spaces)
//     NCCC_JS_MODULES      the folder of the generated cdata.mjs
//     NCCC_CASES           test/hosts/cases.json
//     NCCC_REMOTE_MARK     the device's name, for the closing line
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { abi } from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink } from "../../bindings/js/nccc/remote/node.mjs";
import { runCases } from "../js/cases.mjs";
import { env } from "../js/env.mjs";

// The cdata cases this runner does not run, by name, with the reason.
const NOT_RUN = {};

test("the shared cdata cases against a device", async (t) => {
  const all = JSON.parse(readFileSync(env("NCCC_CASES"), "utf8"));
  const cases = { ...all, cases: all.cases.filter((k) => k.needs === "cdata" && !(k.name in NOT_RUN)) };
  const dev = await connect(execLink(env("NCCC_REMOTE_COMMAND").split(" ").filter(Boolean)));
  t.after(() => dev.close());
  const { passed, failures } = await runCases({
    rt: dev,
    gen: pathToFileURL(env("NCCC_JS_MODULES")).href,
    cases,
    device: true,
  });
  const order = dev.info.byteOrder === abi.rpc.byte_orders.big ? "big" : "little";
  for (const f of failures) console.log(`FAIL ${f}`);
  for (const [name, why] of Object.entries(NOT_RUN)) console.log(`NOT RUN ${name}: ${why}`);
  console.log(`${passed} passed, ${failures.length} failed, ${Object.keys(NOT_RUN).length} not run (device ${
    process.env.NCCC_REMOTE_MARK || "?"}, ${order}-endian, ${dev.info.pointerBytes}-byte pointers)`);
  for (const [name, why] of Object.entries(NOT_RUN)) await t.test(`NOT RUN ${name}`, { skip: why });
  assert.deepEqual(failures, []);
  assert.equal(passed, cases.cases.length);
  assert.ok(passed > 0, "no cdata case in the table");
});
