"""nccc/abi.h: the ABI's enums, constants and X-macro tables for C."""

from stubgen.abi import emit_items
from stubgen.source import Source

HEADER = "nccc_runtime/include/nccc/abi.h"


def _count(n, variable):
    """A slot count as C: 2, or 2u | 0x8000u for a side ending in '*'."""
    if n & variable:
        return "%du | 0x%xu" % (n & ~variable, variable)
    return "%du" % n


def _enum(src, ctype, entries):
    """typedef enum ctype { NAME = value, /* doc */ ... } ctype;"""
    with src.block("typedef enum %s {" % ctype, "} %s;" % ctype):
        for k, (name, value, note) in enumerate(entries):
            comma = "," if k + 1 < len(entries) else ""
            line = "%s = %s%s" % (name, value, comma)
            src.line(line + (" /* %s */" % note if note else ""))
    src.blank()


def _xmacro(src, name, params, rows):
    """#define name(X) X(row...) ... with one row a line."""
    src.line("/* %s(X): X(%s) */" % (name, ", ".join(params)))
    src.line("#define %s(X) \\" % name)
    for k, row in enumerate(rows):
        tail = " \\" if k + 1 < len(rows) else ""
        src.line("  X(%s)%s" % (", ".join(str(v) for v in row), tail))
    src.blank()


def _char(c):
    return "'\\''" if c == "'" else "'%s'" % c


