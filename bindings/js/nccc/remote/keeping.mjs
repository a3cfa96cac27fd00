// nccc/remote/keeping.mjs — what a module bound to a device keeps beyond
// one call (docs/JS.md, "Remote devices"), as owned.mjs and owners.mjs
// give a local module: owned results (objects freed on the device by the
// function [owned] names, owned strings read and freed at once), the
// closure groups of closure sets, and a callback's pointer arguments
// that value descriptions make strings and arrays, read from the
// device's memory.
import { Owned } from "../owned.mjs";
import { readScalar } from "../values.mjs";
import { address } from "./device.mjs";
import { formatOf } from "./slots.mjs";

// The methods this part gives the Device (composed in remote/index.mjs).
export const methods = {};

const decoder = new TextDecoder();

// A function of the bound module by its registry name: a caller of its
// handle, with the options a generated module's caller has none of.
methods.named = function (name) {
  return async (...args) => this.invoke(this.described.get(await this.handle(name)), {}, args);
};

// dev.owner(free[, type]): a result's address made an Owned whose
// close() (a Promise of true) and finalizer free it on the device
// (free: a registry name, or an async function of the address).
methods.owner = function (free, type) {
  const f = typeof free === "function" ? free : this.named(free);
  return (p) => (p ? new Owned(p, f, type, this) : null);
};

// dev.ownedString(free): a string result's address read from the
// device, then freed there by free (a registry name); NULL is null.
methods.ownedString = function (free) {
  const f = this.named(free);
  return async (p) => {
    if (!p) return null;
    try {
      return await this.cstring(p);
    } finally {
      await f(p);
    }
  };
};

// call (async) with convs[k] (owner, ownedString) applied to its result
// k (from 1).
methods.owning = function (call, convs) {
  const entries = Object.entries(convs);
  return async (...args) => {
    const r = await call(...args);
    const list = Array.isArray(r) ? r : [r];
    for (const [k, conv] of entries) list[k - 1] = await conv(list[k - 1]);
    return Array.isArray(r) ? list : list[0];
  };
};

// ---- a callback's arguments read from the device ----

// n elements of code at device address p, stride bytes apart (n
// undefined: up to a zero one, read one by one, since nothing past it
// may be readable).
async function readArray(dev, p, code, stride, n) {
  const fmt = formatOf(dev);
  const element = (bytes, off) => readScalar(code, stride, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), off, fmt);
  const values = [];
  if (n !== undefined) {
    const bytes = n > 0 ? await dev.read(p, n * stride) : new Uint8Array(0);
    for (let k = 0; k < n; k++) values.push(element(bytes, k * stride));
  } else {
    for (let at = BigInt(p); ; at += BigInt(stride)) {
      const v = element(await dev.read(address(at), stride), 0);
      if (v === null || v === 0 || v === 0n || v === false) break;
      values.push(v);
    }
  }
  if (code === "s") {
    for (let k = 0; k < values.length; k++) if (values[k] !== null) values[k] = await dev.cstring(values[k]);
  }
  return values;
}

// fn with the arguments specs (docs/BINDING.md, "Value descriptions")
// describe read from the device as strings, Uint8Arrays and arrays (NULL
// stays null), as owners.mjs's converting does for a local callback; fn
// itself when there are none. A buffer to fill ([out] bytes) is a copy
// of the device's bytes that is written back to the device when fn
// returns, before the callback's answer.
methods.converting = function (specs, fn) {
  if (!specs) return fn;
  return async (...args) => {
    const fills = [];
    for (const spec of specs) {
      const p = args[spec.arg - 1];
      if (p === null || p === undefined) continue;
      const count = spec.count;
      const n = count.fixed !== undefined ? count.fixed : count.arg !== undefined ? Number(args[count.arg - 1]) : undefined;
      if (spec.kind === "bytes") {
        const bytes = n > 0 ? await this.read(p, n) : new Uint8Array(0);
        if (spec.fill) fills.push([p, bytes]);
        args[spec.arg - 1] = bytes;
      } else {
        args[spec.arg - 1] = spec.kind === "string"
          ? (n === undefined ? await this.cstring(p) : decoder.decode(await this.read(p, n)))
          : await readArray(this, p, spec.code, spec.stride, n);
      }
    }
    const r = await fn(...args);
    for (const [p, bytes] of fills) if (bytes.length) await this.write(p, bytes);
    return r;
  };
};
