#!/usr/bin/env python3
"""Writes the libffi differential-test corpus.

    gen_corpus.py OUTDIR [--seed N]

(mutants.py breaks some of the wrappers made from it on purpose.)

OUTDIR receives:
  corpus.h        the struct/union/enum types and the prototypes
  corpus_impl.c   the functions: each hashes every bit of every argument
                  and returns (or, for void, stores in fo_sink) a value
                  derived from the hash
  fo_a.idl        the first part, with #include "corpus.h" (the generated
                  C checks itself against the header)
  fo_b.idl        the rest, without #include (the generated C declares
                  everything itself)
  corpus_table.h, corpus_table.c
                  what the driver (oracle_check.c) needs: one fo_type per C
                  type (kind, size, libffi type, fill and mask for records)
                  and one fo_case per function (wrapper, function, types,
                  expected signature)

The same seed always gives byte-identical files.
"""

import os
import random
import sys

SEED = 20240611

# ---- the types ---------------------------------------------------------------
# Scalars: (id, C spelling, kind, signedness expression, signature code as
# a C string expression). Kinds are fo_kind values of oracle.h.
SCALARS = [
    ("CHAR", "char", "INT", "CHAR_MIN < 0", "NCCC_SIG_CHAR"),
    ("SCHAR", "signed char", "INT", "1", '"b"'),
    ("UCHAR", "unsigned char", "INT", "0", '"B"'),
    ("SHORT", "short", "INT", "1", '"h"'),
    ("USHORT", "unsigned short", "INT", "0", '"H"'),
    ("INT", "int", "INT", "1", '"i"'),
    ("UINT", "unsigned int", "INT", "0", '"I"'),
    ("LONG", "long", "INT", "1", "NCCC_SIG_LONG"),
    ("ULONG", "unsigned long", "INT", "0", "NCCC_SIG_ULONG"),
    ("LLONG", "long long", "INT", "1", '"l"'),
    ("ULLONG", "unsigned long long", "INT", "0", '"L"'),
    ("I8", "int8_t", "INT", "1", '"b"'),
    ("U8", "uint8_t", "INT", "0", '"B"'),
    ("I16", "int16_t", "INT", "1", '"h"'),
    ("U16", "uint16_t", "INT", "0", '"H"'),
    ("I32", "int32_t", "INT", "1", '"i"'),
    ("U32", "uint32_t", "INT", "0", '"I"'),
    ("I64", "int64_t", "INT", "1", '"l"'),
    ("U64", "uint64_t", "INT", "0", '"L"'),
    ("SIZE", "size_t", "INT", "0", "NCCC_SIG_SIZE"),
    ("SSIZE", "ssize_t", "INT", "1", "NCCC_SIG_SSIZE"),
    ("INTPTR", "intptr_t", "INT", "1", "NCCC_SIG_INTPTR"),
    ("UINTPTR", "uintptr_t", "INT", "0", "NCCC_SIG_UINTPTR"),
    ("PTRDIFF", "ptrdiff_t", "INT", "1", "NCCC_SIG_INTPTR"),
    ("WORD", "fo_word", "INT", "0", "NCCC_SIG_ULONG"),
    ("BOOL", "bool", "BOOL", "0", '"?"'),
    ("FLOAT", "float", "FLOAT", "1", '"f"'),
    ("DOUBLE", "double", "DOUBLE", "1", '"d"'),
    ("ESIGN", "enum fo_sign", "ENUM", "((enum fo_sign)-1 < (enum fo_sign)1)", '"i"'),
    ("EFLAGS", "enum fo_flags", "ENUM", "((enum fo_flags)-1 < (enum fo_flags)1)", '"i"'),
    ("VOIDP", "void *", "PTR", "0", '"p"'),
    ("CSTR", "const char *", "PTR", "0", '"s"'),
    ("CHARP", "char *", "PTR", "0", '"p"'),
    ("INTP", "int *", "PTR", "0", '"p"'),
    ("CDBLP", "const double *", "PTR", "0", '"p"'),
    ("PADP", "struct fo_pad *", "PTR", "0", '"p"'),
    ("CB", "fo_cb", "PTR", "0", '"F"'),
]

