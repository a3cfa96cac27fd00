"""The C object steps of the case table (needs "cdata": new, view, field,
record, assign, read_bytes, write_bytes, close of an object, alloc of a
record's size) as Rust over the generated module's records (`cdata::c::T`,
docs/RUST.md "C objects"). A field path becomes the typed accessors the
layout records give (`ev.data().shape().corners().at(1)?.y()?`). Refused
when compiled in Rust, so not converted (Unsupported): a value of the
wrong type for a field, a name that is no field or no record. A view
of records by count is `view_records`, its path starting with an index
(`pts.nth(2)?.x()?`). Also C data as a call's arguments: a record by
value from the layout record's field types, and C memory or bytes with
their [length] folded into the slice or vector a method takes."""

from case_common import KINDS, MODULES, Unsupported, _int, _lit
from stubgen.emit_rust.objects import rust_scalar
from stubgen.emit_rust.types import ident, text_rust
from stubgen.model.binding import records


def _layouts(mod):
    """{layout name: (layout record, {field name: its type text})}."""
    return {rec["name"]: (rec, dict(zip(rec.get("field_names", ()), rec.get("field_types", ()))))
            for rec in records(MODULES[mod])["layouts"] if rec["kind"] != "opaque"}


def byte_array(text):
    """Bytes in hex as a Rust array literal."""
    return "[%s]" % ", ".join("0x%su8" % text[k:k + 2] for k in range(0, len(text), 2))


def _hex(text):
    return "&" + byte_array(text)


def field_types(mod, name):
    """(kind, {field: Rust type}) of layout name of module mod, from its
    layout record; None when it has none."""
    found = _layouts(mod).get(name)
    if found is None:
        return None
    return found[0]["kind"], {f: text_rust(t) for f, t in found[1].items()}


