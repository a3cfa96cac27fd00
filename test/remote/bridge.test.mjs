// nccc's bridge as a command (node bindings/js/nccc/remote/bridge.mjs),
// headless: the bridge started with --link to the test device's pty and
// to its pipes, and the client of a page (webSocketLink) run in node
// against it: the generated wire.mjs and keep.mjs bound through the
// WebSocket, big messages, callbacks, and what the bridge refuses.
//
//   node --experimental-websocket --test bridge.test.mjs   with the environment
//     NCCC_REMOTE_COMMAND  the device's command line (words split at spaces)
//     NCCC_JS_MODULES      the folder of the generated wire.mjs and keep.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { connect, webSocketLink } from "../../bindings/js/nccc/remote/index.mjs";
import { env } from "../js/env.mjs";

const command = env("NCCC_REMOTE_COMMAND").split(" ").filter(Boolean);
const modules = env("NCCC_JS_MODULES");
const wire = await import(pathToFileURL(join(modules, "wire.mjs")));
const keep = await import(pathToFileURL(join(modules, "keep.mjs")));
const bridge = fileURLToPath(new URL("../../bindings/js/nccc/remote/bridge.mjs", import.meta.url));

// A program started, and the first line it prints on its standard
// output; killed when the test ends.
function started(t, argv) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => child.kill());
  let err = "";
  child.stderr.on("data", (chunk) => { err += chunk; });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve({ child, line: text.split("\n")[0] });
    });
    child.once("exit", (code) => reject(new Error(`${argv.join(" ")} exited (${code}) before a line: ${err}`)));
  });
}

// The bridge to link, and the WebSocket address it printed.
async function bridged(t, link, extra = []) {
  const { line } = await started(t, [process.execPath, bridge, "--link", link, ...extra]);
  const m = /^bridge to (\S+) at (ws:\/\/127\.0\.0\.1:\d+\/\S*) /.exec(line);
  assert.ok(m, line);
  assert.equal(m[1], link);
  return m[2];
}

async function calls(dev) {
  const w = await wire.bind(dev);
  assert.equal(await w.add(40n, 2n), 42n);
  assert.equal(await w.number_name(2), "two");
  assert.equal(Number(await w.length("é".repeat(3000))), 6000);
  // 64 slots there and back: frames past the WebSocket's 125-byte form
  const v = Array.from({ length: 64 }, (_, k) => BigInt(k) * 0x0101010101n);
  const back = await w.slab_turn({ v });
  assert.deepEqual([...back.v], v.slice().reverse().map((x) => x + 1n));
  const k = await keep.bind(dev);
  const seen = [];
  const total = await k.total(k.callback("total_fn", (xs, n, words) => {
    seen.push(words);
    return xs.reduce((a, b) => a + b, 0n);
  }), 5);
  assert.equal(total, 15n);
  assert.deepEqual(seen, [["one", "two", "three"]]);
  const box = await k.box_new(7n);
  assert.equal(await k.box_value(box), 7n);
  assert.equal(await box.close(), true);
  assert.equal(await k.boxes_live(), 0);
}

test("the bridge command carries a page's WebSocket to the device's pty", async (t) => {
  const { line } = await started(t, [...command, "--pty"]);
  assert.match(line, /^pty \//);
  const url = await bridged(t, `pty:${line.slice("pty ".length)}`, ["--path", "/device"]);
  assert.ok(url.endsWith("/device"));
  const dev = await connect(webSocketLink(url));
  t.after(() => dev.close());
  assert.equal(dev.info.pointerBytes > 0, true);
  await calls(dev);
  assert.equal(dev.stats.badFrames, 0);
  assert.equal(dev.stats.resent, 0);
});

test("the bridge command opens a device on pipes per connection", async (t) => {
  const url = await bridged(t, `exec:${command.join(" ")}`);
  const a = await connect(webSocketLink(url));
  t.after(() => a.close());
  const b = await connect(webSocketLink(url));
  t.after(() => b.close());
  // two connections, two devices: each its own live count
  const ka = await keep.bind(a), kb = await keep.bind(b);
  const box = await ka.box_new(1n);
  assert.equal(await ka.boxes_live(), 1);
  assert.equal(await kb.boxes_live(), 0);
  await box.close();
  await calls(b);
});

test("what the bridge refuses: another path, plain HTTP, no link", async (t) => {
  const url = await bridged(t, `exec:${command.join(" ")}`);
  const wrong = url.replace(/\/nccc-link$/, "/elsewhere");
  await assert.rejects(webSocketLink(wrong), /could not open a WebSocket/);
  const res = await fetch(url.replace(/^ws:/, "http:"));
  assert.equal(res.status, 404);
  assert.match(await res.text(), /only the WebSocket \/nccc-link/);
  const usage = spawn(process.execPath, [bridge], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  usage.stderr.on("data", (chunk) => { err += chunk; });
  const code = await new Promise((resolve) => usage.once("exit", resolve));
  assert.equal(code, 2);
  assert.match(err, /^usage: node bridge\.mjs --link SPEC/);
});
