"""The specialised callers of M.mjs: a function whose slots are all
numbers, booleans and pointers (no string, closure or record, nothing to
own) gets a JavaScript function printed for its own signature, which
checks and writes each argument straight into the slot stack and reads
each result straight out of it; a call with any value it does not take
(a wrong type, a number for an int64, a value out of range, NULL, an
object holding a pointer) goes whole to the support library's generic
caller, which converts it or raises. The signature is the one of wasm32 (ILP32, signed char);
bind falls back to rt.fast when the library's differs.
"""

from stubgen.abi import load as load_abi
from stubgen.ctype import CHAR_CODES
from stubgen.model.lower import TARGETS

_ABI = load_abi()
WASM32 = TARGETS.index(("ILP32", CHAR_CODES[0]))  # wasm32: signed char
IN_CODES = {c.code for c in _ABI.codes
            if c.kind in ("int", "float", "bool", "pointer", "function")}
OUT_CODES = IN_CODES | {c.code for c in _ABI.codes if c.kind == "errno"}


def wasm32_signature(lf):
    sigs = lf.signatures
    return sigs[WASM32] if len(sigs) > 1 else sigs[0]


def specialisable(lf):
    """The wasm32 signature of lf when its caller can be specialised."""
    if lf.owned or lf.thunks or lf.set_closures or lf.frees:
        return None
    sig = wasm32_signature(lf)
    ins, outs = sig.split(_ABI.separator)
    if all(c in IN_CODES for c in ins) and all(c in OUT_CODES for c in outs):
        return sig
    return None


def _accepts(code, arg):
    """The test that arg takes the fast path into a slot of code (None:
    every value does, its store converts or raises)."""
    c = _ABI.code(code)
    if c.kind in ("pointer", "function"):
        # wasm32: an address is an unsigned 32-bit number; NULL, and
        # objects holding an address, take the generic caller
        return 'typeof %s === "number" && %s >>> 0 === %s && %s !== 0' % (
            arg, arg, arg, arg)
    if c.kind == "bool":
        return 'typeof %s === "boolean"' % arg
    if c.kind == "float":
        return 'typeof %s === "number"' % arg if c.bytes == 8 else None
    if c.bytes == 8:
        # asIntN/asUintN: engines compile these; comparing with BigInt
        # constants costs several times more
        return 'typeof %s === "bigint" && BigInt.%s(64, %s) === %s' % (
            arg, "asIntN" if c.signed else "asUintN", arg, arg)
    if c.signed:
        test = 'typeof %s === "number" && (%s | 0) === %s' % (arg, arg, arg)
        if c.bytes < 4:
            test += " && %s >= %d && %s <= %d" % (arg, c.min, arg, c.max)
        return test
    test = 'typeof %s === "number" && %s >>> 0 === %s' % (arg, arg, arg)
    if c.bytes < 4:
        test += " && %s <= %d" % (arg, c.max)
    return test


def _store(code, k, arg):
    """The statement writing argument arg (position k from 1) into slot
    k - 1, once _accepts took it."""
    c = _ABI.code(code)
    w = "(t >> 2) + %d" % (2 * (k - 1))
    d = "(t >> 3) + %d" % (k - 1)
    if c.kind == "bool":
        return "m.u32[%s] = %s ? 1 : 0; m.u32[%s + 1] = 0;" % (w, arg, w)
    if c.kind == "float" and c.bytes == 8:
        return "m.f64[%s] = %s;" % (d, arg)
    if c.kind == "float":
        return "rt.put(f, %d, t + %d, %s);" % (k, 8 * (k - 1), arg)
    if c.bytes == 8:
        return "m.%s[%s] = %s;" % ("i64" if c.signed else "u64", d, arg)
    if c.signed:
        return "m.i32[%s] = %s; m.i32[%s + 1] = %s >> 31;" % (w, arg, w, arg)
    return "m.u32[%s] = %s; m.u32[%s + 1] = 0;" % (w, arg, w)


def _read(code, j, nin):
    """The expression of result j (from 0) after nin in slots."""
    c = _ABI.code(code)
    slot = nin + j
    if c.kind in ("pointer", "function"):
        return "m.u32[(t >> 2) + %d] || null" % (2 * slot)
    if c.kind == "bool":
        return "m.u32[(t >> 2) + %d] !== 0" % (2 * slot)
    if c.kind == "float":
        return "m.f64[(t >> 3) + %d]" % slot
    if c.bytes == 8:
        return "m.%s[(t >> 3) + %d]" % ("i64" if c.signed else "u64", slot)
    return "m.%s[(t >> 2) + %d]" % ("i32" if c.signed else "u32", 2 * slot)


def emit_special(src, lf, sig, quote):
    """S[name] for a specialisable function: rt.special(h, sig, make,
    opts), make(f, fn, m, slow) the caller over the runtime's memory
    object m (its views, the slot stack's top, end and running frame, the
    count of pending callback errors: bindings/js/nccc/runtime.mjs,
    Memory). One test takes the count, every argument and the frame's
    room; a call it does not take goes whole to slow, the generic caller
    (rt.fast with opts: the non-NULL arguments). So the caller stays
    small enough for the engine to inline where it is called (a fallback
    per argument made it half as fast)."""
    ins, outs = sig.split(_ABI.separator)
    args = ["a%d" % k for k in range(1, len(ins) + 1)]
    end = 8 * (len(ins) + len(outs))
    tests = ["arguments.length === %d" % len(ins)]
    tests += [t for t in map(_accepts, ins, args) if t]
    tests.append("t + %d <= m.end" % end)
    nonnull = sorted(lf.position(s) for s in lf.nonnull)
    opts = ", {nonnull: {%s}}" % ", ".join(
        "%d: true" % k for k in nonnull) if nonnull else ""
    src.line("// %s: %s, specialised" % (lf.name, sig))
    with src.block("S[%s] = (rt, h) => rt.special(h, %s, (f, fn, m, slow) => "
                   "function %s(%s) {" % (quote(lf.name), quote(sig),
                                          lf.name, ", ".join(args)),
                   "}%s);" % opts):
        src.line("const t = m.top;")
        src.line("if (!(%s)) return slow(...arguments);" % " && ".join(tests))
        for k, code in enumerate(ins, 1):
            src.line(_store(code, k, args[k - 1]))
        src.line("m.frame = t + %d;" % end)
        src.line("fn(t, t + %d);" % (8 * len(ins)))
        src.line("if (m.pending !== 0) rt.takePending(t + %d, f.name);"
                 % end)
        if not outs:
            return
        reads = [_read(code, j, len(ins)) for j, code in enumerate(outs)]
        if len(reads) == 1:
            src.line("return %s;" % reads[0])
        else:
            src.line("return rt.results(%s);" % ", ".join(reads))
