// The test device from JavaScript (node): the generated wire.mjs and
// libc.mjs bound to a device (nccc/remote) over a child process's pipes,
// TCP and a pty; every wire function with values at their edges,
// checked against what JavaScript computes; libc against JavaScript's
// own results; remote memory; a failure of the remote call itself
// raised as an NcccError of kind "remote" (keep.test.mjs: what a bound
// module keeps beyond a call; objects.test.mjs: C objects in the
// device's memory).
//
//   node --test remote.test.mjs      with the environment
//     NCCC_REMOTE_COMMAND  the device's command line (words split at spaces)
//     NCCC_JS_MODULES      the folder of the generated wire.mjs and libc.mjs
//     NCCC_REMOTE_MARK     the device's name (also read back with getenv)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { abi, NcccError } from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink, serialLink, tcpLink } from "../../bindings/js/nccc/remote/node.mjs";
import { env } from "../js/env.mjs";

const command = env("NCCC_REMOTE_COMMAND").split(" ").filter(Boolean);
const modules = env("NCCC_JS_MODULES");
const wire = await import(pathToFileURL(join(modules, "wire.mjs")));
const libc = await import(pathToFileURL(join(modules, "libc.mjs")));

// The device started with extra arguments (--tcp 0, --pty), and what it
// prints first on its standard output ("port N", "pty PATH").
function announced(args) {
  const child = spawn(command[0], [...command.slice(1), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve({ child, line: text.split("\n")[0] });
    });
    child.once("exit", () => reject(new Error(`the device exited before announcing its link: ${text}`)));
  });
}

const f32 = (x) => Math.fround(x);

// Every wire function once, with its expected results computed here.
async function wireCalls(w, info) {
  const wide = info.pointerBytes === 8;
  assert.equal(await w.echo_bool(true), true);
  assert.equal(await w.echo_bool(false), false);
  for (const [fn, values] of [["echo_i8", [-128, 127]], ["echo_u8", [0, 255]], ["echo_i16", [-32768, 32767]],
    ["echo_u16", [65535]], ["echo_i32", [-2147483648, 2147483647]], ["echo_u32", [4294967295]]]) {
    for (const v of values) assert.equal(await w[fn](v), v, `${fn}(${v})`);
  }
  for (const v of [-(2n ** 63n), 2n ** 63n - 1n]) assert.equal(await w.echo_i64(v), v);
  assert.equal(await w.echo_u64(2n ** 64n - 1n), 2n ** 64n - 1n);
  assert.equal(await w.echo_float(0.1), f32(0.1));
  assert.ok(Object.is(await w.echo_double(-0), -0));
  assert.equal(await w.echo_double(Number.MIN_VALUE), Number.MIN_VALUE);
  assert.equal(await w.echo_char(65), 65);
  // long, unsigned long, size_t, intptr_t: the device's widths
  const long = wide ? 2n ** 40n : 2 ** 30;
  assert.equal(await w.echo_long(long), long);
  assert.equal(await w.echo_ulong(wide ? 2n ** 64n - 1n : 4294967295), wide ? 2n ** 64n - 1n : 4294967295);
  assert.equal(await w.echo_size(wide ? 2n ** 50n : 123456789), wide ? 2n ** 50n : 123456789);
  assert.equal(await w.echo_intptr(wide ? -(2n ** 40n) : -5), wide ? -(2n ** 40n) : -5);
  if (!wide) {
    // a 64-bit value is refused by the signature before anything is sent
    await assert.rejects(w.echo_long(2n ** 40n), (e) => e instanceof NcccError && e.kind === "range");
  }
  assert.equal(await w.add(2n ** 62n, 2n ** 62n - 1n), 2n ** 63n - 1n);
  assert.equal(await w.blend(-3, 7, -11, 13n, 0.5, 0.25), -3 + 7 * 2 + -11 * 4 + 13 * 8 + 0.5 * 16 + 0.25 * 32);
  assert.deepEqual(await w.mixed_step({ a: -128, b: 2147483647, c: 1000 }), { a: -128, b: -2147483648, c: 2000 });
  assert.deepEqual(await w.wide_step({ tag: 255, d: 1.25, u: 0n, f: 2.5 }, -4),
    { tag: 0, d: -5, u: 2n ** 64n - 1n, f: -2.5 });
  const bits = await w.bits_of(1);
  assert.equal(bits.u, 0x3f800000);
  assert.equal(bits.f, 1);
  const v = Array.from({ length: 64 }, (_, i) => BigInt(i) * 3n);
  assert.deepEqual((await w.slab_turn({ v })).v, v.map((_, i) => v[63 - i] + 1n));
  assert.deepEqual([...await w.div_rem(-17, 5)], [Math.trunc(-17 / 5), -17 % 5]);
  assert.deepEqual([...await w.div_rem(1, 0)], [0, 0]);
  assert.deepEqual([...await w.bump_by(40n, 2n)], [40n, 42n]);
  const [wOut, mOut] = await w.split({ tag: 9, d: 0.5, u: 300n, f: -7.5 });
  assert.deepEqual(wOut, { tag: 10, d: 1, u: 2n ** 64n - 301n, f: 7.5 });
  assert.deepEqual(mOut, { a: -9, b: 301, c: -14 });
  const [failed, errno] = await w.fail_with(34);
  assert.deepEqual([failed, errno], [-1, 34]);
  const length = await w.length("héllo");
  assert.equal(Number(length), 6);
  assert.equal(await w.compare("abc", "abd"), -1);
  assert.equal(await w.compare("b", "a"), 1);
  assert.equal(await w.number_name(2), "two");
  assert.equal(await w.number_name(3), null);
}

