// nccc/errors.mjs — the one error class of the JavaScript host
// (docs/JS.md, "Errors"), and the texts of refused values.
import abi from "./abi.mjs";

// Every error the library raises: kind names what went wrong (count,
// type, range, integral, null, nul, closed, released, field, unknown,
// scope, pool, callback, packed, status, load), status the runtime's
// status code when one was returned, function the nccc function and
// parameter the argument (from 1) it concerns, where known.
export class NcccError extends Error {
  constructor(message, { kind, status, function: fn, parameter, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "NcccError";
    this.kind = kind;
    this.status = status;
    this.function = fn;
    this.parameter = parameter;
  }
}

// What a value of each kind must be, for "... expected, got ...".
const EXPECTED_OF_KIND = { bool: "boolean", int: "integer", errno: "integer", float: "number",
  pointer: "pointer", function: "pointer", string: "string", closure: "closure" };
export function expected(code) {
  if (code === abi.grammar.record_open) return "object or Uint8Array";
  const info = abi.codes[code];
  return info ? EXPECTED_OF_KIND[info.kind] : "integer";
}

// The type of v as messages name it.
export function vtype(v) {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "object" && v.constructor && v.constructor.ncccType) return v.constructor.ncccType;
  return typeof v;
}

export function typeName(code) {
  if (code === abi.grammar.record_open) return "struct";
  if (code === abi.grammar.variadic) return "slot";
  return abi.codes[code] ? abi.codes[code].name : code;
}

// A refusal of value v for code: [kind, text].
export function refusal(why, code, v) {
  switch (why) {
    case "type": return ["type", `${expected(code)} expected, got ${vtype(v)}`];
    case "range": return ["range", `value ${String(v)} out of range for ${typeName(code)}`];
    case "integral": return ["integral", `number ${String(v)} has no integer representation`];
    case "null": return ["null", `NULL not allowed (non-NULL ${expected(code)} expected)`];
    case "closed": return ["closed", `${v.type || "owned"} object was closed`];
    case "released": return ["released", "closure was released"];
    // a device's function given an object of wasm memory or of another device
    case "wasm": return ["type", "device address expected, got an object of wasm memory"];
    case "elsewhere": return ["type", "device address expected, got an object of another device"];
    default: return [why, why];
  }
}

// The error of argument k (from 1) of function fn refused for why.
export function badArgument(fn, k, why, code, v) {
  const [kind, text] = refusal(why, code, v);
  return new NcccError(`bad argument #${k} to '${fn}' (${text})`, { kind, function: fn, parameter: k });
}

export function countError(fn, want, got, atLeast) {
  return new NcccError(`'${fn}' expects ${atLeast ? "at least " : ""}${want} argument${want === 1 ? "" : "s"}, got ${got}`,
    { kind: "count", function: fn });
}

// An error raised while converting argument k of fn (a closed object, a
// record's field), made that argument's.
export function asArgumentError(e, fn, k) {
  if (e instanceof NcccError) {
    e.message = `bad argument #${k} to '${fn}' (${e.message})`;
    e.function = fn;
    e.parameter = k;
  }
  return e;
}
