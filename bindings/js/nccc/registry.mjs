// nccc/registry.mjs — what a bound runtime holds (docs/JS.md,
// "Registry"): its modules, their functions, record layouts and
// constants, signature strings parsed into items, and the description
// of a function by name, handle or address that every call is made
// from. Everything read is cached on the runtime.
import abi from "./abi.mjs";
import { NcccError, vtype } from "./errors.mjs";
import { GET } from "./values.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

const B = abi.builtin, G = abi.grammar, H = abi.handle, ST = abi.status;
const RECORD_ITEM = /^([A-Za-z_][A-Za-z0-9_]*)(?::(\d+))?$/;

function unknown(text) { return new NcccError(text, { kind: "unknown" }); }

// One side of a signature: [{code, name, n}], and whether it ends in '*'.
function side(sig, str, ok) {
  const items = [];
  let variadic = false;
  for (let i = 0; i < str.length; i++) {
    const c = str[i];
    if (c === G.record_open) {
      const close = str.indexOf(G.record_close, i);
      const m = close < 0 ? null : RECORD_ITEM.exec(str.slice(i + 1, close));
      if (!m) throw new NcccError(`malformed signature '${sig}'`, { kind: "type" });
      items.push({ code: G.record_open, name: m[1], n: m[2] === undefined ? undefined : Number(m[2]) });
      i = close;
    } else if (c === G.variadic && i === str.length - 1) {
      variadic = true;
    } else if (abi.codes[c] && abi.codes[c][ok]) {
      items.push({ code: c });
    } else {
      throw new NcccError(`malformed signature '${sig}': unexpected '${c}'`, { kind: "type" });
    }
  }
  return { items, variadic };
}

// The parsed signature {ins, outs, varIn, varOut}; records get their
// layouts (found in module mi first) and slot counts.
methods.parseSignature = function (sig, mi, label = sig) {
  if (typeof sig !== "string" || !sig.includes(G.separator)) {
    throw new NcccError(`malformed signature '${String(sig)}'`, { kind: "type" });
  }
  const at = sig.indexOf(G.separator);
  const ins = side(sig, sig.slice(0, at), "in_ok"), outs = side(sig, sig.slice(at + 1), "out_ok");
  const count = (items) => {
    let n = 0;
    for (const item of items) {
      item.slots = 1;
      if (item.code === G.record_open) {
        const layout = this.findType(mi, item.name);
        if (!layout || layout.kind === "opaque") throw new NcccError(`nccc: ${label}: no layout for {${item.name}}`, { kind: "unknown" });
        if (item.n !== undefined && item.n !== layout.slots) {
          throw new NcccError(`nccc: ${label}: {${item.name}:${item.n}} but its layout takes ${layout.slots} slots`, { kind: "type" });
        }
        item.layout = layout;
        item.slots = layout.slots;
      }
      n += item.slots;
    }
    return n;
  };
  return { ins: ins.items, outs: outs.items, varIn: ins.variadic, varOut: outs.variadic,
    nin: count(ins.items), nout: count(outs.items) };
};

// The index of module name, or undefined.
methods.moduleIndex = function (name) {
  if (this.cache.modules.has(name)) return this.cache.modules.get(name);
  const [st, res] = this.builtinWithString(B.module_find, name, 2);
  if (st !== 0) return undefined;
  this.cache.modules.set(name, Number(res[1]));
  return Number(res[1]);
};

// Every present module: {index, name, functions, types, constants, global}
// (the global registry last, named "").
methods.modules = function () {
  const count = Number(this.check(B.module_count, [], 2)[1]);
  const list = [];
  for (let mi = 0; mi < count; mi++) {
    const [st, o] = this.builtin(B.module_info, [mi], 5);
    if (st === 0) {
      list.push({ index: mi, name: this.cstring(Number(o[1])), functions: Number(o[2]),
        types: Number(o[3]), constants: Number(o[4]), global: mi === count - 1 });
    } else if (st !== ST.ERR_INDEX_INVALID) {
      this.check(B.module_info, [mi], 5);
    }
  }
  return list;
};