async function libcCalls(l) {
  const text = "a string that crosses the wire";
  assert.equal(Number(await l.strlen(text)), text.length);
  assert.deepEqual([...await l.frexp(-1536)], [-0.75, 11]);
  assert.equal(await l.ldexp(0.75, -1074), 0.75 * 2 ** -1074);
  assert.equal(await l.hypotf(3, 4), 5);
  assert.equal(await l.getenv("NCCC_REMOTE_MARK"), env("NCCC_REMOTE_MARK"));
  assert.equal(await l.getenv("NCCC_NO_SUCH_VARIABLE"), null);
  const [value, end] = await l.strtol("  -2147483648xyz", 10);
  assert.equal(Number(value), -2147483648);
  assert.ok(end !== null);
  assert.equal(l.EINVAL > 0, true);
}

test("every wire and libc function over the pipes", async (t) => {
  const dev = await connect(execLink(command));
  t.after(() => dev.close());
  const w = await wire.bind(dev), l = await libc.bind(dev);
  await wireCalls(w, dev.info);
  await libcCalls(l);
  // a string past the device's largest message: refused before it is
  // sent, raised as kind "remote" naming the function; the next call works
  const requests = dev.stats.requests;
  await assert.rejects(l.strlen("x".repeat(70000)), (e) => e instanceof NcccError && e.kind === "remote" &&
    e.status === abi.status.ERR_RPC_TOO_BIG && e.function === "libc.strlen" &&
    e.message.startsWith("'libc.strlen': remote call failed: "));
  assert.equal(dev.stats.requests, requests);
  assert.equal(Number(await l.strlen("after")), 5);
  assert.equal(dev.stats.resent, 0);
});

test("remote memory", async (t) => {
  const dev = await connect(execLink(command));
  t.after(() => dev.close());
  const bytes = new TextEncoder().encode("x".repeat(40000) + "tail\0");
  const p = await dev.alloc(bytes.length);
  await dev.write(p, bytes);
  assert.deepEqual(await dev.read(p, bytes.length), bytes);
  assert.equal(await dev.strlen(p), bytes.length - 1);
  assert.equal((await dev.cstring(p)).slice(-4), "tail");
  await dev.free(p);
  await assert.rejects(dev.read(p, 4), (e) => e.kind === "remote" && e.status === abi.status.ERR_RPC_FREED);
  await assert.rejects(dev.free(p), (e) => e.status === abi.status.ERR_RPC_FREED);
  if (dev.info.pointerBytes === 4) {
    await assert.rejects(dev.read(2 ** 40, 1), (e) => e.status === abi.status.ERR_RPC_WORD_SIZE);
  }
});

test("a bound module over TCP", async (t) => {
  const { child, line } = await announced(["--tcp", "0"]);
  t.after(() => child.kill());
  const dev = await connect(tcpLink(Number(line.split(" ")[1])));
  t.after(() => dev.close());
  const w = await wire.bind(dev);
  assert.equal(await w.add(40n, 2n), 42n);
  assert.equal(await w.number_name(1), "one");
});

test("a bound module over a pty", async (t) => {
  const { child, line } = await announced(["--pty"]);
  t.after(() => child.kill());
  const dev = await connect(serialLink(line.slice("pty ".length)));
  t.after(() => dev.close());
  const w = await wire.bind(dev);
  assert.equal(await w.add(-40n, -2n), -42n);
  assert.deepEqual(await w.mixed_step({ a: 1, b: 2, c: 3 }), { a: -1, b: 3, c: 6 });
});