# Records: (id, C spelling, kind, tag or typedef name used in signatures,
# fields, libffi elements for unions, the member a union is hashed and
# filled through). A field is (type id, name, array count or 0); an alias
# names the record it is a typedef of instead of fields.
#
# libffi has no unions: each union is passed to it as a struct of the same
# size, alignment and x86-64 SysV class (INTEGER for the three with an
# integer member, SSE for fo_ufd). Another ABI may classify some unions
# differently (AArch64 does not treat fo_ufd as floating point); a port of
# this test there needs its own stand-ins.
RECORDS = [
    ("TINY", "struct fo_tiny", "struct", "fo_tiny", [("I8", "a", 0)]),
    ("SMALL", "struct fo_small", "struct", "fo_small",
     [("I32", "a", 0), ("I16", "b", 0)]),
    ("SMALLT", "fo_small_t", "alias", "fo_small", "SMALL"),
    ("FF", "struct fo_ff", "struct", "fo_ff",
     [("FLOAT", "x", 0), ("FLOAT", "y", 0)]),
    ("F3", "struct fo_f3", "struct", "fo_f3",
     [("FLOAT", "x", 0), ("FLOAT", "y", 0), ("FLOAT", "z", 0)]),
    ("MIXED", "struct fo_mixed", "struct", "fo_mixed",
     [("FLOAT", "f", 0), ("I32", "i", 0), ("DOUBLE", "d", 0)]),
    ("DI", "struct fo_di", "struct", "fo_di",
     [("DOUBLE", "d", 0), ("I64", "i", 0)]),
    ("PAIR", "struct fo_pair", "struct", "fo_pair",
     [("U32", "a", 0), ("U32", "b", 0), ("I64", "c", 0)]),
    ("PAD", "struct fo_pad", "struct", "fo_pad",
     [("CHAR", "c", 0), ("DOUBLE", "d", 0), ("SHORT", "s", 0)]),
    ("LARGE", "struct fo_large", "struct", "fo_large",
     [("I64", "a", 3), ("DOUBLE", "d", 0), ("VOIDP", "ptr", 0),
      ("U8", "tail", 0), ("BOOL", "flag", 0)]),
    ("NESTED", "struct fo_nested", "struct", "fo_nested",
     [("FF", "p", 0), ("I32", "k", 0), ("FLOAT", "w", 0)]),
    ("DEEP", "struct fo_deep", "struct", "fo_deep",
     [("SMALL", "s", 0), ("NESTED", "n", 2), ("ESIGN", "e", 0),
      ("CHAR", "tag", 0)]),
    ("ANON", "fo_anon_t", "struct", "fo_anon_t",
     [("U16", "a", 0), ("U8", "b", 0), ("I32", "c", 0)]),
    ("U8U", "union fo_u8", "union", "fo_u8",
     [("U64", "u", 0), ("DOUBLE", "d", 0), ("FLOAT", "f", 2),
      ("U8", "b", 8)], ["U64"], "b"),
    ("U4U", "union fo_u4", "union", "fo_u4",
     [("I32", "i", 0), ("FLOAT", "f", 0), ("U16", "h", 2), ("U8", "b", 4)],
     ["U32"], "b"),
    ("UFD", "union fo_ufd", "union", "fo_ufd",
     [("FLOAT", "f", 0), ("DOUBLE", "d", 0)], ["DOUBLE"], "d"),
    ("U3U", "union fo_u3", "union", "fo_u3",
     [("U8", "b", 3), ("U16", "h", 0)], ["U16", "U16"], "b"),
]

SCALAR = {s[0]: s for s in SCALARS}
RECORD = {r[0]: r for r in RECORDS}


def rec_fields(rid):
    r = RECORD[rid]
    return rec_fields(r[4]) if r[2] == "alias" else r[4]


def rec_base(rid):
    r = RECORD[rid]
    return rec_base(r[4]) if r[2] == "alias" else rid


def spell(tid):
    return SCALAR[tid][1] if tid in SCALAR else RECORD[tid][1]


def decl(tid, name):
    """A C declaration of name with type tid (pointer spellings glue)."""
    s = spell(tid)
    return s + name if s.endswith("*") else s + " " + name


TYPE_IDS = [s[0] for s in SCALARS] + [r[0] for r in RECORDS]

