"""M.d.ts: the TypeScript declarations of a generated JavaScript module,
so that editors show every function's parameters and results. Types
follow docs/JS.md, "Values", read from each function's wasm32
signature (the one bindings/js binds on wasm)."""

import re

from stubgen.abi import load as load_abi
from stubgen.ctype import CHAR_CODES
from stubgen.model.lower import TARGETS, signatures
from stubgen.source import Source

_ABI = load_abi()
WASM32 = TARGETS.index(("ILP32", CHAR_CODES[0]))  # wasm32: signed char
_ITEM = re.compile(r"\%s[^%s]*\%s|." % (_ABI.record_open, _ABI.record_close,
                                        _ABI.record_close))
_IN = {"bool": "boolean", "int": "number", "errno": "number",
       "float": "number", "pointer": "Pointer", "function": "Pointer",
       "string": "string | null", "closure": "Closure | null"}
_OUT = dict(_IN, pointer="number | null", function="number | null",
            closure="number | null")


def _items(side):
    return [m.group(0) for m in _ITEM.finditer(side)
            if m.group(0) != _ABI.variadic]


def _ts(item, table, nonnull=False):
    """The type of a value of slot code item (nonnull: an argument
    refused when NULL, which null does not type)."""
    if item.startswith(_ABI.record_open):
        return "Struct" if table is _IN else "{ [field: string]: any }"
    c = _ABI.code(item)
    if c.bytes == 8 and c.kind == "int":
        return "bigint | number" if table is _IN else "bigint"
    if nonnull and c.kind in ("string", "closure"):
        return table[c.kind].replace(" | null", "")
    return table[c.kind]


def _wasm32(sigs):
    """The wasm32 one of a function's signatures (one, or one per target)."""
    return sigs[WASM32] if len(sigs) > 1 else sigs[0]


def _constant(code):
    """A constant (an integer) reads as a number, or a BigInt when it
    is 64 bits wide on wasm32."""
    sig = _wasm32(signatures([code], []))
    return "bigint" if _ABI.code(sig.split(_ABI.separator)[0]).bytes == 8 \
        else "number"


def _ident(name, k):
    name = name or "arg%d" % k
    return name if name.isidentifier() else "arg%d" % k


def _bytes_args(lf):
    """The positions (from 1) of lf's [bytes] arguments: a Uint8Array
    goes there too (docs/JS.md, "C objects")."""
    return {v["arg"] for v in (lf.values[0] if lf.values else ())
            if v["kind"] == "bytes"}


def _function(src, lf):
    ins, outs = _wasm32(lf.signatures).split(_ABI.separator)
    buffers = _bytes_args(lf)
    params = ", ".join(
        "%s: %s%s" % (_ident(s.name, k), _ts(item, _IN, s in lf.nonnull),
                      " | Uint8Array" if k in buffers else "")
        for k, (s, item) in enumerate(zip(lf.in_slots, _items(ins)), 1))
    results = [_ts(item, _OUT) for item in _items(outs)]
    if lf.owned_return is not None and not lf.owned_return.string:
        results[0] = "Owned | null"
    if not results:
        result = "void"
    elif len(results) == 1:
        result = results[0]
    else:
        result = "[%s]" % ", ".join(results)
    src.line("%s(%s): %s;" % (lf.name, params, result))


def emit_types(host):
    src = Source()
    src.line("// %s.d.ts: declarations of %s.mjs, %s." % (
        host.name, host.name, host.generated_by()))
    src.lines("""
        /** A pointer: its address, null for NULL, or an object holding one
         *  (an owned object, a closure). */
        export type Pointer = number | null | { readonly address: number | null };
        /** A closure from m.callback or rt.callback. */
        export interface Closure { readonly live: boolean; release(): boolean; }
        /** An [owned] result: freed by close(), [Symbol.dispose]() or the
         *  collector. */
        export interface Owned { readonly address: number | null; close(): boolean; }
        /** A struct or union: its fields by name, or its bytes. */
        export type Struct = { [field: string]: any } | Uint8Array;
        /** A struct or union in wasm memory, its fields as properties
         *  (new and view; docs/JS.md, "C objects"). */
        export interface CObject {
          readonly address: number; readonly freed: boolean;
          free(): boolean; close(): boolean; record(): { [field: string]: any };
          bytes(): Uint8Array; assign(value: Struct | CObject): void;
          [field: string]: any;
        }
        /** Count records (or elements) in wasm memory, indexes checked. */
        export interface CArray<T = any> {
          readonly length: number; readonly address: number;
          [index: number]: T; toArray(): T[]; [Symbol.iterator](): Iterator<T>;
        }
        """)
    with src.block("export interface Bound {", "}"):
        for lf in host.functions:
            _function(src, lf)
        for c in host.constants:
            src.line("readonly %s: %s;" % (c, _constant(host.constant_codes[c])))
        src.line("/** A closure of one of the module's callback types. */")
        src.line("callback(type: %s, fn: (...args: any[]) => any, "
                 "scope?: \"call\" | \"async\" | \"notified\" | \"forever\"): "
                 "Closure;" % (" | ".join('"%s"' % cb.name
                                          for cb in host.callbacks)
                               or "string"))
        src.line("signature(type: string): string;")
        src.line("layout(type: string): object;")
        records = " | ".join('"%s"' % r for r in host.records) or "never"
        src.line("/** A zeroed C object of one of the module's structs "
                 "or unions. */")
        # quoted: new( in an interface would declare a constructor
        src.line("\"new\"(type: %s, value?: Struct | CObject): CObject;"
                 % records)
        src.line("/** A borrowed view of the record (or of count records) "
                 "at p. */")
        src.line("view(type: %s, p: Pointer): CObject;" % records)
        src.line("view(type: %s, p: Pointer, count: number): "
                 "CArray<CObject>;" % records)
    src.line("export const name: %s;" % ('"%s"' % host.name))
    src.line("/** The module bound to a runtime from nccc.load. */")
    src.line("export function bind(rt: object): Bound;")
    src.line("declare const _default: { name: typeof name; bind: typeof bind };")
    src.line("export default _default;")
    return str(src)