// Module m (a name or index): [index, name, functions, types, constants].
methods.moduleInfo = function (m, what) {
  let mi = typeof m === "string" ? this.moduleIndex(m) : m;
  if (mi === undefined && m === "") mi = this.modules().at(-1).index;
  if (typeof mi !== "number") throw unknown(`unknown module '${String(m)}' in ${what}`);
  const [st, o] = this.builtin(B.module_info, [mi], 5);
  if (st !== 0) throw unknown(`unknown module '${String(m)}' in ${what}`);
  return [mi, this.cstring(Number(o[1])), Number(o[2]), Number(o[3]), Number(o[4])];
};

const handleOf = (mi, k) => H.module_marker + mi * 2 ** H.module_shift + H.function_marker + k;
const moduleOf = (h) => Math.floor(h / 2 ** H.module_shift) % (H.index_mask + 1);

// The functions of a module (name or index): [{name, signature, handle}].
methods.functions = function (m) {
  const [mi, mname, nfn] = this.moduleInfo(m, "functions");
  const list = [];
  for (let k = 0; k < nfn; k++) {
    const h = handleOf(mi, k);
    const o = this.check(B.function, [h], 6);
    const name = this.cstring(Number(o[2]));
    list.push({ name: mname !== "" ? `${mname}.${name}` : name, signature: this.cstring(Number(o[3])), handle: h });
  }
  return list;
};

// A layout from a module_type answer o (name, module: texts), its
// fields added by addField (the wasm runtime's and a device's readers).
export function newLayout(name, module, o) {
  const layout = { name, module, size: Number(o[2]), align: Number(o[3]),
    kind: abi.type_kinds[Number(o[4])] || "unknown", fields: [], field: {} };
  layout.slots = Math.ceil(layout.size / 8);
  return layout;
}

// A field from a module_field answer f (name, type: texts) added to layout.
export function addField(layout, name, type, f) {
  const fd = { name, type, offset: Number(f[3]), size: Number(f[4]), count: Number(f[5]) };
  layout.fields.push(fd);
  layout.field[fd.name] = fd;
}

// Each record field of the layouts in types given the layout of its
// type; unknown(layout, typeName) for a type not among them.
export function linkFields(types, unknown) {
  for (const layout of types.values()) {
    for (const fd of layout.fields) {
      const m = fd.type.startsWith(G.record_open) && /^.([A-Za-z_][A-Za-z0-9_]*)/.exec(fd.type);
      if (m) {
        fd.layout = types.get(m[1]);
        if (!fd.layout) unknown(layout, m[1]);
      }
    }
  }
}

// Every layout of module mi by name, read once.
methods.types = function (mi) {
  if (this.cache.types.has(mi)) return this.cache.types.get(mi);
  const [, mname, , ntypes] = this.moduleInfo(mi, "layout");
  const types = new Map();
  for (let t = 0; t < ntypes; t++) {
    const o = this.check(B.module_type, [mi, t], 6);
    const layout = newLayout(this.cstring(Number(o[1])), mname, o);
    for (let k = 0; k < Number(o[5]); k++) {
      const f = this.check(B.module_field, [mi, t, k], 6);
      addField(layout, this.cstring(Number(f[1])), this.cstring(Number(f[2])), f);
    }
    types.set(layout.name, layout);
  }
  linkFields(types, (layout, type) => {
    throw unknown(`nccc: layout ${mname}.${layout.name}: unknown type ${type}`);
  });
  this.cache.types.set(mi, types);
  return types;
};

// A record layout by type name: in module mi if given, else in any.
methods.findType = function (mi, name) {
  if (mi !== undefined && this.types(mi).has(name)) return this.types(mi).get(name);
  for (const m of this.modules()) {
    const t = this.types(m.index).get(name);
    if (t) return t;
  }
  return undefined;
};

function split(qualified, what) {
  const m = /^(.*)\.([^.]+)$/.exec(String(qualified));
  if (!m) throw new NcccError(`bad ${what} name '${String(qualified)}' (MODULE.NAME expected)`, { kind: "unknown" });
  return [m[1], m[2]];
}

// The layout of MODULE.TYPE: {name, module, size, align, kind, slots,
// fields: [{name, type, offset, size, count}], field: by name}.
methods.layout = function (qualified) {
  const [m, name] = split(qualified, "type");
  const [mi] = this.moduleInfo(m, "layout");
  const t = this.types(mi).get(name);
  if (!t) throw unknown(`unknown type '${qualified}'`);
  return t;
};