# ---- C and IDL text of the types ---------------------------------------------
ENUMS = """enum fo_sign { FO_NEG = -3, FO_ZERO = 0, FO_POS = 7 };
enum fo_flags { FO_F1 = 1, FO_F2 = 2, FO_F4 = 4, FO_FBIG = 0x40000000 };
"""


def record_definitions():
    out = []
    for r in RECORDS:
        sp, kind = r[1], r[2]
        if kind == "alias":
            out.append("typedef %s %s;" % (spell(r[4]), sp))
            continue
        body = []
        for ftid, fname, count in r[4]:
            body.append("  %s;" % decl(ftid, fname + ("[%d]" % count if count else "")))
        if sp.startswith("struct ") or sp.startswith("union "):
            out.append("%s {\n%s\n};" % (sp, "\n".join(body)))
        else:
            out.append("typedef struct {\n%s\n} %s;" % ("\n".join(body), sp))
    return "\n".join(out) + "\n"


TYPEDEFS = """typedef unsigned long fo_word;
typedef int32_t (*fo_cb)(int32_t);
"""

# ---- signatures ----------------------------------------------------------------


class Fn:
    def __init__(self, name, ret, params, module):
        self.name, self.ret, self.params, self.module = name, ret, params, module


def random_type(rng, allow_void=False):
    x = rng.random()
    if allow_void and x < 0.05:
        return "VOID"
    if x < 0.22:
        return rng.choice([r[0] for r in RECORDS])
    if x < 0.32:
        return rng.choice([s[0] for s in SCALARS if s[2] == "PTR"])
    return rng.choice([s[0] for s in SCALARS if s[2] != "PTR"])


def corpus(seed):
    rng = random.Random(seed)
    fns = []
    # Systematic: every type through the identity (so edge values reach
    # the result conversion unchanged), after the integer registers are
    # used up, and after the floating-point ones.
    for tid in TYPE_IDS:
        low = tid.lower()
        fns.append(Fn("fo_id_" + low, tid, [tid], "a"))
        fns.append(Fn("fo_spilli_" + low, tid, ["I64"] * 5 + [tid, "I64"], "a"))
        fns.append(Fn("fo_spillf_" + low, tid,
                      ["DOUBLE"] * 7 + [tid, "DOUBLE", "I8", tid], "a"))
    fns.append(Fn("fo_void0", "VOID", [], "a"))
    # Random: every parameter count 0..12 equally often.
    n_random = 330
    for i in range(n_random):
        nparams = i % 13
        ret = random_type(rng, allow_void=True)
        params = [random_type(rng) for _ in range(nparams)]
        # Some all-float and all-integer lists: register exhaustion in
        # one class only.
        if i % 11 == 5:
            params = [rng.choice(["FLOAT", "DOUBLE", "FF", "UFD"])
                      for _ in range(nparams)]
        elif i % 11 == 7:
            params = [rng.choice(["I8", "U16", "I32", "U64", "BOOL", "CHAR",
                                  "PAIR", "VOIDP"]) for _ in range(nparams)]
        fns.append(Fn("fo_r%03d" % i, ret, params, "a" if i < 170 else "b"))
    return fns


# ---- corpus.h and corpus_impl.c --------------------------------------------------

HEADER_PRELUDE = """/* corpus.h: types and prototypes of the libffi oracle corpus. Generated by
** gen_corpus.py; do not edit. */
#ifndef FO_CORPUS_H
#define FO_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

"""


def proto(fn):
    params = ", ".join(decl(p, "a%d" % i) for i, p in enumerate(fn.params)) or "void"
    ret = "void" if fn.ret == "VOID" else spell(fn.ret)
    sep = "" if ret.endswith("*") else " "
    return "%s%s%s(%s)" % (ret, sep, fn.name, params)


def write_header(fns):
    out = [HEADER_PRELUDE, TYPEDEFS, ENUMS, record_definitions(), "\n"]
    out.append("/* void functions leave their hash here */\nextern uint64_t fo_sink;\n\n")
    for fn in fns:
        out.append(proto(fn) + ";\n")
    out.append("\n#endif\n")
    return "".join(out)


def leaves(tid, path):
    """(scalar type id, C access path) for every scalar inside a value."""
    if tid in SCALAR:
        yield tid, path
        return
    for ftid, fname, count in rec_fields(tid):
        if count:
            for k in range(count):
                yield from leaves(ftid, "%s.%s[%d]" % (path, fname, k))
        else:
            yield from leaves(ftid, "%s.%s" % (path, fname))


