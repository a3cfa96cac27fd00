"""The C emitter's declarations: from the IDL when it has no #include, else
the IDL checked against the headers; the compile-time checks."""

from stubgen.ctype import ASSUMED_SIZES, INLINE_RECORD, Array, Pointer
from stubgen.emit_c.convert import section
from stubgen.model import (ConstantDecl, EnumDecl, Function, OpaqueDecl,
                           Prototype, RecordDecl, TypedefDecl)


class DeclarationsPart:
    def declarations(self, src):
        m = self.m
        section(src, "declarations (the IDL has no #include)")
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
                    if it.windows:
                        src.line("#ifdef _WIN32")
                    src.line("extern %s;" % it.c_type.spell(it.c_name))
                    if it.windows:
                        src.line("#endif")

    def record_body(self, src, head, tail, decl):
        with src.block(head, tail):
            for fld in decl.fields:
                text = fld.type.spell(fld.name or "")
                if INLINE_RECORD not in text:
                    src.line("%s;" % text)
                    continue
                # a struct or union defined in place: its body here
                before, after = text.split(INLINE_RECORD)
                inner = fld.type.resolved()
                while isinstance(inner, Array):
                    inner = inner.elem.resolved()
                self.record_body(src, "%s%s {" % (before, inner.decl.kind),
                                 "}%s;" % after.rstrip(), inner.decl)

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
        section(src, "the IDL checked against the headers: a prototype or "
                "typedef",
                "that does not match them is a compile error (conflicting "
                "types).")
        # (mingw's GCC warns when a DLL's function, declared dllimport by
        # its header, is declared again without)
        src.line("#if defined(_WIN32) && defined(__GNUC__)")
        src.line("#pragma GCC diagnostic push")
        src.line('#pragma GCC diagnostic ignored "-Wattributes"')
        src.line("#endif")
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
                if it.windows:
                    src.line("#ifdef _WIN32")
                src.line("%s;" % it.c_type.spell("(%s)" % it.c_name))
                if it.windows:
                    src.line("#endif")
        src.line("#if defined(_WIN32) && defined(__GNUC__)")
        src.line("#pragma GCC diagnostic pop")
        src.line("#endif")

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
                    conds.extend(_field_sizes(it, it.c_name, ""))
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
        section(src, "compile-time checks: a false one is an array of "
                "negative size")
        with src.block("struct %schecks {" % self.p, "};"):
            for i, (cond, why) in enumerate(conds):
                src.line("char c%d[(%s) ? 1 : -1]; /* %s */" % (i, cond, why))


def _field_sizes(decl, c_name, path):
    """The checks of a record's field types against the header's: each
    field's size, through records defined in place to their fields (a
    path such as data.scalar.value; an array's element [0])."""
    conds = []
    for fld in decl.members:
        member = path + fld.name
        t = fld.type.resolved()
        index = ""
        while isinstance(t, Array):
            t, index = t.elem.resolved(), index + "[0]"
        if getattr(t, "decl", None) is not None and \
                getattr(t.decl, "parent", None) is not None:
            conds.extend(_field_sizes(t.decl, c_name,
                                      member + index + "."))
            continue
        conds.append(("sizeof(((%s *)0)->%s) == sizeof(%s)"
                      % (c_name, member, fld.type.unqualified().spell()),
                      "%s.%s" % (decl.outermost[0].name, member)))
    return conds
