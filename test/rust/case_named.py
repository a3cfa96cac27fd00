"""The C object steps of the case table (needs "cdata") as Rust over the
C objects by name (`m.new_named("T")`, `obj.get("a.b[2]")`,
`obj.set(path, &value)`; docs/RUST.md, "C objects by name"): every case
with C objects runs this way too, beside its typed form (case_cdata.py),
including what the typed records refuse when compiled (a value of the
wrong type, a name that is no field or no record), which fails here at
run time with the error kind the table gives."""

from case_cdata import CdataSteps
from case_common import _lit

# the steps that make or use C objects
OBJECT_STEPS = ("new", "view", "field", "record", "assign")


def path_text(path):
    """A case path (names and indexes) as the by-name path text:
    ["data", "shape", "corners", 1, "y"] is "data.shape.corners[1].y"."""
    text = ""
    for item in path:
        if isinstance(item, int):
            text += "[%d]" % item
        else:
            text += ("." if text else "") + item
    return text


class NamedSteps(CdataSteps):
    """The C object steps by name, for the NamedCase of cases_to_rust.py."""

    def set_field(self, var, mod, layout, path, value, st=None):
        r = self.result("%s.set(%s, &%s)?" % (var, _lit(path_text(path)), self.dyn_arg(value)),
                        value=False)
        if st is not None and "error" in st:
            self.check_error(r, st)
        else:
            self.lines.append("%s.unwrap();" % r)

    def expect_field(self, var, mod, layout, path, expect):
        p = _lit(path_text(path))
        if isinstance(expect, str):
            r = self.result("%s.text(%s)?" % (var, p))
            self.lines.append("assert_eq!(%s.unwrap().as_deref(), Some(%s));" % (r, _lit(expect)))
        else:
            r = self.result("%s.get(%s)?" % (var, p))
            self.lines.append("assert!(same(%s.as_ref().unwrap(), &%s), \"{:?}\", %s);"
                              % (r, self.dyn_arg(expect), r))

    def new_expr(self, mod, layout):
        return "%s_m.new_named(%s)" % (mod, _lit(layout))

    def view_expr(self, mod, layout, ptr, count):
        if count is None:
            return "%s_m.view_named(%s, %s)" % (mod, _lit(layout), ptr)
        return "%s_m.view_records_named(%s, %s, %d)" % (mod, _lit(layout), ptr, count)

    def do_field(self, st):
        var, mod, layout = self.cobj(st["field"])
        if "set" in st:
            return self.set_field(var, mod, layout, st["path"], st["set"], st)
        if "error" in st:
            r = self.result("%s.get(%s)?" % (var, _lit(path_text(st["path"]))))
            return self.check_error(r, st)
        self.expect_field(var, mod, layout, st["path"], st["expect"])