def hash_member(tid):
    """Unions are read and written through one member covering all their
    defined bytes; structs through all their fields."""
    base = RECORD[rec_base(tid)]
    return base[6] if base[2] == "union" else None


def record_leaves(tid, path):
    m = hash_member(tid)
    if m is None:
        yield from leaves(tid, path)
        return
    for ftid, fname, count in rec_fields(tid):
        if fname == m:
            if count:
                for k in range(count):
                    yield ftid, "%s.%s[%d]" % (path, fname, k)
            else:
                yield ftid, "%s.%s" % (path, fname)


def mix_expr(tid, expr):
    kind = SCALAR[tid][2]
    if kind == "FLOAT":
        return "fo_bits_f(%s)" % expr
    if kind == "DOUBLE":
        return "fo_bits_d(%s)" % expr
    if tid == "CB":
        return "fo_bits_cb(%s)" % expr
    if kind == "PTR":
        return "(uint64_t)(uintptr_t)(%s)" % expr
    return "(uint64_t)(%s)" % expr


def make_expr(tid, h):
    kind = SCALAR[tid][2]
    if kind == "FLOAT":
        return "fo_f_bits((uint32_t)%s)" % h
    if kind == "DOUBLE":
        return "fo_d_bits(%s)" % h
    if kind == "BOOL":
        return "((%s & 1u) != 0)" % h
    if tid == "CB":
        return "fo_cb_bits(%s)" % h
    if kind == "PTR":
        return "(%s)(uintptr_t)%s" % (spell(tid), h)
    if tid == "ESIGN":
        return "(enum fo_sign)(int32_t)(uint32_t)%s" % h
    if tid == "EFLAGS":
        return "(enum fo_flags)(uint32_t)%s" % h
    return "(%s)%s" % (spell(tid), h)


IMPL_PRELUDE = """/* corpus_impl.c: the functions of the libffi oracle corpus. Generated by
** gen_corpus.py; do not edit. Each one folds every bit of every argument
** into a hash and derives its result from it, so a wrong bit anywhere in
** a call changes the result. */
#include <string.h>

#include "corpus.h"

uint64_t fo_sink;

static uint64_t fo_mix(uint64_t h, uint64_t v) {
  h ^= v;
  h *= 0xbf58476d1ce4e5b9u;
  h ^= h >> 31;
  h *= 0x94d049bb133111ebu;
  return h ^ (h >> 29);
}
static uint64_t fo_bits_f(float v) { uint32_t b; memcpy(&b, &v, 4); return b; }
static uint64_t fo_bits_d(double v) { uint64_t b; memcpy(&b, &v, 8); return b; }
static uint64_t fo_bits_cb(fo_cb v) {
  uint64_t b = 0;
  memcpy(&b, &v, sizeof v < 8 ? sizeof v : 8);
  return b;
}
static float fo_f_bits(uint32_t b) { float v; memcpy(&v, &b, 4); return v; }
static double fo_d_bits(uint64_t b) { double v; memcpy(&v, &b, 8); return v; }
static fo_cb fo_cb_bits(uint64_t b) {
  fo_cb v;
  memcpy(&v, &b, sizeof v < 8 ? sizeof v : 8);
  return v;
}

"""


def write_impl(fns):
    out = [IMPL_PRELUDE]
    # One hash and one maker per record type.
    for r in RECORDS:
        rid = r[0]
        c = ["static uint64_t fo_hash_%s(uint64_t h, %s) {" % (rid.lower(), decl(rid, "v"))]
        for ltid, path in record_leaves(rid, "v"):
            c.append("  h = fo_mix(h, %s);" % mix_expr(ltid, path))
        c.append("  return h;\n}")
        c.append("static %s {" % decl(rid, "fo_make_%s(uint64_t h)" % rid.lower()))
        c.append("  %s;" % decl(rid, "r"))
        for ltid, path in record_leaves(rid, "r"):
            c.append("  h = fo_mix(h, 0x5bd1e995u);")
            c.append("  %s = %s;" % (path, make_expr(ltid, "h")))
        c.append("  return r;\n}\n")
        out.append("\n".join(c) + "\n")
    for i, fn in enumerate(fns):
        body = ["%s {" % proto(fn), "  uint64_t h = %du;" % (1000003 * (i + 1))]
        for k, p in enumerate(fn.params):
            if p in RECORD:
                body.append("  h = fo_hash_%s(h, a%d);" % (p.lower(), k))
            else:
                body.append("  h = fo_mix(h, %s);" % mix_expr(p, "a%d" % k))
        body.append("  h = fo_mix(h, %du);" % len(fn.params))
        if fn.ret == "VOID":
            body.append("  fo_sink = h;")
        elif fn.ret in RECORD:
            body.append("  return fo_make_%s(h);" % fn.ret.lower())
        elif fn.name.startswith("fo_id_"):
            body.append("  (void)h;\n  return a0;")
        else:
            body.append("  return %s;" % make_expr(fn.ret, "h"))
        body.append("}\n")
        out.append("\n".join(body) + "\n")
    return "".join(out)


