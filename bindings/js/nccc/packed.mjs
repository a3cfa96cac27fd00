// nccc/packed.mjs — packed functions over the module "tvm"
// (docs/PACKED.md, "Dynamic calls"; docs/JS.md, "Packed functions"):
// calling a global packed function by name with JavaScript values, and
// registering a JavaScript function as one that C calls by name.
import abi from "./abi.mjs";
import { NcccError, refusal, vtype } from "./errors.mjs";
import { ADDRESS, GET, PUT, pointer } from "./values.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

// TVM's type codes of packed arguments and results (the ABI's table).
const { int: kDLInt, float: kDLFloat, handle: kTVMOpaqueHandle, null: kTVMNullptr, str: kTVMStr } =
  abi.packed.type_codes;

// nccc.float(x): x sent as kDLFloat even when it is integral.
export class PackedFloat {
  constructor(x) { this.value = x; }
}

// [type code, slot as a BigInt or a string to copy] of argument k.
function packedArg(rt, name, k, v) {
  if (v === null || v === undefined) return [kTVMNullptr, 0n];
  if (typeof v === "string") return [kTVMStr, v];
  const bits = (x) => {
    rt.scratch.f64[0] = x;
    return rt.scratch.u64[0];
  };
  if (v instanceof PackedFloat) return [kDLFloat, bits(v.value)];
  if (typeof v === "number") return Number.isInteger(v) ? [kDLInt, BigInt.asUintN(64, BigInt(v))] : [kDLFloat, bits(v)];
  if (typeof v === "bigint") return [kDLInt, BigInt.asUintN(64, v)];
  if (typeof v === "object" && typeof v[ADDRESS] === "function") return [kTVMOpaqueHandle, BigInt(pointer(v))];
  throw new NcccError(`bad argument #${k + 1} to packed '${name}' (${vtype(v)} cannot be sent)`, { kind: "type", parameter: k + 1 });
}

// rt.packed(name, ...args): calls the global packed function name:
// integers go as kDLInt, other numbers (and nccc.float) as kDLFloat,
// strings as kTVMStr, null as kTVMNullptr, pointer objects as handles.
// Returns its result (undefined for a null result); a failure throws an
// NcccError of kind "packed".
methods.packed = function (name, ...args) {
  const slots = [];
  const strs = [];
  try {
    args.forEach((v, k) => {
      const [code, s] = packedArg(this, name, k, v);
      let slot = s;
      if (typeof s === "string") {
        slot = this.newCString(s);
        strs.push(slot);
      }
      slots.push(code, slot);
    });
    const [st, code, value] = this.call("tvm.call_global", name, args.length, ...slots);
    if (st !== 0) {
      throw new NcccError(`packed call '${name}' failed: ${this.lastError()[1]} (status 0x${st.toString(16)})`,
        { kind: "packed", status: st, function: name });
    }
    this.scratch.u64[0] = value;
    if (code === kDLInt) return this.scratch.i64[0];
    if (code === kDLFloat) return this.scratch.f64[0];
    if (code === kTVMNullptr) return undefined;
    if (code === kTVMStr) return this.cstring(this.scratch.u32[0]);
    return this.scratch.u32[0] || null;
  } finally {
    for (const p of strs) this.free(p);
  }
};

// The slot code a packed signature's code travels as (docs/PACKED.md).
const PSLOT = { l: "l", i: "l", L: "L", I: "L", b: "l", "?": "l", d: "d", f: "d", s: "s" };
const pslot = (c) => PSLOT[c] || "p";

// rt.registerPacked(name, psig, fn[, flags]): fn becomes the global
// packed function name (tvm.register_env with the one dispatcher), its
// arguments and result converted by psig (integers l, floats d, strings
// s, handles p). fn stays referenced while the runtime lives: the
// registry gives no notice when a name stops being used.
methods.registerPacked = function (name, psig, fn, flags = 0) {
  if (typeof fn !== "function") throw new NcccError("bad argument #3 to 'registerPacked' (function expected)", { kind: "type", parameter: 3 });
  const m = /^([^:]*):(.?)$/.exec(String(psig));
  if (!m) throw new NcccError(`malformed packed signature '${String(psig)}'`, { kind: "type" });
  const ins = [...m[1]].map(pslot), out = m[2] ? pslot(m[2]) : null;
  const rt = this;
  const e = {
    closure: null, fn,
    run(inp, outp) {
      const vals = ins.map((c, k) => {
        const a = inp + 8 * (k + 1);
        return c === "s" ? rt.cstring(rt.mem.u32[a >> 2]) : GET[c](rt.mem, a);
      });
      const r = fn(...vals);
      if (out === null) return;
      const why = PUT[out === "s" ? "p" : out](rt.mem, outp, r);
      if (why !== undefined) throw new NcccError(`packed ${name}: bad result (${refusal(why, out, r)[1]})`, { kind: "type" });
    },
  };
  const env = this.addEntry(e);
  let st;
  try {
    st = this.call("tvm.register_env", name, this.dispatcherAddr, BigInt(env), String(psig), flags);
  } catch (err) {
    this.dropEntry(env);
    throw err;
  }
  if (st !== 0) {
    this.dropEntry(env);
    throw new NcccError(`cannot register packed '${name}': ${this.lastError()[1]} (status 0x${st.toString(16)})`,
      { kind: "packed", status: st, function: name });
  }
  return true;
};