class CdataSteps:
    """The C object steps, for the Case of cases_to_rust.py."""

    def cobj(self, v):
        """(variable, module, layout) of a saved C object or view."""
        name = v.get("saved") if isinstance(v, dict) else None
        if not isinstance(self.saved.get(name), tuple):
            raise Unsupported("a C object never made")
        return (name,) + self.saved[name]

    def path(self, mod, layout, var, path):
        """(expression, leaf) along path from C object var: leaf is
        (Rust type, setter format, text field or None), or None when the
        path ends at a record."""
        records = _layouts(mod)
        expr, rec, fields = var, *records[layout]
        pending = None          # ("records", layout) or ("scalars", type)
        if path and isinstance(path[0], int):
            if self.saved.get(var + "#records") is None:
                raise Unsupported("an index into one record")
            expr, path = "%s.nth(%d)?" % (var, path[0]), path[1:]
        for k, item in enumerate(path):
            last = k == len(path) - 1
            if pending is not None:
                if not isinstance(item, int):
                    raise Unsupported("a name where an index goes")
                if pending[0] == "scalars":
                    if not last:
                        raise Unsupported("a path past a scalar")
                    return expr, (pending[1], "%s.set(%d, %%s)?" % (expr, item), None, "%s.get(%d)?" % (expr, item))
                expr = "%s.at(%d)?" % (expr, item)
                rec, fields = records[pending[1]]
                pending = None
                continue
            if isinstance(item, int):
                raise Unsupported("an index into one record")
            if item not in rec.get("field_names", ()):
                raise Unsupported("no such field: refused when compiled")
            getter = "%s.%s()" % (expr, ident(item))
            held = rec.get("records", {})
            if item in held:
                pending = ("records", held[item]) if item in rec.get("arrays", ()) else None
                if pending is None:
                    expr = getter
                    rec, fields = records[held[item]]
                else:
                    expr = getter
                continue
            if item in rec.get("arrays", ()):
                expr, pending = getter, ("scalars", rust_scalar(fields[item]))
                continue
            if not last:
                raise Unsupported("a path past a scalar")
            text = next((t for t in rec.get("texts", ()) if t["field"] == item), None)
            return expr, (rust_scalar(fields[item]), "%s.set_%s(%%s)?" % (expr, item),
                          text and "%s.%s_text()?" % (expr, item), getter + "?")
        return expr, None

    def result(self, body, value=True):
        r = self.var("r")
        if value:
            self.lines.append("let %s = (|| -> Result<_, nccc::Error> { Ok(%s) })();" % (r, body))
        else:
            self.lines.append("let %s = (|| -> Result<(), nccc::Error> { %s; Ok(()) })();" % (r, body))
        return r

    def check_error(self, r, st):
        kind = KINDS.get(st["error"])
        if kind is None:
            raise Unsupported("an error of kind %s" % st["error"])
        self.lines.append("assert_eq!(%s.expect_err(\"an error\").kind, nccc::ErrorKind::%s);" % (r, kind))

    def read_field(self, mod, leaf, r, expect):
        ty, _, text, _ = leaf
        if isinstance(expect, dict) and expect.get("null"):
            self.lines.append("assert!(%s.unwrap().is_null());" % r)
        elif text is not None and isinstance(expect, str):
            self.lines.append("assert_eq!(%s.unwrap().as_deref(), Some(%s));" % (r, _lit(expect)))
        else:
            self.lines.append("assert_eq!(%s.unwrap(), %s);" % (r, self.arg(expect, ty, mod)))

    def set_field(self, var, mod, layout, path, value, st=None):
        expr, leaf = self.path(mod, layout, var, path)
        if leaf is None:
            raise Unsupported("a whole record set by a path")
        r = self.result(leaf[1] % self.arg(value, leaf[0], mod), value=False)
        if st is not None and "error" in st:
            self.check_error(r, st)
        else:
            self.lines.append("%s.unwrap();" % r)

    def set_record(self, var, mod, layout, fields, path=()):
        """Each field given (at any depth) written into C object var."""
        for name, v in fields.items():
            if isinstance(v, dict) and "struct" in v:
                self.set_record(var, mod, layout, v["struct"], path + (name,))
            elif isinstance(v, list):
                for k, x in enumerate(v):
                    if isinstance(x, dict) and "struct" in x:
                        self.set_record(var, mod, layout, x["struct"], path + (name, k))
                    else:
                        self.set_field(var, mod, layout, list(path + (name, k)), x)
            else:
                self.set_field(var, mod, layout, list(path + (name,)), v)

    def expect_record(self, var, mod, layout, fields, path=()):
        """Each field given (at any depth) read from C object var."""
        for name, v in fields.items():
            items = [(path + (name,), v)] if not isinstance(v, list) else \
                [(path + (name, k), x) for k, x in enumerate(v)]
            for p, x in items:
                if isinstance(x, dict) and "struct" in x:
                    self.expect_record(var, mod, layout, x["struct"], p)
                    continue
                self.expect_field(var, mod, layout, list(p), x)

    def expect_field(self, var, mod, layout, path, expect):
        """The field at path of C object var read and compared."""
        expr, leaf = self.path(mod, layout, var, path)
        self.read_field(mod, leaf, self.result(leaf[3]), expect)

    def copy_in(self, var, mod, layout, value):
        if isinstance(value, dict) and "saved" in value and self.saved.get(value["saved"]) == "bytes":
            return "%s.set_bytes(&%s)" % (var, value["saved"])
        if isinstance(value, dict) and "bytes" in value:
            return "%s.set_bytes(%s)" % (var, _hex(value["bytes"]))
        if isinstance(value, dict) and "struct" in value:
            self.lines.append("%s.set_bytes(&vec![0u8; %s_m.layouts.%s.size]).unwrap();"
                              % (var, mod, ident(layout)))
            self.set_record(var, mod, layout, value["struct"])
            return None
        raise Unsupported("a record value of another form")

    def c_buffers(self, mod, fn, args):
        """args with each C address (an alloc step's) or bytes that a
        [length] parameter describes, and that length, as one value: the
        method takes them as one slice or vector (the function's binding
        record's values)."""
        rec = next(f for f in records(MODULES[mod])["functions"] if f["name"] == fn)
        values = rec.get("values", [])
        values = values[0] if values and isinstance(values[0], list) else values
        if len(args) != rec["in_count"]:
            return args
        out, folded = list(args), set()
        for d in values:
            v, count = args[d["arg"] - 1], d.get("count", {})
            if "arg" not in count or not isinstance(v, dict):
                continue
            length = args[count["arg"] - 1]
            if self.saved.get(v.get("saved")) == "dyn":
                out[d["arg"] - 1] = {"c_buffer": v["saved"], "length": length}
            elif "bytes" not in v or len(v["bytes"]) != 2 * _int(length):
                continue
            folded.add(count["arg"] - 1)
        return [a for k, a in enumerate(out) if k not in folded]

    def record(self, fields, ty, mod):
        """A struct value of type ty (a record by value) with fields."""
        layout = field_types(mod, ty)
        if layout is None or layout[0] != "struct":
            raise Unsupported("a record of type %s" % ty)
        parts = []
        if set(fields) - set(layout[1]):
            raise Unsupported("a field the struct has not")
        for name, t in layout[1].items():
            if name in fields:
                parts.append("%s: %s" % (name, self.arg(fields[name], t, mod)))
            else:
                parts.append("%s: <%s as nccc::Field>::get(&[0u8; 64], 0)" % (name, t))
        return "%s::%s { %s }" % (mod, ty, ", ".join(parts))

    # ---- steps ---------------------------------------------------------------
    def new_expr(self, mod, layout):
        """The Rust expression of a new C object of layout."""
        if layout not in _layouts(mod):
            raise Unsupported("a name that is no record: refused when compiled")
        return "%s_m.new::<%s::c::%s>()" % (mod, mod, ident(layout))

    def view_expr(self, mod, layout, ptr, count):
        """The Rust expression of a view of layout at ptr (count records)."""
        if count is None:
            return "%s_m.view::<%s::c::%s>(%s)" % (mod, mod, ident(layout), ptr)
        return "%s_m.view_records::<%s::c::%s>(%s, %d)" % (mod, mod, ident(layout), ptr, count)

    def do_new(self, st):
        mod, layout = st["new"].split(".")
        new = self.new_expr(mod, layout)
        if "error" in st:
            return self.check_error(self.result(new + "?", value=False), st)
        var = st.get("save") or self.var("obj")
        self.lines.append("let mut %s = %s.unwrap();" % (var, new))
        self.saved[var] = (mod, layout)
        if "value" in st:
            copy = self.copy_in(var, mod, layout, st["value"])
            if copy is not None:
                self.lines.append("%s.unwrap();" % copy)

    def do_view(self, st):
        mod, layout = st["view"].split(".")
        at = st["at"]
        if isinstance(at, dict) and at.get("null"):
            ptr = "nccc::Ptr::NULL"
        elif isinstance(self.saved.get(at.get("saved")), tuple):
            ptr = "%s.ptr().unwrap()" % at["saved"]
        else:
            ptr = "dyn_ptr(&%s)" % self.dyn_arg(at)
        view = self.view_expr(mod, layout, ptr, st.get("count"))
        if "error" in st:
            self.check_error(self.result("%s?" % view, value=False), st)
            return
        self.lines.append("let mut %s = %s.unwrap();" % (st["save"], view))
        self.saved[st["save"]] = (mod, layout)
        if "count" in st:
            self.saved[st["save"] + "#records"] = "records"

    def do_field(self, st):
        var, mod, layout = self.cobj(st["field"])
        if "set" in st:
            return self.set_field(var, mod, layout, st["path"], st["set"], st)
        expr, leaf = self.path(mod, layout, var, st["path"])
        if leaf is None:
            r = self.result("{ let _ = %s; }" % expr, value=False)
        else:
            text = isinstance(st.get("expect"), str) and leaf[2] is not None
            r = self.result(leaf[2] if text else leaf[3])
        if "error" in st:
            return self.check_error(r, st)
        self.read_field(mod, leaf, r, st["expect"])

    def do_record(self, st):
        var, mod, layout = self.cobj(st["record"])
        if "error" in st:
            return self.check_error(self.result("%s.to_bytes()?" % var), st)
        expect = st["expect"]
        if "save" in expect:
            self.lines.append("let %s = %s.to_bytes().unwrap();" % (expect["save"], var))
            self.saved[expect["save"]] = "bytes"
            return
        self.expect_record(var, mod, layout, expect["struct"])

    def do_assign(self, st):
        var, mod, layout = self.cobj(st["assign"])
        copy = self.copy_in(var, mod, layout, st["value"])
        if copy is None:
            return
        r = self.result(copy + "?", value=False)
        if "error" in st:
            return self.check_error(r, st)
        self.lines.append("%s.unwrap();" % r)

    def close_object(self, st):
        """close of what is not an owned object: a C object or view."""
        name = st["close"].get("saved")
        if not isinstance(self.saved.get(name), tuple):
            raise Unsupported("closing what is not an owned object")
        self.lines.append("assert_eq!(%s.free(), %s);" % (name, "true" if st["expect"] else "false"))

    def do_alloc(self, st):
        if not isinstance(st["alloc"], dict):
            return super().do_alloc(st)
        mod, layout = st["alloc"]["sizeof"].split(".")
        self.lines.append("let %s = rt.call_dynamic(\"nccc.alloc\", &[Dyn::Int((%s_m.layouts.%s.size * %d) as _)]).unwrap()[1].clone();"
                          % (st["save"], mod, ident(layout), st["alloc"].get("count", 1)))
        self.saved[st["save"]] = "dyn"

    def do_read_bytes(self, st):
        n = st["length"]
        self.lines.append("let mut out = vec![0u64; 1 + (%d + 7) / 8];" % n)
        self.lines.append("rt.run(nccc::abi::READ, &[dyn_ptr(&%s).addr() as u64, %d], &mut out).unwrap();"
                          % (self.dyn_arg(st["read_bytes"]), n))
        self.lines.append("assert_eq!(&nccc::slot_bytes(&out[1..])[..%d], %s);" % (n, _hex(st["expect"]["bytes"])))

    def do_write_bytes(self, st):
        data = st["bytes"]
        n = len(data) // 2
        self.lines.append("let mut input = vec![dyn_ptr(&%s).addr() as u64, %d];" % (self.dyn_arg(st["write_bytes"]), n))
        self.lines.append("input.extend((%s).chunks(8).map(|c| { let mut w = [0u8; 8]; w[..c.len()].copy_from_slice(c); u64::from_ne_bytes(w) }));"
                          % _hex(data))
        self.lines.append("rt.run(nccc::abi::WRITE, &input, &mut [0u64; 1]).unwrap();")