// Every constant of a module, by name.
methods.constants = function (m) {
  const [mi, , , , nconst] = this.moduleInfo(m, "constants");
  if (this.cache.consts.has(mi)) return this.cache.consts.get(mi);
  const consts = {};
  for (let k = 0; k < nconst; k++) {
    const fr = this.check(B.module_constant, [mi, k], 4);
    const code = this.cstring(Number(fr[2]));
    if (!GET[code]) throw unknown(`nccc: constant of unknown type '${code}'`);
    this.scratch.u64[0] = fr[3];
    consts[this.cstring(Number(fr[1]))] = GET[code](this.scratch, 0);
  }
  this.cache.consts.set(mi, consts);
  return consts;
};

methods.constant = function (qualified) {
  const [m, name] = split(qualified, "constant");
  const v = this.constants(m)[name];
  if (v === undefined) throw unknown(`unknown constant '${qualified}'`);
  return v;
};

// A callable description: label, address, signature, items and counts.
methods.describe = function (label, addr, sig, mi) {
  return { name: label, addr, signature: sig, ...this.parseSignature(sig, mi, label),
    get nargs() { return this.ins.length; } };
};

// The description of the function with handle h, checked against the
// registry's slot counts.
methods.fnByHandle = function (h) {
  let f = this.cache.byHandle.get(h);
  if (f) return f;
  const [st, o] = this.builtin(B.function, [h], 6);
  if (st !== 0) throw unknown(`unknown function handle ${h}`);
  const mi = moduleOf(h);
  const [mst, mo] = this.builtin(B.module_info, [mi], 5);
  const mname = mst === 0 ? this.cstring(Number(mo[1])) : "";
  const name = this.cstring(Number(o[2]));
  const label = mname !== "" ? `${mname}.${name}` : name;
  f = this.describe(label, Number(o[1]), this.cstring(Number(o[3])), mi);
  f.handle = h;
  const VAR = abi.slots_variable, nIn = Number(o[4]), nOut = Number(o[5]);
  if ((nIn >= VAR) !== f.varIn || nIn % VAR !== f.nin || (nOut >= VAR) !== f.varOut || nOut % VAR !== f.nout) {
    throw new NcccError(`nccc: ${label}: signature '${f.signature}' does not match its slot counts ${nIn}:${nOut}`, { kind: "type" });
  }
  this.cache.byHandle.set(h, f);
  return f;
};

// The handle of a function by name.
methods.lookup = function (name) {
  if (typeof name !== "string") throw new NcccError(`function name expected, got ${vtype(name)}`, { kind: "type" });
  const [st, res] = this.builtinWithString(B.lookup, name, 2);
  if (st === ST.ERR_NAME_NOT_FOUND) throw unknown(`unknown function '${name}'`);
  if (st !== 0) throw new NcccError(`lookup of '${name}' failed: ${this.lastError()[1]}`, { kind: "status", status: st });
  return Number(res[1]);
};

// The description of a function by name or handle, cached.
methods.fn = function (key) {
  if (typeof key === "string") {
    let f = this.cache.byName.get(key);
    if (!f) {
      f = this.fnByHandle(this.lookup(key));
      this.cache.byName.set(key, f);
    }
    return f;
  }
  if (typeof key === "number") return this.fnByHandle(key);
  throw new NcccError(`function name or handle expected, got ${vtype(key)}`, { kind: "type" });
};

// The signature string of a function (name or handle).
methods.signature = function (key) { return this.fn(key).signature; };

// The address of an exported symbol: a data symbol's address, or a
// function's table index. nccc_add_bindings gives every function the
// module exports a slot of the table (wasm-ld gives one only to functions
// whose address is taken), so a function is found, never added: the
// table never grows. A function without a slot (an export the build did
// not list in NCCC_WASM_EXPORTS) is refused.
methods.symbol = function (name) {
  const v = this.exports[name];
  if (v instanceof WebAssembly.Global) return Number(v.value);
  if (typeof v !== "function") throw unknown(`unknown symbol '${name}'`);
  // each function's first slot, read once (again if the table changed size)
  if (this.tableIndexOf !== this.table.length) {
    this.tableIndex = new Map();
    for (let k = this.table.length - 1; k > 0; k--) this.tableIndex.set(this.table.get(k), k);
    this.tableIndexOf = this.table.length;
  }
  const k = this.tableIndex.get(v);
  if (k === undefined) {
    throw unknown(`the function '${name}' has no address: the module was built without it ` +
      "in its function table (append it to the target property NCCC_WASM_EXPORTS)");
  }
  return k;
};
