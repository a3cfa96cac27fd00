"""The C emitter: M_nccc.h and M_nccc.c for module M.

It reads only the model (model.py). The .c file holds, in order: the
IDL's #define and #include lines, the declarations (generated from the
IDL when it has no #include) or the compile-time checks of the IDL
against the headers, one wrapper per function, the const registry, the
layout table, the constants table and the module with its register
function. Every size, offset, alignment and constant value is a C
expression for the compiler to evaluate; the generator computes none.
A packed function's wrapper is one call of nccc_packed_forward
(nccc/packed.h) with its name and packed signature.

Callbacks (docs/CALLBACKS.md): per callback type some function takes, a
static backward wrapper per member index it is used as (the type's own C
signature; it packs the arguments into slots and calls the closure's
target through nccc/shim_callback.h), or for a type without a context a
pool of [thunks=N] static thunks. A forward wrapper takes a closure
context in the slot of the context parameter (or of a thunk-pool
callback), refuses a stale one before C sees it, passes C the backward
wrapper (or a bound thunk) and the context, and releases CALL-scoped
closures after the call. A wrapper with the trace or fault shim is a
static body and a public wrapper around it (NCCC_SITE_WRAP); the
releases follow NCCC_SITE_WRAP, so a faulted call releases too.

A [nonnull] pointer argument (or [inout] value) is refused when NULL
before anything else in the wrapper (NCCC_NONNULL_REQUIRE, nccc/
shim_nonnull.h): out zeroed, NCCC_ERR_NULL_POINTER recorded, C not
called, CALL-scoped closures released; a packed forwarder's status slot
gets the status.

A struct or union a wrapper writes to out[] goes through the static
helpers of its type, shared by all wrappers: put_T zeroes the record's
slots and calls copy_T, which copies each field at its offsetof (nested
records through their own copy_T), so padding bytes are 0 in the slots
whatever the C object held there; a union's copy_T copies the bytes of
its largest member. Slots to C (arguments, [inout] values in) stay one
memcpy: padding in a C object is never read.
"""

from stubgen import __version__
from stubgen.ctype import ASSUMED_SIZES, SCALARS, Array, FuncType, \
    Pointer, Scalar, Void
from stubgen.model import ConstantDecl, EnumDecl, Function, OpaqueDecl, \
    Prototype, RecordDecl, TypedefDecl
from stubgen.model.lower import held_record, lower
from stubgen.source import Sections, Source

# Scalars with a slot helper of their exact width.
_EXACT = {
    "signed char": "i8", "unsigned char": "u8", "short": "i16",
    "unsigned short": "u16", "int": "i32", "unsigned int": "u32",
    "long long": "i64", "unsigned long long": "u64",
    "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16",
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64",
    "uint64_t": "u64",
}


def emit(module, idl_name):
    """{file name: text} for module; idl_name is the IDL file's base name
    (it appears in the header comments only)."""
    return _Emitter(module, idl_name).run()