def emit(abi):
    src = Source(indent="  ")
    src.lines("""
        /*
        ** nccc/abi.h — the ABI's numbers and tables: signature codes and
        ** their grammar, the handle layout, status codes, built-ins,
        ** closure targets, scopes and flags, type kinds (docs/ABI.md).
        **
        ** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
        ** --write); do not edit. The Lua and Scheme tables come from the
        ** same file, so a change there reaches every host.
        */
        #ifndef NCCC_ABI_H
        #define NCCC_ABI_H
        """)
    src.blank()
    src.line("/* ---- signature codes and their grammar ---- */")
    src.blank()
    src.line("/* KIND is BOOL INT FLOAT POINTER STRING FUNCTION CLOSURE or "
             "ERRNO; BYTES 0")
    src.line("** means pointer-sized; IN_OK/OUT_OK: allowed on that side. */")
    _xmacro(src, "NCCC_ABI_CODES",
            ["CODE", "NAME", "KIND", "BYTES", "SIGNED", "IN_OK", "OUT_OK"],
            [(_char(c.code), c.ident, c.kind.upper(), c.bytes,
              int(c.signed), int(c.in_ok), int(c.out_ok))
             for c in abi.codes])
    src.line('#define NCCC_ABI_IN_CODES "%s"' % abi.in_codes())
    src.line('#define NCCC_ABI_VALUE_CODES "%s" /* not closure, not errno */'
             % abi.value_codes())
    src.line('#define NCCC_ABI_OUT_CODES "%s"' % abi.out_codes())
    for role, c in abi.grammar_chars():
        src.line("#define NCCC_ABI_SIG_%s %s" % (role.upper(), _char(c)))
    src.line("#define NCCC_ABI_MAX_SLOTS 0x%xu /* per side */"
             % abi.max_slots)
    src.line("#define NCCC_ABI_SLOTS_VARIABLE 0x%xu /* or'ed into a count: "
             "the side ends in '*' */" % abi.slots_variable)
    src.blank()
    emit_items.section(src, abi, _char)
    src.line("/* ---- handles ---- */")
    src.blank()
    h = abi.handle
    src.line("#define NCCC_ABI_HANDLE_MODULE_MARKER 0x%xu"
             % h["module_marker"])
    src.line("#define NCCC_ABI_HANDLE_FUNCTION_MARKER 0x%xu"
             % h["function_marker"])
    src.line("#define NCCC_ABI_HANDLE_MODULE_SHIFT %d" % h["module_shift"])
    src.line("#define NCCC_ABI_HANDLE_INDEX_MASK 0x%xu" % h["index_mask"])
    src.blank()
    src.line("/* ---- the hash of closure types and name indices: FNV-1a 32 "
             "---- */")
    src.blank()
    src.line("/* FNV-1a 32's basis and prime; a registry's hash index: "
             "[slot count - 1, slots...],")
    src.line("** a slot EMPTY or a function's index + 1, at least "
             "SLOTS_PER_NAME slots a name,")
    src.line("** a power of two (nccc/registry.h). */")
    ni = abi.name_index_params
    for name, value in [("FNV1A_BASIS", abi.fnv1a_32["offset_basis"]),
                        ("FNV1A_PRIME", abi.fnv1a_32["prime"]),
                        ("NAME_INDEX_EMPTY", ni["empty"]),
                        ("NAME_INDEX_SLOTS_PER_NAME", ni["slots_per_name"])]:
        src.line("#define NCCC_ABI_%s %du" % (name, value))
    src.blank()
    src.line("/* ---- status codes (TVM CRT's values where TVM has the "
             "condition) ---- */")
    src.blank()
    _enum(src, "nccc_status",
          [("NCCC_" + s.name, "0x%04x" % s.value, s.doc or s.tvm)
           for s in abi.status])
    _xmacro(src, "NCCC_ABI_STATUSES", ["NAME", "VALUE", "TEXT"],
            [("NCCC_" + s.name, "0x%04x" % s.value, '"%s"' % s.text)
             for s in abi.status])
    src.line("/* The statuses tvm/runtime/crt/error_codes.h names too, with "
             "the same value. */")
    _xmacro(src, "NCCC_ABI_TVM_STATUSES", ["NAME", "TVM_NAME"],
            [("NCCC_" + s.name, s.tvm) for s in abi.status if s.tvm])
    src.line("/* ---- built-ins: in[] -> out[] (status first) ---- */")
    src.blank()
    _enum(src, "nccc_builtin_index",
          [("NCCC_BUILTIN_" + b.ident, b.index,
            "%s%s" % (b.signature, " (%s)" % b.doc if b.doc else ""))
           for b in abi.builtins] +
          [("NCCC_BUILTIN_COUNT", len(abi.builtins), None)])
    offsets, at = [], 2
    for b in abi.builtins:
        offsets.append(at)
        at += len(b.name) + 1
    src.line("/* OFFSET: the name's byte offset in a names blob of every "
             "name in index order */")
    _xmacro(src, "NCCC_ABI_BUILTINS",
            ["INDEX", "UPPER", "name", "SIGNATURE", "N_IN", "N_OUT",
             "OFFSET"],
            [(b.index, b.ident, b.name, '"%s"' % b.signature,
              _count(b.n_in, abi.slots_variable),
              _count(b.n_out, abi.slots_variable), "%du" % off)
             for b, off in zip(abi.builtins, offsets)])
    src.line("/* The size of a '*' side: argument ARG (0-based) holds n, and "
             "the side")
    src.line("** takes ceil(n * MUL / DIV) slots; OUT: it is the out side. */")
    _xmacro(src, "NCCC_ABI_BUILTIN_RESTS",
            ["INDEX", "ARG", "MUL", "DIV", "OUT"],
            [(b.index, b.rest.arg, b.rest.mul, b.rest.div, int(b.rest.out))
             for b in abi.builtins if b.rest])
    src.line("/* ---- closures ---- */")
    src.blank()
    src.line("/* How C calls a closure's target (a host's dispatcher): in[0] "
             "= env, then")
    src.line("** the callback's argument slots; out: its result slots. */")
    src.line('#define NCCC_ABI_CLOSURE_TARGET_SIGNATURE "%s"'
             % abi.closure_target_signature)
    src.blank()
    src.line("/* Lifetimes; the closure_claim built-in takes them. */")
    _enum(src, "nccc_scope",
          [("NCCC_SCOPE_" + s.name.upper(), s.value, s.doc)
           for s in abi.scopes])
    for f in abi.closure_flags:
        src.line("/* %s */" % f.doc)
        src.line("#define NCCC_CLOSURE_%s 0x%xu" % (f.name.upper(), f.value))
    ct = abi.closure_type_params
    src.line("/* The type a typed closure records: NCCC_ABI_FNV1A over its "
             "callback's signature;")
    src.line("** a hash equal to UNTYPED becomes ZERO_BECOMES (UNTYPED marks the "
             "claims without")
    src.line("** a signature). */")
    src.line("#define NCCC_CLOSURE_UNTYPED %du" % ct["untyped"])
    src.line("#define NCCC_CLOSURE_TYPE_ZERO_BECOMES %du" % ct["zero_becomes"])
    src.blank()
    src.line("/* ---- packed functions ---- */")
    src.blank()
    src.line("/* Flags of nccc_packed_register (nccc/packed.h). */")
    for f in abi.packed.flags:
        src.line("/* %s */" % f.doc)
        src.line("#define NCCC_PACKED_%s %du" % (f.name.upper(), f.value))
    src.blank()
    src.line("/* ---- type layouts ---- */")
    src.blank()
    _enum(src, "nccc_type_kind",
          [("NCCC_TYPE_" + t.name.upper(), t.value, t.doc)
           for t in abi.type_kinds])
    src.line("#endif")
    return str(src)
