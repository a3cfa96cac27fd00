// nccc/owned.mjs — owned results of generated modules (docs/JS.md,
// "Ownership"): pointers freed once by their IDL function, through
// close() / [Symbol.dispose]() or, for an object never closed, by a
// FinalizationRegistry after it was collected; and owned strings, read
// and freed at once.
import { ADDRESS, DEVICE_ADDRESS } from "./values.mjs";
import { NcccError } from "./errors.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

// What a collected object left to free: {free, addr, closed}.
const finalizers = new FinalizationRegistry((held) => {
  if (held.closed) return;
  held.closed = true;
  // nobody is there to hear a failure of a collected object's free
  try {
    const freeing = held.free(held.addr);
    if (freeing instanceof Promise) freeing.catch(() => {});
  } catch {
    // as above
  }
});

const dispose = Symbol.dispose || Symbol.for("nodejs.dispose");

export class Owned {
  static ncccType = "owned object";

  // (device: the Device whose function returned it, or undefined)
  constructor(addr, free, type, device) {
    this.type = type;
    this.held = { free, addr, closed: false, device };
    finalizers.register(this, this.held, this);
  }

  get closed() { return this.held.closed; }

  // The address (null once closed).
  get address() { return this.held.closed ? null : this.held.addr; }

  // Frees the object now; false if it was closed already. An object of
  // a device (free asynchronous) gives a Promise of true once freed.
  close() {
    if (this.held.closed) return false;
    this.held.closed = true;
    finalizers.unregister(this);
    const freeing = this.held.free(this.held.addr);
    return freeing instanceof Promise ? freeing.then(() => true) : true;
  }

  // A device's object is freed without waiting (requests to the device
  // go in order, so its next call finds it freed); a failure of that
  // free has nobody to hear it, as a collected object's.
  [dispose]() {
    const closing = this.close();
    if (closing instanceof Promise) closing.catch(() => {});
  }

  [ADDRESS]() {
    if (this.held.closed) {
      throw new NcccError(`${this.type || "owned"} object was closed`, { kind: "closed" });
    }
    return this.held.addr;
  }

  [DEVICE_ADDRESS](dev) {
    if (this.held.device === undefined) return "wasm";
    return this.held.device === dev ? this[ADDRESS]() : "elsewhere";
  }

  toString() { return `${this.type || "owned"}${this.closed ? " (closed)" : ""}: ${this.held.addr}`; }
}

// rt.owner(free[, type]): a function turning a pointer result into an
// owned object whose close() and finalizer call free once (a registry
// name, or a function of the address); NULL stays null.
methods.owner = function (free, type) {
  const f = typeof free === "function" ? free : this.fast(free);
  return (p) => (p ? new Owned(p, f, type) : null);
};

// rt.ownedString(free): a pointer result read as a string, then freed by
// free (a registry name) at once; NULL is null.
methods.ownedString = function (free) {
  const f = this.fast(free);
  return (p) => {
    if (!p) return null;
    const s = this.cstring(p);
    f(p);
    return s;
  };
};
