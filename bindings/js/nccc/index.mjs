// nccc — the nccc support library for JavaScript (import "nccc"): load
// a wasm module built with nccc, then look up, describe and call any
// nccc function, converting JavaScript values to slots and back from
// its signature string. docs/JS.md is the manual.
//
// This front holds only the public API and composes the Runtime from
// its parts; the parts live beside it, one concept a file: runtime
// (loading, the primitive, the slot stack, built-ins), values, registry,
// calls, callbacks, owned, owners, packed, binder (what generated modules
// call), cdata (C objects), errors, abi.
import { Runtime } from "./runtime.mjs";
import { compose } from "./parts.mjs";
import { methods as registry } from "./registry.mjs";
import { methods as calls } from "./calls.mjs";
import { methods as callbacks } from "./callbacks.mjs";
import { methods as owned } from "./owned.mjs";
import { methods as packed, PackedFloat } from "./packed.mjs";
import { methods as binder } from "./binder.mjs";

// The Runtime's methods: its own (runtime.mjs: loading, the primitive,
// the slot stack, built-ins), then each part's.
compose(Runtime,
  registry,  // modules, functions, types, layouts, constants, lookup
  calls,     // fast, call, callVar, callAddress
  callbacks, // the dispatcher, callback, callbackGroup, closureStats
  owned,     // owner, ownedString
  packed,    // packed, registerPacked
  binder,    // bindModule and what generated modules call
);

export { load, attach, Runtime } from "./runtime.mjs";
export { NcccError } from "./errors.mjs";
export { Closure } from "./callbacks.mjs";
export { Owned } from "./owned.mjs";
export { CObject } from "./cdata.mjs";
export { default as abi } from "./abi.mjs";
export { valueList } from "./values.mjs";

// float(x): x sent to a packed function as a float even when integral.
export function float(x) { return new PackedFloat(x); }

// The double whose IEEE-754 bits are the BigInt bits, and back.
const bitsView = new DataView(new ArrayBuffer(8));
export function bitsToDouble(bits) {
  bitsView.setBigUint64(0, BigInt.asUintN(64, BigInt(bits)), true);
  return bitsView.getFloat64(0, true);
}
export function doubleToBits(x) {
  bitsView.setFloat64(0, x, true);
  return bitsView.getBigUint64(0, true);
}
