// types.mts — type-checked, never run (npm.sh: tsc --noEmit): the
// declarations the tarball carries are the ones "nccc" resolves to
// through its package.json, and they type the API (a wrong argument is
// an error, so the types are not `any`).
import * as nccc from "nccc";

export async function open(wasm: string): Promise<nccc.Runtime> {
  return nccc.load(wasm);
}
export const scope: nccc.Scope = "call";
export const bits: bigint = nccc.doubleToBits(1.5);
// @ts-expect-error: doubleToBits takes a number
nccc.doubleToBits("1.5");
// C objects: passed where a pointer goes, their members typed
export const objectPointer = (o: nccc.CObject): nccc.Pointer => o;
// @ts-expect-error: a C object's bytes are a Uint8Array
export const objectBytes = (o: nccc.CObject): string => o.bytes();

// nccc/remote and nccc/remote/node: their own declarations, through the
// package's "exports".
import { connect, webSocketLink, outcomeUnknown, crc16, type Device, type RemoteClosure, type Bound,
  type RemoteObject, type RemoteRecords } from "nccc/remote";
import { execLink, tcpLink, openLink } from "nccc/remote/node";
import { attachBridge } from "nccc/remote/bridge";

export async function overPipes(argv: string[]): Promise<bigint> {
  const dev: Device = await connect(execLink(argv), { timeoutMs: 500, retries: 1 });
  const found = await dev.lookup("wire.add");
  const r = await dev.call(found.handle, [40n, 2n], 1);
  const p = await dev.alloc(16);
  if (p !== null) await dev.write(p, new Uint8Array(16));
  const c: RemoteClosure = dev.callback("i>i", (x: number) => x + 1);
  c.release();
  dev.close();
  return r.out[0] + BigInt(dev.info.maxSlots + dev.stats.requests);
}
export const viaTcp = () => connect(tcpLink(5555, { timeoutMs: 100 }));
export const viaPage = () => connect(webSocketLink("ws://127.0.0.1:8080/nccc-link"));
export const viaText = () => openLink("pty:/dev/pts/3");
export const unknown: boolean = outcomeUnknown(0) && crc16(0xffff, new Uint8Array(1)) > 0;
export const bridged = attachBridge({ on: () => undefined }, { link: "tcp:5555" });
// C objects in a device's memory: new (a method, not a constructor), views of N records
export async function remoteObjects(m: Bound): Promise<number> {
  const o: RemoteObject = await m.new("cd_point", { x: 1 });
  const r: RemoteRecords = m.view("cd_point", o, 3);
  await r.set(1, "x", 2);
  await o.assign(await r.at(1).record());
  return r.length;
}
// @ts-expect-error: a view of N records has no record()
export const recordsRecord = (r: RemoteRecords) => r.record();
// @ts-expect-error: connect's timeoutMs is a number
connect(execLink(["dev"]), { timeoutMs: "fast" });
// @ts-expect-error: execLink takes the argv as an array
execLink("dev --serve");
// @ts-expect-error: a device's call takes its slots as bigints
export const wrong = (dev: Device) => dev.call(1, [1, 2], 1);