# ---- the IDL files -------------------------------------------------------------------


def write_idl(module, fns, with_include):
    out = ["// %s.idl: part of the libffi oracle corpus. Generated by gen_corpus.py;\n"
           "// do not edit.\n" % module,
           "module %s;\n" % module]
    if with_include:
        out.append('#include "corpus.h"\n')
    out.append("\n" + TYPEDEFS + ENUMS + record_definitions() + "\n")
    for fn in fns:
        out.append(proto(fn) + ";\n")
    return "".join(out)


# ---- corpus_table.{h,c} ---------------------------------------------------------------------


def sig_code(tid):
    if tid in SCALAR:
        return SCALAR[tid][4]
    return '"{%s}"' % RECORD[tid][3]


def write_table_h(fns):
    ids = ",\n  ".join("FO_T_%s" % t for t in TYPE_IDS)
    return """/* corpus_table.h: type ids of the libffi oracle corpus. Generated by
** gen_corpus.py; do not edit. */
#ifndef FO_CORPUS_TABLE_H
#define FO_CORPUS_TABLE_H

enum {
  %s,
  FO_T_COUNT,
  FO_T_VOID = -1
};

#define FO_N_CASES %d

#endif
""" % (ids, len(fns))


def write_table_c(fns):
    out = ["""/* corpus_table.c: the driver's view of the libffi oracle corpus. Generated
** by gen_corpus.py; do not edit. */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "corpus.h"
#include "corpus_table.h"
#include "fo_a_nccc.h"
#include "fo_b_nccc.h"
#include "oracle.h"

"""]
    # Records: libffi type, fill, mask, expected element offsets.
    for r in RECORDS:
        rid, sp, kind = r[0], r[1], r[2]
        low = rid.lower()
        if kind == "alias":
            continue
        if kind == "union":
            elems = [(e, None) for e in r[5]]
        else:
            elems = []
            for ftid, fname, count in r[4]:
                if count:
                    for k in range(count):
                        elems.append((ftid, "%s[%d]" % (fname, k)))
                else:
                    elems.append((ftid, fname))
        n = len(elems)
        out.append("static ffi_type *fo_elems_%s[%d];\n" % (low, n + 1))
        out.append("static ffi_type fo_ffi_%s;\n" % low)
        if kind == "struct":
            offs = ", ".join("offsetof(%s, %s)" % (sp, path) for _, path in elems)
            out.append("static const size_t fo_offs_%s[] = {%s};\n" % (low, offs))
        out.append("static void fo_init_%s(void) {\n" % low)
        for k, (etid, _) in enumerate(elems):
            if etid in RECORD:
                out.append("  fo_elems_%s[%d] = fo_types[FO_T_%s].ffi;\n" % (low, k, rec_base(etid)))
            else:
                out.append("  fo_elems_%s[%d] = fo_scalar_ffi(FO_T_%s);\n" % (low, k, etid))
        out.append("  fo_elems_%s[%d] = NULL;\n" % (low, n))
        out.append("  fo_ffi_%s.size = 0;\n  fo_ffi_%s.alignment = 0;\n" % (low, low))
        out.append("  fo_ffi_%s.type = FFI_TYPE_STRUCT;\n" % low)
        out.append("  fo_ffi_%s.elements = fo_elems_%s;\n}\n" % (low, low))
        # fill: random bytes everywhere (padding too), then each leaf value
        out.append("static void fo_fill_%s(void *obj, int mode, fo_rng *rng, int k) {\n" % low)
        out.append("  %s;\n" % decl(rid, "v"))
        out.append("  fo_random_bytes(&v, sizeof v, rng);\n")
        for j, (ltid, path) in enumerate(record_leaves(rid, "v")):
            out.append("  fo_fill_leaf(FO_T_%s, &%s, mode, rng, k + %d);\n" % (ltid, path, j))
        out.append("  memcpy(obj, &v, sizeof v);\n}\n")
        out.append("static void fo_mask_%s(unsigned char *m) {\n" % low)
        out.append("  %s;\n" % decl(rid, "v"))
        for ltid, path in leaves(rid, "v"):
            out.append("  fo_mask_range(m, (size_t)((unsigned char *)&%s - (unsigned char *)&v), sizeof %s);\n" % (path, path))
        out.append("}\n\n")
    # The type table.
    out.append("fo_type fo_types[FO_T_COUNT] = {\n")
    for s in SCALARS:
        sp, kind, signed = s[1], s[2], s[3]
        out.append('  {"%s", FO_K_%s, sizeof(%s), FO_ALIGNOF(%s), %s, NULL, NULL, NULL, NULL, 0, NULL},\n'
                   % (sp, kind, sp, sp, signed))
    for r in RECORDS:
        rid, sp, kind = r[0], r[1], r[2]
        b = rec_base(rid).lower()
        offs, noffs = ("fo_offs_%s" % b, "sizeof fo_offs_%s / sizeof fo_offs_%s[0]" % (b, b)) \
            if RECORD[rec_base(rid)][2] == "struct" else ("NULL", "0")
        out.append('  {"%s", FO_K_RECORD, sizeof(%s), FO_ALIGNOF(%s), 0, &fo_ffi_%s, fo_fill_%s, fo_mask_%s, %s, %s, "%s"},\n'
                   % (sp, sp, sp, b, b, b, offs, noffs, RECORD[rid][3]))
    out.append("};\n\n")
    out.append("void fo_init_types(void) {\n")
    for s in SCALARS:
        out.append("  fo_types[FO_T_%s].ffi = fo_scalar_ffi(FO_T_%s);\n" % (s[0], s[0]))
    # Nested records first: RECORDS lists every record after the ones it holds.
    for r in RECORDS:
        if r[2] != "alias":
            out.append("  fo_init_%s();\n" % r[0].lower())
    out.append("}\n\n")
    # The cases.
    for i, fn in enumerate(fns):
        if fn.params:
            out.append("static const int fo_p%d[] = {%s};\n" % (i, ", ".join("FO_T_" + p for p in fn.params)))
    out.append("\nconst fo_case fo_cases[FO_N_CASES] = {\n")
    for i, fn in enumerate(fns):
        sig_in = " ".join(sig_code(p) for p in fn.params)
        sig_out = "" if fn.ret == "VOID" else sig_code(fn.ret)
        sig = " ".join(x for x in [sig_in, '":"', sig_out] if x)
        params = "fo_p%d" % i if fn.params else "NULL"
        ret = "FO_T_VOID" if fn.ret == "VOID" else "FO_T_" + fn.ret
        out.append('  {"%s", "fo_%s", nccc_fo_%s_%s, (void (*)(void))%s, %s, %d, %s, %s},\n'
                   % (fn.name, fn.module, fn.module, fn.name, fn.name, ret,
                      len(fn.params), params, sig))
    out.append("};\n")
    return "".join(out)


def write_all(outdir, seed):
    fns = corpus(seed)
    files = {
        "corpus.h": write_header(fns),
        "corpus_impl.c": write_impl(fns),
        "fo_a.idl": write_idl("fo_a", [f for f in fns if f.module == "a"], True),
        "fo_b.idl": write_idl("fo_b", [f for f in fns if f.module == "b"], False),
        "corpus_table.h": write_table_h(fns),
        "corpus_table.c": write_table_c(fns),
    }
    os.makedirs(outdir, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(outdir, name), "w") as f:
            f.write(text)


def main(argv):
    args = argv[1:]
    seed = SEED
    if len(args) == 3 and args[1] == "--seed":
        seed = int(args[2])
        args = args[:1]
    if len(args) != 1:
        sys.exit(__doc__)
    write_all(args[0], seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
