"""The C emitter's record helpers: records into out[] with padding zeroed."""

from stubgen.ctype import Array
from stubgen.emit_c.convert import section
from stubgen.model.lower import held_record


def volatile_type(t):
    """Whether t, or the element type of the array t, is volatile: a
    pointer to it needs an explicit cast to become const void *."""
    r = t.resolved()
    while isinstance(r, Array):
        if "volatile" in r.quals:
            return True
        r = r.elem.resolved()
    return "volatile" in r.quals


class RecordsPart:
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

    # -- records into out[]
    def record_helpers(self, src):
        if not self.put_order:
            return
        section(src, "records into out[]: zeroed slots, then every field at "
                "its offset, so", "padding bytes are 0; a union: the bytes of "
                "its largest member (docs/ABI.md)")
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
                vol = volatile_type(fld.type)
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
