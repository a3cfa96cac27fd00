"""The C emitter's tables: the const registry, the layout and constants
tables, and the module."""

from stubgen.abi import load as load_abi
from stubgen.ctype import Array, Record, array_depth
from stubgen.emit_c.convert import (c_string, section, signature_literal,
                                    slot_index)

_ABI = load_abi()


class TablesPart:
    def registry(self, src):
        m, p = self.m, self.p
        fns = m.functions
        section(src, "the const registry")
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
            src.line("/* The hash index: slot count - 1, then each slot, 0 "
                     "or a function's index + 1 (nccc/registry.h). */")
            src.line("static const uint16_t %shash_index[] = {%s};" % (
                p, ", ".join(str(v) for v in
                             _ABI.name_index([f.name for f in fns]))))
        src.blank()
        with src.block("static const nccc_registry %sregistry = {" % p,
                       "};"):
            if fns:
                src.line("(const char *)&%snames, %sfuncs, %sinfo, %ssorted, "
                         "%shash_index" % (p, p, p, p, p))
            else:
                src.line("(const char *)&%snames, NULL, %sinfo, NULL, NULL"
                         % (p, p))

    def layouts(self, src):
        m, p = self.m, self.p
        if not m.layouts:
            return
        section(src, "the layout table: numbers from sizeof and offsetof")
        aligns = {}
        for i, e in enumerate(m.layouts):
            if not e.fields:
                continue
            top, path = e.decl.outermost
            c = top.c_name
            src.blank()
            aligns[i] = self.align_probes(src, e, i)
            base = "offsetof(%s, %s)" % (c, path) if path else None
            with src.block("static const nccc_field %sfields%d[] = {"
                           % (p, i), "};"):
                for fld in e.fields:
                    name = (path + "." if path else "") + fld.name
                    member = "((%s *)0)->%s" % (c, name)
                    depth = array_depth(fld.type)
                    count = "sizeof(%s) / sizeof(%s%s)" % (
                        member, member, "[0]" * depth) if depth else "1"
                    code = fld.code
                    code = code if code.startswith("NCCC_SIG_") \
                        else c_string(code)
                    offset = "offsetof(%s, %s)" % (c, name)
                    if base is not None:
                        offset += " - " + base
                    src.line("{%s, %s, %s, sizeof(%s), %s},"
                             % (c_string(fld.name), code, offset, member,
                                count))
        src.blank()
        with src.block("static const nccc_type_layout %stypes[] = {" % p,
                       "};"):
            for i, e in enumerate(m.layouts):
                if e.fields:
                    top, path = e.decl.outermost
                    size = "sizeof(((%s *)0)->%s)" % (top.c_name, path) \
                        if path else "sizeof(%s)" % e.decl.c_name
                    src.line("{%s, %s, %s, %s, %d, %sfields%d}," % (
                        c_string(e.name), size, aligns[i],
                        "NCCC_TYPE_" + e.kind.upper(), len(e.fields), p, i))
                else:
                    src.line("{%s, 0, 0, NCCC_TYPE_OPAQUE, 0, NULL},"
                             % c_string(e.name))

    def align_probes(self, src, e, i):
        """Alignment probes of layout entry i; returns its alignment as a
        C expression. A record defined in place inside another has no
        type name to probe with: it aligns as the most aligned of its
        members' types, which a union of them does too."""
        p = self.p
        if e.decl.c_name is not None:
            src.line("struct %salign%d { char c; %s; }; /* alignment probe "
                     "*/" % (p, i, e.type.spell("v")))
            return "offsetof(struct %salign%d, v)" % (p, i)
        members = " ".join(t.unqualified().spell("m%d" % j) + ";"
                           for j, t in enumerate(_leaf_types(e.decl)))
        src.line("struct %salign%d { char c; union { %s } v; }; /* alignment "
                 "probe: its most aligned member type */" % (p, i, members))
        return "offsetof(struct %salign%d, v)" % (p, i)

    def constants(self, src):
        m, p = self.m, self.p
        if not m.constants:
            return
        section(src, "the constants table: values from the C expressions")
        with src.block("static const nccc_constant %sconstants[] = {" % p,
                       "};"):
            for c in m.constants:
                code = c.code if c.code.startswith("NCCC_SIG_") \
                    else c_string(c.code)
                src.line("{%s, %s, %s}," % (c_string(c.name), code,
                                           _const_value(c)))

    def module(self, src):
        m, p = self.m, self.p
        section(src, "the module")
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
        src.blank()
        with src.block("void %sopen(const uint64_t *in, uint64_t *out) {" % p,
                       "}"):
            src.lines("""
                uint16_t index;
                nccc_status st = nccc_ensure_init();
                (void)in;
                if (st == NCCC_OK && nccc_module_find(%s, &index) != NCCC_OK) {
                  st = %sregister();
                  /* the failed find is not this call's error */
                  if (st == NCCC_OK) nccc_clear_error();
                }
                out[0] = (uint64_t)st;
                """ % (c_string(m.name), p))


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


def _leaf_types(decl):
    """The types of a record's members with a C name (the elements of
    arrays; a record defined in place looked into), each spelling once."""
    out, seen = [], set()
    for fld in decl.members:
        t = fld.type
        while isinstance(t.resolved(), Array):
            t = t.resolved().elem
        r = t.resolved()
        if isinstance(r, Record) and r.decl.c_name is None:
            leaves = _leaf_types(r.decl)
        else:
            leaves = [t]
        for leaf in leaves:
            if leaf.unqualified().spell() not in seen:
                seen.add(leaf.unqualified().spell())
                out.append(leaf)
    return out
