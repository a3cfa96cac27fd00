// nccc/remote/slots.mjs — JavaScript values to a device's slots and back
// (docs/JS.md, "Remote devices"): the conversions of values.mjs through
// one slot's bits, records by the device's layouts, and pointers as
// device addresses of the device's width.
import abi from "../abi.mjs";
import { ADDRESS, DEVICE_ADDRESS, GET, PUT, packRecord, unpackRecord } from "../values.mjs";
import { address, failure } from "./device.mjs";

const RECORD = abi.grammar.record_open, ST = abi.status, BIG = abi.rpc.byte_orders.big;

const ADDRESS_CODES = new Set(["p", "F", "c"]);

// One slot's bits as the converters of values.mjs read and write them.
const scratch = (() => {
  const b = new ArrayBuffer(8);
  return { buffer: b, u8: new Uint8Array(b), i32: new Int32Array(b), u32: new Uint32Array(b),
    f64: new Float64Array(b), i64: new BigInt64Array(b), u64: new BigUint64Array(b) };
})();

// A device address argument (or an object holding one: a C object of
// the device, an owned result) as a slot, or why it was refused (an
// object of wasm memory, a C object, an owned result or a closure:
// "wasm"); wider than the device's pointers is a failure of kind
// "remote".
export function pointerSlot(dev, v) {
  if (v !== null && typeof v === "object") {
    if (typeof v[DEVICE_ADDRESS] === "function") {
      v = v[DEVICE_ADDRESS](dev);
      if (typeof v === "string") return v;
    } else if (typeof v[ADDRESS] === "function") {
      return "wasm";
    }
  }
  if (v === null || v === undefined) return 0n;
  if (typeof v !== "number" && typeof v !== "bigint") return "type";
  if (typeof v === "number" && !Number.isInteger(v)) return "integral";
  const a = BigInt(v);
  if (a < 0n || BigInt.asUintN(64, a) !== a) return "range";
  if (BigInt.asUintN(8 * dev.session.device.pointerBytes, a) !== a) {
    throw failure(ST.ERR_RPC_WORD_SIZE, "a pointer wider than the device's pointers");
  }
  return a;
}

// The memory of device dev as values.mjs converts records and scalars
// there (its byte order, its pointers: pointerSlot, address), made once.
export function formatOf(dev) {
  if (!dev.format) {
    dev.format = { little: dev.info.byteOrder !== BIG, pointerBytes: dev.info.pointerBytes,
      pointer: (v) => pointerSlot(dev, v), address: (a) => address(BigInt(a)) };
  }
  return dev.format;
}

// The slots of value v for item (a record, an address, a scalar): an
// array of BigInts, or why v was refused. Strings and closures are the
// caller's.
export function slotsOf(dev, item, v) {
  if (item.code === RECORD) {
    const bytes = new Uint8Array(8 * item.slots);
    bytes.set(packRecord(item.layout, v));
    return [...new BigUint64Array(bytes.buffer)];
  }
  if (item.code === "p" || item.code === "F") {
    const s = pointerSlot(dev, v);
    return typeof s === "string" ? s : [s];
  }
  const why = PUT[item.code](scratch, 0, v);
  return why === undefined ? [scratch.u64[0]] : why;
}

// The value of item in slots from at, other than a string (code: the
// item's, or the one a generated module asks for).
export function valueNow(item, slots, at, code = item.code) {
  if (code === RECORD) {
    const part = slots.slice(at, at + item.slots);
    const bytes = new Uint8Array((part instanceof BigUint64Array ? part : BigUint64Array.from(part)).buffer);
    return unpackRecord(item.layout, bytes.subarray(0, item.layout.size));
  }
  if (ADDRESS_CODES.has(code)) return address(slots[at]);
  scratch.u64[0] = slots[at];
  return GET[code](scratch, 0);
}

// The value of item in slots from at (code: the item's, or the one a
// generated module asks for): a string is read from the device unless
// strings (Map of slot -> bytes from the answer) has it.
export async function valueOf(dev, item, slots, at, code = item.code, strings = undefined) {
  if (code === "s") return dev.stringResult({ out: slots, strings: strings || new Map() }, at);
  return valueNow(item, slots, at, code);
}