def c_string(s):
    """A C string literal for s. A NUL at the end is written \\0 (no
    digit can follow it inside the literal); "??" is broken up so that no
    trigraph can form."""
    out = []
    for i, ch in enumerate(s):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "?" and i > 0 and s[i - 1] == "?":
            out.append("\\?")
        elif " " <= ch <= "~":
            out.append(ch)
        elif ch == "\0" and i == len(s) - 1:
            out.append("\\0")
        else:
            # octal escapes are at most three digits: no run-on with
            # the next character
            out.extend("\\%03o" % b for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def signature_literal(codes_in, codes_out):
    """A C expression for the signature: string literals and the
    NCCC_SIG_* macros of slot.h, concatenated."""
    parts, lit = [], []
    for code in list(codes_in) + [":"] + list(codes_out):
        if code.startswith("NCCC_SIG_"):
            if lit:
                parts.append(c_string("".join(lit)))
                lit = []
            parts.append(code)
        else:
            lit.append(code)
    if lit:
        parts.append(c_string("".join(lit)))
    return " ".join(parts)


def nonnull_checks(lf, v_in, v_out, status=False, end_calls=False):
    """One NCCC_NONNULL_REQUIRE per value the LoweredFunction lf refuses
    when NULL (lf.nonnull_values; closure slots have their own check,
    NCCC_CB_REQUIRE, as does a function_pointer target): the _STATUS
    form when out[0] is a status, the _END form when the wrapper itself
    releases CALL-scoped closures (a refused call releases them too)."""
    f = lf.function
    macro, end = "NCCC_NONNULL_REQUIRE", ""
    if status:
        macro += "_STATUS"
    elif end_calls and lf.closures:
        macro += "_END"
        end = ", " + ", ".join(
            "NCCC_CB_END_CALL(nccc_slot_to_ptr(%s[%s]))"
            % (v_in, slot_index(c.slot.index)) for c in lf.closures)
        if len(lf.closures) > 1:
            end = ", (%s)" % end[2:]
    return ["%s(%s[%s], %s, %s, %s, %s%s);" % (
        macro, v_in, slot_index(s.index), c_string(f.name),
        c_string(s.name or "argument %d" % (s.param.index + 1)), v_out,
        slot_index(f.n_out), end) for s in lf.nonnull_values]


def slot_index(idx):
    """A C expression for a model.SlotIndex."""
    parts = ["NCCC_SLOTS(sizeof(%s))" % t.unqualified().spell()
             for t in idx.records]
    if idx.fixed or not parts:
        parts.insert(0, str(idx.fixed))
    return " + ".join(parts)


def to_c(t, slot, cast=False):
    """C expression converting the slot expression to a value of type t.
    cast: convert to exactly t (arguments matched by no prototype)."""
    r = t.resolved()
    name = t.unqualified().spell()
    k = r.kind
    if k == "bool":
        e, exact = "nccc_slot_to_bool(%s)" % slot, "bool"
    elif isinstance(r, Scalar) and r.name in _EXACT:
        e = "nccc_slot_to_%s(%s)" % (_EXACT[r.name], slot)
        exact = None
    elif k in ("sint", "char"):
        return "(%s)nccc_slot_to_i64(%s)" % (name, slot)
    elif k == "uint":
        return "(%s)%s" % (name, slot)
    elif k == "float":
        e, exact = "nccc_slot_to_float(%s)" % slot, "float"
    elif k == "double":
        e, exact = "nccc_slot_to_double(%s)" % slot, "double"
    elif k == "enum":
        return "(%s)nccc_slot_to_i32(%s)" % (name, slot)
    elif k == "pointer":
        return "(%s)nccc_slot_to_ptr(%s)" % (name, slot)
    elif k == "funcptr":
        return "(%s)(uintptr_t)%s" % (name, slot)
    else:
        raise AssertionError("to_c of %s" % name)
    if cast and name != exact:
        return "(%s)%s" % (name, e)
    return e


def from_c(t, value):
    """C expression converting a value of type t to a slot."""
    r = t.resolved()
    k = r.kind
    if k == "bool":
        return "nccc_slot_from_bool(%s)" % value
    if isinstance(r, Scalar) and r.name in _EXACT:
        return "nccc_slot_from_%s(%s)" % (_EXACT[r.name], value)
    if k in ("sint", "char"):
        return "nccc_slot_from_i64((int64_t)%s)" % value
    if k == "enum":
        # An enum is an int32 slot (code i) whatever integer type the
        # compiler picked for it: unsigned int for one without negative
        # enumerators under GCC, whose values above INT32_MAX must still
        # come out sign-extended.
        return "nccc_slot_from_i32((int32_t)%s)" % value
    if k == "uint":
        return "nccc_slot_from_u64((uint64_t)%s)" % value
    if k == "float":
        return "nccc_slot_from_float(%s)" % value
    if k == "double":
        return "nccc_slot_from_double(%s)" % value
    if k == "pointer":
        if "volatile" in r.target.resolved().quals:
            return "(uint64_t)(uintptr_t)%s" % value
        return "nccc_slot_from_ptr(%s)" % value
    if k == "funcptr":
        return "(uint64_t)(uintptr_t)%s" % value
    raise AssertionError("from_c of %s" % t.spell())


def _volatile(t):
    """Whether t, or the element type of the array t, is volatile: a
    pointer to it needs an explicit cast to become const void *."""
    r = t.resolved()
    while isinstance(r, Array):
        if "volatile" in r.quals:
            return True
        r = r.elem.resolved()
    return "volatile" in r.quals


class _Emitter:
    def __init__(self, module, idl_name):
        self.m = module
        self.low = lower(module)
        self.idl = idl_name
        self.p = "nccc_%s_" % module.name
        self.plan_records()
        self.plan_callbacks()

    def plan_records(self):
        """The names of the record helpers: a put_T per record of
        records_put, a copy_T per record of records_copy (the lowering's
        order). Helper names avoid every wrapper name."""
        taken = set()
        for f in self.m.functions:
            taken.add(f.name)
            taken.add(f.name + "_fn")
        order, tops = self.low.records_copy, self.low.records_put

        def name(base):
            while base in taken:
                base += "_"
            taken.add(base)
            return self.p + base

        self.copy_order, self.put_order = order, tops
        self.copy_names = {d: name("copy_" + d.name) for d in order}
        self.put_names = {d: name("put_" + d.name) for d in tops}
        self.taken = taken

    def plan_callbacks(self):
        """Names of the static bodies of trace/fault wrappers and of the
        callback helpers, none of them a wrapper's or a record helper's:
        body_names[f]; cb_names[cb] = {"back": [name per member],
        "thunk", "body", "fns", "pool", "ptr", "accessor"} (a base name
        gets a trailing _ until every derived name is free)."""
        taken = self.taken
        for f in self.m.functions:
            taken.add(f.name + "_body")
        self.body_names = {}
        for f in self.m.functions:
            if f.shims and f.packed is None:
                base = f.name + "_body"
                while base in (g.name for g in self.m.functions):
                    base += "_"
                taken.add(base)
                self.body_names[f] = self.p + base
        self.cb_names = {}
        self.callbacks = self.low.used_callbacks
        for cb in self.callbacks:
            base = cb.name
            while True:
                names = self._cb_derived(cb, base)
                if not any(n in taken for n in names.values()
                           if isinstance(n, str)) and \
                        not any(n in taken for n in names["back"]):
                    break
                base += "_"
            for n in names.values():
                if isinstance(n, str):
                    taken.add(n)
            taken.update(names["back"])
            self.cb_names[cb] = {k: (self.p + v if isinstance(v, str)
                                     else [self.p + b for b in v])
                                 for k, v in names.items()}

    @staticmethod
    def _cb_derived(cb, base):
        members = sorted(cb.members) if cb.context is not None else []
        return {
            "back": [base + ("_back" if k == 0 else "_back%d" % k)
                     for k in members],
            "thunk": base + "_thunk_", "body": base + "_thunk_body",
            "fns": base + "_thunk_fns", "pool": base + "_pool",
            "slots": base + "_pool_slots", "ptr": base + "_t",
            "accessor": base + "_thunk_pool",
        }

    def run(self):
        base = self.m.name + "_nccc"
        return {base + ".h": self.header(), base + ".c": self.source()}

    def banner(self, what):
        return ("/* %s: %s of nccc module %s. Generated by nccc-stubgen %s "
                "from %s; do not edit. */" % (what[0], what[1], self.m.name,
                                              __version__, self.idl))

    # ---- M_nccc.h
    def header(self):
        m, p = self.m, self.p
        src = Source()
        guard = "NCCC_%s_NCCC_H" % m.name.upper()
        src.line(self.banner((m.name + "_nccc.h", "wrappers and module")))
        src.line("#ifndef " + guard)
        src.line("#define " + guard)
        src.blank()
        src.line("#include <stdint.h>")
        src.blank()
        src.line("#include <nccc/module.h>")
        src.blank()
        src.lines("""
            #ifdef __cplusplus
            extern "C" {
            #endif
            """)
        src.blank()
        src.line("/* Functions, layouts and constants of module %s. */"
                 % m.name)
        src.line("extern const nccc_module %smodule;" % p)
        src.blank()
        src.line("/* Adds the module to the runtime: nccc_module_add. */")
        src.line("nccc_status %sregister(void);" % p)
        if m.functions:
            src.blank()
            src.line("/* The wrappers: void f(const uint64_t *in, uint64_t "
                     "*out). */")
        for f in m.functions:
            src.line("void %s%s(const uint64_t *in, uint64_t *out);"
                     % (p, f.name))
        pools = [cb for cb in self.callbacks if cb.thunks is not None]
        if pools:
            src.blank()
            src.line("/* The thunk pools of callbacks without a context "
                     "(nccc/closure.h). */")
            src.line("struct nccc_thunk_pool;")
        for cb in pools:
            src.line("const struct nccc_thunk_pool *%s(void);"
                     % self.cb_names[cb]["accessor"])
        src.blank()
        src.lines("""
            #ifdef __cplusplus
            }
            #endif
            """)
        src.blank()
        src.line("#endif")
        return str(src)

    # ---- M_nccc.c
    def source(self):
        sec = Sections(["prelude", "decls", "checks", "records",
                        "callbacks", "wrappers", "registry", "layouts",
                        "constants", "module"])
        self.prelude(sec["prelude"])
        if self.m.has_includes:
            self.header_checks(sec["decls"])
        else:
            self.declarations(sec["decls"])
        self.checks(sec["checks"])
        self.record_helpers(sec["records"])
        self.callback_helpers(sec["callbacks"])
        self.wrappers(sec["wrappers"])
        self.registry(sec["registry"])
        self.layouts(sec["layouts"])
        self.constants(sec["constants"])
        self.module(sec["module"])
        return sec.join()

    def prelude(self, src):
        m = self.m
        src.line(self.banner((m.name + "_nccc.c", "wrappers and tables")))
        if m.defines:
            src.blank()
            for d in m.defines:
                src.line(d.text)
        if m.includes:
            src.blank()
            for inc in m.includes:
                src.line(inc.text)
        src.blank()
        present = set(inc.text for inc in m.includes)
        wanted = ["<stddef.h>", "<stdint.h>"]
        if m.uses_ssize_t:
            wanted.append("<sys/types.h>")
        for header in wanted:
            if "#include " + header not in present:
                src.line("#include " + header)
        src.blank()
        src.line('#include "%s_nccc.h"' % m.name)
        if m.uses_tvm:
            src.line("#include <nccc/packed.h>")
        if m.uses_errno:
            src.line("#include <nccc/shim_errno.h>")
        if any(f.function_pointer for f in m.functions):
            src.line("#include <nccc/shim_function_pointer.h>")
        if self.callbacks:
            src.line("#include <nccc/shim_callback.h>")
        if m.uses_sites:
            src.line("#include <nccc/shim_site.h>")
        if self.low.uses_nonnull:
            src.line("#include <nccc/shim_nonnull.h>")
        if m.qualified_returns:
            src.blank()
            src.line("/* The IDL has qualified return types, as C allows; "
                     "they mean nothing. */")
            src.line("#if defined(__GNUC__)")
            src.line('#pragma GCC diagnostic ignored "-Wignored-qualifiers"')
            src.line("#endif")

    # -- declarations when the IDL is the only description
    def declarations(self, src):
        m = self.m
        src.line("/* ---- declarations (the IDL has no #include) */")
        tags = [it for it in m.items if isinstance(it, RecordDecl)
                and it.tag is not None]
        if tags:
            src.blank()
            for r in tags:
                src.line("%s;" % r.c_name)
        for it in m.items:
            if isinstance(it, RecordDecl):
                if it.tag is not None and it.fields is not None:
                    src.blank()
                    self.record_body(src, it.c_name + " {", "};", it)
            elif isinstance(it, EnumDecl):
                if not it.defined_in_typedef or it.tag is not None:
                    src.blank()
                    head = "enum %s {" % it.tag if it.tag else "enum {"
                    self.enum_body(src, head, "};", it)
            elif isinstance(it, TypedefDecl):
                d = it.defines
                if it.callback is not None:
                    continue    # spelled out wherever it is used
                if d is not None and d.tag is None and \
                        d.typedef_name == it.name:
                    src.blank()
                    if isinstance(d, RecordDecl):
                        self.record_body(src, "typedef %s {" % d.kind,
                                         "} %s;" % it.name, d)
                    else:
                        self.enum_body(src, "typedef enum {",
                                       "} %s;" % it.name, d)
                else:
                    src.line("typedef %s;" % it.type.spell(it.name))
            elif isinstance(it, OpaqueDecl):
                src.line("typedef struct %sopaque_%s %s;"
                         % (self.p, it.name, it.name))
            elif isinstance(it, ConstantDecl):
                src.line("#define %s ((%s)(%s))" % (
                    it.name, it.type.unqualified().spell(), it.value))
            elif isinstance(it, Prototype):
                src.line("extern %s;" % it.type.spell(it.name))
            elif isinstance(it, Function):
                if not it.function_pointer and it.variadic_of is None \
                        and it.packed is None:
                    src.line("extern %s;" % it.c_type.spell(it.c_name))

    def record_body(self, src, head, tail, decl):
        with src.block(head, tail):
            for fld in decl.fields:
                src.line("%s;" % fld.type.spell(fld.name))

    def enum_body(self, src, head, tail, decl):
        with src.block(head, tail):
            n = len(decl.enumerators)
            for i, e in enumerate(decl.enumerators):
                comma = "," if i + 1 < n else ""
                if e.value is None:
                    src.line(e.name + comma)
                else:
                    src.line("%s = %s%s" % (e.name, e.value, comma))

    # -- the IDL against the headers
    def header_checks(self, src):
        m, p = self.m, self.p
        src.line("/* ---- the IDL checked against the headers: a prototype "
                 "or typedef")
        src.line("** that does not match them is a compile error "
                 "(conflicting types). */")
        for it in m.items:
            if isinstance(it, TypedefDecl):
                d = it.defines
                if d is not None and d.tag is None and \
                        d.typedef_name == it.name:
                    continue
                if it.callback is not None:
                    continue    # a name of the IDL only
                var = "%stypedef_%s" % (p, it.name)
                src.line("extern %s *%s;" % (it.name, var))
                src.line("extern %s;" % Pointer(it.type).spell(var))
            elif isinstance(it, Prototype):
                src.line("%s;" % it.type.spell("(%s)" % it.name))
            elif isinstance(it, Function):
                if it.function_pointer or it.macro or it.variadic_of or \
                        it.packed is not None:
                    continue
                src.line("%s;" % it.c_type.spell("(%s)" % it.c_name))

    def checks(self, src):
        """Compile-time checks as array sizes: a false one is an array of
        negative size, which every C compiler rejects."""
        m = self.m
        conds = []
        for name in sorted(m.used_scalars):
            if name == "ptrdiff_t":
                conds.append(("sizeof(ptrdiff_t) == sizeof(intptr_t)",
                              "ptrdiff_t travels as intptr_t"))
            else:
                conds.append(("sizeof(%s) == %d" % (name, ASSUMED_SIZES[name]),
                              "the slot code of %s" % name))
        if m.has_includes:
            for it in m.items:
                if isinstance(it, RecordDecl) and it.fields is not None:
                    for fld in it.fields:
                        conds.append((
                            "sizeof(((%s *)0)->%s) == sizeof(%s)"
                            % (it.c_name, fld.name,
                               fld.type.unqualified().spell()),
                            "%s.%s" % (it.name, fld.name)))
                elif isinstance(it, EnumDecl):
                    for e in it.enumerators:
                        if e.value is not None:
                            cond = "(%s) == (%s)" % (e.name, e.value)
                        elif e.previous is None:
                            cond = "(%s) == 0" % e.name
                        else:
                            cond = "(%s) == (%s) + 1" % (e.name,
                                                        e.previous.name)
                        conds.append((cond, "enumerator %s" % e.name))
                elif isinstance(it, ConstantDecl) and it.value is not None:
                    t = it.type.unqualified().spell()
                    conds.append(("(%s)(%s) == (%s)(%s)"
                                  % (t, it.name, t, it.value),
                                  "constant %s" % it.name))
        packed = m.packed_functions
        if packed:
            most = max(len(f.packed.codes) for f in packed)
            conds.append(("%d <= NCCC_PACKED_MAX_ARGS" % most,
                          "the most arguments of a packed function"))
        if not conds:
            return
        src.line("/* ---- compile-time checks: a false one is an array of "
                 "negative size */")
        with src.block("struct %schecks {" % self.p, "};"):
            for i, (cond, why) in enumerate(conds):
                src.line("char c%d[(%s) ? 1 : -1]; /* %s */" % (i, cond, why))

    # -- records into out[]
    def record_helpers(self, src):
        if not self.put_order:
            return
        src.line("/* ---- records into out[]: zeroed slots, then every field "
                 "at its offset, so")
        src.line("** padding bytes are 0; a union: the bytes of its largest "
                 "member (docs/ABI.md) */")
        for d in self.copy_order:
            src.blank()
            self.copy_helper(src, d)
        for d in self.put_order:
            src.blank()
            self.put_helper(src, d)

    def copy_helper(self, src, d):
        """copy_T(b, v): the fields of *v into b[0 .. sizeof *v), which
        are 0; the padding is not written."""
        b, v, c = self.local("b"), self.local("v"), d.c_name
        head = "static void %s(unsigned char *%s, const %s *%s) {" % (
            self.copy_names[d], b, c, v)
        with src.block(head, "}"):
            if d.kind == "union":
                # the active member is unknown: the largest one's bytes
                n = self.local("n")
                src.line("size_t %s = sizeof %s->%s;"
                         % (n, v, d.fields[0].name))
                for fld in d.fields[1:]:
                    src.line("if (%s < sizeof %s->%s) %s = sizeof %s->%s;"
                             % (n, v, fld.name, n, v, fld.name))
                src.line("memcpy(%s, %s, %s);" % (b, v, n))
                return
            for fld in d.fields:
                at = "%s + offsetof(%s, %s)" % (b, c, fld.name)
                member = "%s->%s" % (v, fld.name)
                held = held_record(fld)
                vol = _volatile(fld.type)
                if held is None:
                    ptr = ("(const void *)&%s" if vol else "&%s") % member
                    src.line("memcpy(%s, %s, sizeof %s);" % (at, ptr, member))
                elif isinstance(fld.type.resolved(), Array):
                    i, e = self.local("i"), "sizeof(%s)" % held.c_name
                    with src.block("for (size_t %s = 0; %s < sizeof %s / %s; "
                                   "%s++) {" % (i, i, member, e, i), "}"):
                        src.line("%s(%s + %s * %s," % (self.copy_names[held],
                                                      at, i, e))
                        src.line("    (const %s *)((const unsigned char *)&%s "
                                 "+ %s * %s));" % (held.c_name, member, i, e))
                else:
                    ptr = ("(const %s *)&%%s" % held.c_name if vol
                           else "&%s") % member
                    src.line("%s(%s, %s);" % (self.copy_names[held], at, ptr))

    def put_helper(self, src, d):
        """put_T(slots, v): *v into its NCCC_SLOTS(sizeof) slots."""
        s, v = self.local("slots"), self.local("v")
        head = "static void %s(uint64_t *%s, const %s *%s) {" % (
            self.put_names[d], s, d.c_name, v)
        with src.block(head, "}"):
            src.line("memset(%s, 0, NCCC_SLOTS(sizeof *%s) * sizeof *%s);"
                     % (s, v, s))
            src.line("%s((unsigned char *)%s, %s);"
                     % (self.copy_names[d], s, v))

    # -- callbacks: backward wrappers and thunk pools
    def callback_helpers(self, src):
        if not self.callbacks:
            return
        src.line("/* ---- callbacks: C calls the host through the closure "
                 "of its context; in[0] =")
        src.line("** env, in[1..] = the arguments, out[] = return value, "
                 "[out]/[inout] values,")
        src.line("** errno (docs/CALLBACKS.md) */")
        for cb in self.callbacks:
            if cb.context is not None:
                for k, name in zip(sorted(cb.members),
                                   self.cb_names[cb]["back"]):
                    src.blank()
                    self.backward_wrapper(src, cb, k, name)
            else:
                src.blank()
                self.thunk_pool(src, cb)

    @staticmethod
    def _cb_param_names(cb, avoid=()):
        """C names for the callback's parameters in its backward wrapper:
        the IDL's, or aN when unnamed or taken by a local."""
        locals_ = {"f", "in", "out"} | set(avoid)
        names = []
        for i, p in enumerate(cb.params):
            n = p.name
            if n is None or n in locals_ or n in names:
                n = "a%d" % i
                while n in locals_ or n in names or \
                        n in (q.name for q in cb.params):
                    n += "_"
            names.append(n)
        return names

    def _cb_comment(self, cb, what):
        ins = " ".join(sl.name or "?" for sl in cb.in_slots) or "-"
        outs = " ".join(sl.name or "?" for sl in cb.out_slots) or "-"
        return "/* %s%s: in %s; out %s */" % (cb.name, what, ins, outs)

    def _cb_body(self, src, cb, names, begin, run):
        """The body shared by backward wrappers and thunk bodies. begin:
        the nccc_cb_begin call; run: the nccc_cb_run call, used instead
        when the return value is the only result (nothing to store only
        when the call was made)."""
        n_in = 1 + len(cb.in_slots)
        n_out = max(1, len(cb.out_slots))

        def pack():
            for sl in cb.in_slots:
                n = names[sl.param.index]
                if sl.role == "inout":
                    src.line("in[%d] = %s != NULL ? %s : 0;" % (
                        sl.index.fixed, n, from_c(sl.type, "*" + n)))
                else:
                    src.line("in[%d] = %s;" % (sl.index.fixed,
                                              from_c(sl.type, n)))

        if all(sl.role == "return" for sl in cb.out_slots):
            src.line("uint64_t in[%d], out[%d] = {0};" % (n_in, n_out))
            pack()
            src.line("%s;" % run)
            if not isinstance(cb.ret.resolved(), Void):
                src.line("return %s;" % to_c(cb.ret, "out[0]"))
            return
        src.line("nccc_cb_frame f;")
        src.line("uint64_t in[%d], out[%d] = {0};" % (n_in, n_out))
        with src.block("if (%s) {" % begin, "}"):
            pack()
            src.line("nccc_cb_call(&f, in, out);")
            for sl in cb.out_slots:
                if sl.role == "errno":
                    src.line("NCCC_CB_SET_ERRNO(out[%d]);" % sl.index.fixed)
                elif sl.role in ("out", "inout"):
                    n = names[sl.param.index]
                    src.line("if (%s != NULL) *%s = %s;" % (
                        n, n, to_c(sl.type, "out[%d]" % sl.index.fixed)))
        if not isinstance(cb.ret.resolved(), Void):
            src.line("return %s;" % to_c(cb.ret, "out[0]"))

    def backward_wrapper(self, src, cb, member, name):
        names = self._cb_param_names(cb)
        ft = FuncType(cb.ret, [(n, p.type) for n, p in zip(names,
                                                            cb.params)],
                      False)
        what = " (member %d of its context)" % member if member else ""
        src.line(self._cb_comment(cb, what))
        ctx = names[cb.context.index]
        if cb.context_from is not None:
            ctx = "(void *)%s(%s)" % (cb.context_from, ctx)
        elif cb.context.type.unqualified().spell() != "void *":
            ctx = "(void *)" + ctx
        with src.block("static %s {" % ft.spell(name), "}"):
            self._cb_body(src, cb, names, "nccc_cb_begin(&f, %s, %d)"
                          % (ctx, member), "nccc_cb_run(%s, %d, in, out)"
                          % (ctx, member))

    def thunk_pool(self, src, cb):
        n = self.cb_names[cb]
        idx = "i"
        while idx in (q.name for q in cb.params):
            idx += "_"
        names = self._cb_param_names(cb, avoid=(idx,))
        params = [(nm, p.type) for nm, p in zip(names, cb.params)]
        ft = FuncType(cb.ret, params, False)
        body_ft = FuncType(cb.ret, [(idx, SCALARS["unsigned int"])] + params,
                           False)
        ret = "" if isinstance(cb.ret.resolved(), Void) else "return "
        src.line(self._cb_comment(cb, " [thunks=%d]" % cb.thunks))
        src.line("typedef %s;" % FuncType(cb.ret, [(None, p.type) for p in
                                                   cb.params], False)
                 .spell("(*%s)" % n["ptr"]))
        src.line("static %s;" % body_ft.spell(n["body"]))
        for i in range(cb.thunks):
            call = "%s(%s)" % (n["body"], ", ".join([str(i)] + names))
            src.line("static %s { %s%s; }" % (ft.spell("%s%d" % (n["thunk"],
                                                                 i)),
                                               ret, call))
        with src.block("static const nccc_thunk_fn %s[%d] = {"
                       % (n["fns"], cb.thunks), "};"):
            for i in range(cb.thunks):
                src.line("(nccc_thunk_fn)%s%d," % (n["thunk"], i))
        src.line("NCCC_THUNK_POOL(%s, %s, %d, %s);" % (
            n["pool"], c_string(cb.name), cb.thunks, n["fns"]))
        with src.block("static %s {" % body_ft.spell(n["body"]), "}"):
            self._cb_body(src, cb, names, "nccc_cb_begin_thunk(&f, &%s, %s)"
                          % (n["pool"], idx), "nccc_cb_run_thunk(&%s, %s, "
                          "in, out)" % (n["pool"], idx))
        with src.block("const struct nccc_thunk_pool *%s(void) {"
                       % n["accessor"], "}"):
            src.line("return &%s;" % n["pool"])

    # -- wrappers
    def wrappers(self, src):
        if not self.m.functions:
            return
        src.line("/* ---- wrappers: in[] = arguments, out[] = return value, "
                 "[out]/[inout]")
        src.line("** values, errno (docs/IDL.md, \"Slot layout\") */")
        for lf in self.low.functions:
            src.blank()
            self.wrapper(src, lf)

    def local(self, name):
        """A local name of the wrappers that no IDL identifier shadows."""
        while name in self.m.identifiers:
            name += "_"
        return name

    def packed_wrapper(self, src, lf):
        f = lf.function
        v_in, v_out = self.local("in"), self.local("out")
        ins = " ".join(s.name or "?" for s in f.in_slots) or "-"
        outs = " ".join(s.name or "?" for s in f.out_slots)
        src.line("/* %s: packed, %s; in %s; out %s */"
                 % (f.name, f.packed.where.replace("_", " "), ins, outs))
        head = "void %s%s(const uint64_t *%s, uint64_t *%s) {" % (
            self.p, f.name, v_in, v_out)
        where = "NCCC_PACKED_" + f.packed.where.upper()
        sig = signature_literal(f.packed.codes,
                                [f.packed.ret] if f.packed.ret else [])
        with src.block(head, "}"):
            for line in nonnull_checks(lf, v_in, v_out, status=True):
                src.line(line)
            src.line("nccc_packed_forward(%s, %s, %s, %s, %s);"
                     % (c_string(f.packed.name), where, sig, v_in, v_out))

    def wrapper(self, src, lf):
        f = lf.function
        if f.packed is not None:
            return self.packed_wrapper(src, lf)
        p = self.p
        v_in, v_out = self.local("in"), self.local("out")
        if not f.shims:
            self.wrapper_body(src, lf, "void %s%s" % (p, f.name), True)
            return
        # the call-site shims: a static body, then the public wrapper
        body = self.body_names[f]
        self.wrapper_body(src, lf, "static void " + body, False)
        flags = ["NCCC_SITE_" + k.upper() for k in ("trace", "fault")
                 if getattr(f, k)]
        if f.errno:
            flags.append("NCCC_SITE_ERRNO")
        head = "void %s%s(const uint64_t *%s, uint64_t *%s) {" % (
            p, f.name, v_in, v_out)
        with src.block(head, "}"):
            src.line("NCCC_SITE_WRAP(&%smodule, %d, %s, %s, %s, %s, %s);" % (
                p, f.index, " | ".join(flags), body, v_in, v_out,
                slot_index(f.n_out)))
            for c in lf.closures:
                src.line("NCCC_CB_END_CALL(nccc_slot_to_ptr(%s[%s]));"
                         % (v_in, slot_index(c.slot.index)))

    def _slot_label(self, sl):
        if sl.role == "closure" and sl.param.carries:
            return "%s(%s)" % (sl.name or "?", ",".join(
                c.name or "?" for c in sl.callbacks))
        return sl.name or "?"

    def wrapper_body(self, src, lf, head_start, end_calls):
        """The wrapper without call-site shims, as head_start(in, out);
        end_calls: it releases CALL-scoped closures itself."""
        f = lf.function
        p = self.p
        v_in, v_out, v_r = self.local("in"), self.local("out"), \
            self.local("r")
        ins = " ".join(self._slot_label(s) for s in f.in_slots) or "-"
        outs = " ".join(s.name or "?" for s in f.out_slots) or "-"
        shims = "; shims %s" % " ".join(f.shims) if f.shims else ""
        src.line("/* %s: in %s; out %s%s */" % (f.name, ins, outs, shims))
        callee = f.c_name
        if f.function_pointer:
            fn_t = "%s%s_fn" % (p, f.name)
            src.line("typedef %s;" % f.c_type.spell("(*%s)" % fn_t))
            callee = "NCCC_FP_TARGET(%s, %s[0])" % (fn_t, v_in)
        decls, pre, args = [], [], []
        n_out = slot_index(f.n_out)
        # closure contexts: refused before C sees them when stale
        ctx_var = {}
        for c in lf.closures:
            sl = c.slot
            var = self.local("c%d" % sl.param.index)
            ctx_var[sl.param] = var
            decls.append("void *%s = nccc_slot_to_ptr(%s[%s]);"
                         % (var, v_in, slot_index(sl.index)))
            nullable = c.nullable
            if c.pool is None:
                pre.append("NCCC_CB_REQUIRE%s(%s, %s, %s);" % (
                    "_OR_NULL" if nullable else "", var, v_out, n_out))
            else:
                names = self.cb_names[c.pool]
                fvar = self.local("t%d" % sl.param.index)
                decls.append("%s %s%s;" % (names["ptr"], fvar,
                                           " = NULL" if nullable else ""))
                bind = "NCCC_CB_THUNK(&%s, %s, 0, %s, %s, %s, %s);" % (
                    names["pool"], var, names["ptr"], fvar, v_out, n_out)
                pre.append(("if (%s != NULL) " % var if nullable else "")
                           + bind)
        # arguments of a variadic call need their exact types
        cast = f.variadic_of is not None
        for prm in f.params:
            if prm.callback is not None:
                cb = prm.callback
                if cb.context is None:
                    args.append(self.local("t%d" % prm.index))
                    continue
                names = self.cb_names[cb]
                back = names["back"][sorted(cb.members).index(prm.member)]
                if lf.closure(prm.context).nullable:
                    back = "NCCC_CB_FN(%s, %s)" % (ctx_var[prm.context], back)
                args.append(back)
                continue
            if prm.carries:
                var = ctx_var[prm]
                if prm.type.unqualified().spell() != "void *":
                    var = "(%s)%s" % (prm.type.unqualified().spell(), var)
                args.append(var)
                continue
            if prm.destroys is not None:
                d = "NCCC_CB_DESTROY"
                if lf.closure(prm.destroys).nullable:
                    d = "NCCC_CB_FN(%s, %s)" % (ctx_var[prm.destroys], d)
                args.append(d)
                continue
            if prm.direction == "in":
                s = prm.in_slot
                if s.record is not None:
                    var = self.local("a%d" % prm.index)
                    decls.append("%s;" % prm.type.unqualified().spell(var))
                    pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                               % (var, _ptr(v_in, s.index), var))
                    args.append(var)
                else:
                    args.append(to_c(prm.type, "%s[%s]" % (
                        v_in, slot_index(s.index)), cast))
                continue
            var = self.local("o%d" % prm.index)
            local_t = prm.pointee.unqualified()
            if prm.direction == "inout" and prm.in_slot.record is None:
                slot = "%s[%s]" % (v_in, slot_index(prm.in_slot.index))
                decls.append("%s = %s;" % (local_t.spell(var),
                                           to_c(local_t, slot)))
            else:
                decls.append("%s;" % local_t.spell(var))
                if prm.direction == "out":
                    # a target may leave an [out] unwritten (strtol with a
                    # bad base): its slot must still be defined
                    pre.append("memset(&%s, 0, sizeof %s);" % (var, var))
                if prm.direction == "inout":
                    pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                               % (var, _ptr(v_in, prm.in_slot.index), var))
            args.append("&" + var)
        call = "%s(%s)" % (callee, ", ".join(args))
        returns = not isinstance(f.ret.resolved(), Void)
        head = "%s(const uint64_t *%s, uint64_t *%s) {" % (
            head_start, v_in, v_out)
        with src.block(head, "}"):
            if not f.in_slots:
                src.line("(void)%s;" % v_in)
            if not f.out_slots and not lf.closures:
                src.line("(void)%s;" % v_out)
            if f.function_pointer:
                src.line("NCCC_FP_REQUIRE(%s[0], %s, %s);"
                         % (v_in, v_out, n_out))
            # [nonnull]: refused before anything else (one compare each)
            for line in nonnull_checks(lf, v_in, v_out,
                                       end_calls=end_calls):
                src.line(line)
            simple = not decls and not f.errno and len(f.out_slots) <= 1 \
                and (not returns or f.out_slots[0].record is None)
            if simple:
                if returns:
                    src.line("%s[0] = %s;" % (v_out, from_c(f.ret, call)))
                else:
                    src.line("%s;" % call)
                return
            if returns:
                src.line("%s;" % f.ret.unqualified().spell(v_r))
            for d in decls:
                src.line(d)
            for s in pre:
                src.line(s)
            if f.errno:
                src.line("NCCC_ERRNO_CLEAR();")
            src.line(("%s = %s;" % (v_r, call)) if returns else "%s;" % call)
            for s in f.out_slots:
                if s.role == "errno":
                    src.line("%s[%s] = NCCC_ERRNO_SLOT();"
                             % (v_out, slot_index(s.index)))
            for s in f.out_slots:
                if s.role == "errno":
                    continue
                var = v_r if s.role == "return" else \
                    self.local("o%d" % s.param.index)
                if s.record is not None:
                    src.line("%s(%s, &%s);" % (
                        self.put_names[s.record.resolved().decl],
                        _ptr(v_out, s.index), var))
                else:
                    src.line("%s[%s] = %s;" % (v_out, slot_index(s.index),
                                               from_c(s.type, var)))
            if end_calls:
                for c in lf.closures:
                    src.line("NCCC_CB_END_CALL(%s);" % ctx_var[c.slot.param])

    # -- tables
    def registry(self, src):
        m, p = self.m, self.p
        fns = m.functions
        src.line("/* ---- the const registry */")
        if fns:
            src.line("NCCC_NAMES_BLOB(%snames, %d," % (p, len(fns)))
            src.indent()
            for i, f in enumerate(fns):
                end = ");" if i + 1 == len(fns) else ""
                src.line(c_string(f.name + "\0") + end)
            src.dedent()
        else:
            src.line('NCCC_NAMES_BLOB(%snames, 0, "");' % p)
            src.line("/* never read (no functions); the registry's info is "
                     "never NULL */")
            src.line('static const nccc_fn_info %sinfo[1] = {{":", 0, 0, 0}};'
                     % p)
        if fns:
            src.blank()
            with src.block("static const nccc_fn %sfuncs[] = {" % p, "};"):
                for f in fns:
                    src.line("%s%s," % (p, f.name))
            src.blank()
            src.line("/* signature, in slots, out slots, offset of the name "
                     "in the names blob */")
            with src.block("static const nccc_fn_info %sinfo[] = {" % p,
                           "};"):
                offset = 2   # the blob's uint16_t count comes first
                for f in fns:
                    src.line("{%s, %s, %s, %d}, /* %s */" % (
                        signature_literal(f.sig_in, f.sig_out),
                        slot_index(f.n_in), slot_index(f.n_out), offset,
                        f.name))
                    offset += len(f.name.encode("utf-8")) + 1
            order = sorted(range(len(fns)),
                           key=lambda i: fns[i].name.encode("utf-8"))
            src.blank()
            src.line("/* Indices in strcmp order of the names (binary "
                     "search). */")
            src.line("static const uint16_t %ssorted[] = {%s};"
                     % (p, ", ".join(str(i) for i in order)))
        src.blank()
        with src.block("static const nccc_registry %sregistry = {" % p,
                       "};"):
            if fns:
                src.line("(const char *)&%snames, %sfuncs, %sinfo, %ssorted"
                         % (p, p, p, p))
            else:
                src.line("(const char *)&%snames, NULL, %sinfo, NULL" % (p, p))

    def layouts(self, src):
        m, p = self.m, self.p
        if not m.layouts:
            return
        src.line("/* ---- the layout table: numbers from sizeof and offsetof "
                 "*/")
        for i, e in enumerate(m.layouts):
            if not e.fields:
                continue
            c = e.decl.c_name
            src.blank()
            src.line("struct %salign%d { char c; %s; }; /* alignment probe */"
                     % (p, i, e.type.spell("v")))
            with src.block("static const nccc_field %sfields%d[] = {"
                           % (p, i), "};"):
                for fld in e.fields:
                    member = "((%s *)0)->%s" % (c, fld.name)
                    if fld.count_type is not None:
                        count = "sizeof(%s) / sizeof(%s)" % (
                            member, fld.count_type.unqualified().spell())
                    else:
                        count = "1"
                    code = fld.code
                    code = code if code.startswith("NCCC_SIG_") \
                        else c_string(code)
                    src.line("{%s, %s, offsetof(%s, %s), sizeof(%s), %s},"
                             % (c_string(fld.name), code, c, fld.name, member,
                                count))
        src.blank()
        with src.block("static const nccc_type_layout %stypes[] = {" % p,
                       "};"):
            for i, e in enumerate(m.layouts):
                if e.fields:
                    src.line("{%s, sizeof(%s), offsetof(struct %salign%d, v), "
                             "%s, %d, %sfields%d}," % (
                                 c_string(e.name), e.decl.c_name, p, i,
                                 "NCCC_TYPE_" + e.kind.upper(),
                                 len(e.fields), p, i))
                else:
                    src.line("{%s, 0, 0, NCCC_TYPE_OPAQUE, 0, NULL},"
                             % c_string(e.name))

    def constants(self, src):
        m, p = self.m, self.p
        if not m.constants:
            return
        src.line("/* ---- the constants table: values from the C "
                 "expressions */")
        with src.block("static const nccc_constant %sconstants[] = {" % p,
                       "};"):
            for c in m.constants:
                code = c.code if c.code.startswith("NCCC_SIG_") \
                    else c_string(c.code)
                src.line("{%s, %s, %s}," % (c_string(c.name), code,
                                           _const_value(c)))

    def module(self, src):
        m, p = self.m, self.p
        src.line("/* ---- the module */")
        with src.block("const nccc_module %smodule = {" % p, "};"):
            src.line("%s, &%sregistry," % (c_string(m.name), p))
            if m.layouts:
                src.line("%stypes, %d," % (p, len(m.layouts)))
            else:
                src.line("NULL, 0,")
            if m.constants:
                src.line("%d, %sconstants" % (len(m.constants), p))
            else:
                src.line("0, NULL")
        src.blank()
        with src.block("nccc_status %sregister(void) {" % p, "}"):
            src.line("return nccc_module_add(&%smodule, NULL);" % p)


def _ptr(base, idx):
    e = slot_index(idx)
    return base if e == "0" else "%s + %s" % (base, e)


def _const_value(c):
    if c.type is None:   # an enumerator: an int constant
        return "(uint64_t)(int64_t)(%s)" % c.name
    t = c.type.unqualified().spell()
    k = c.type.kind
    if k == "bool":
        return "(uint64_t)(bool)(%s)" % c.name
    if k == "uint":
        return "(uint64_t)(%s)(%s)" % (t, c.name)
    return "(uint64_t)(int64_t)(%s)(%s)" % (t, c.name)
