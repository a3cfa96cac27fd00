"""The Rust emitter's C objects (docs/RUST.md, "C objects"): from the
module's layout records (stubgen/model/binding.py, docs/BINDING.md "A
layout"), the table of record shapes `Layouts` that `bind` reads from the
library, and per struct or union a record type of the submodule `c`
(`M::c::NAME`) over the crate's nccc::Mem: a getter and a `set_` setter
per scalar or pointer field, a view per record field (`records`), an
nccc::CArray or nccc::CRecords per array field (`arrays`), and a `_text`
or `_bytes` copy per text field (`texts`). The layout records say which
fields there are, what each holds and its C type (`field_types`)."""

from stubgen.emit_rust.types import ident, rust_str, text_rust


def element_type(text):
    """A field's element type text: the innermost of an array's."""
    while text.startswith("["):
        text = text[1:-1].rsplit("; ", 1)[0]
    return text


def rust_scalar(text):
    """The Rust type of a scalar or pointer field's elements."""
    return text_rust(element_type(text))


def _shapes(layouts):
    """The layout records of structs and unions, with the type text of
    each of their fields."""
    return [(rec, list(zip(rec.get("field_names", ()), rec.get("field_types", ()))))
            for rec in layouts if rec["kind"] != "opaque"]


def emit_layouts(src, layouts):
    """struct Layouts: one nccc::Shape per struct or union, read at bind."""
    shapes = _shapes(layouts)
    src.line("/// The shapes of the module's structs and unions in C (sizes, alignments,")
    src.line("/// field places), read from the library's layout table when the module binds.")
    src.line("#[derive(Clone, Copy, Debug)]")
    with src.block("pub struct Layouts {", "}"):
        for rec, fields in shapes:
            src.line("pub %s: nccc::Shape<%d>," % (ident(rec["name"]), len(fields)))
    src.blank()
    with src.block("impl Layouts {", "}"):
        with src.block("fn read(rt: &nccc::Runtime<'_>) -> Result<Layouts, nccc::Error> {", "}"):
            if not shapes:
                src.line("let _ = rt;")
            with src.block("Ok(Layouts {", "})"):
                for rec, fields in shapes:
                    held = rec.get("records", {})
                    elems = ", ".join("(%s, %s)" % (
                        rust_str(name), "0" if name in held else
                        "core::mem::size_of::<%s>()" % rust_scalar(f)) for name, f in fields)
                    src.line("%s: nccc::Shape::read(rt, MODULE, %s, [%s])?," % (
                        ident(rec["name"]), rust_str(rec["name"]), elems))


def emit_named(src, layouts):
    """RECORDS, the structs and unions as nccc::RecordInfo (their layout
    records), and Layouts as nccc::Shapes: what the C objects by name
    (`m.new_named`, nccc::NamedObject) read."""
    shapes = [rec for rec, _ in _shapes(layouts)]
    index = {rec["name"]: k for k, rec in enumerate(shapes)}
    src.line("nccc::with_alloc! {")
    src.line("/// The module's structs and unions by name (`m.new_named(\"T\")`), as its")
    src.line("/// layout records describe them.")
    with src.block("pub static RECORDS: &[nccc::RecordInfo] = &[", "];"):
        for rec in shapes:
            names = rec.get("field_names", [])
            texts = {t["field"]: t for t in rec.get("texts", ())}
            with src.block("nccc::RecordInfo { name: %s, fields: &[" % rust_str(rec["name"]), "] },"):
                for name in names:
                    held = rec.get("records", {}).get(name)
                    text = texts.get(name)
                    if text is not None:
                        count = text["count"]
                        text = "Some(nccc::TextInfo { string: %s, count: %s })" % (
                            "true" if text["kind"] == "string" else "false",
                            "nccc::TextCount::Field(%d)" % names.index(count["field"])
                            if "field" in count else "nccc::TextCount::Fixed(%d)" % count["fixed"])
                    src.line("nccc::FieldInfo { name: %s, record: %s, array: %s, text: %s }," % (
                        rust_str(name), "None" if held is None else "Some(%d)" % index[held],
                        "true" if name in rec.get("arrays", ()) else "false", text or "None"))
    src.blank()
    with src.block("impl nccc::Shapes for Layouts {", "}"):
        src.line("fn module(&self) -> &'static str { MODULE }")
        src.line("fn records(&self) -> &'static [nccc::RecordInfo] { RECORDS }")
        with src.block("fn shape(&self, k: usize) -> (usize, usize, &[nccc::Place]) {", "}"):
            with src.block("match k {", "}"):
                for k, rec in enumerate(shapes):
                    src.line("%d => self.%s.parts()," % (k, ident(rec["name"])))
                src.line("_ => (0, 0, &[]),")
    src.line("}")


def emit_records(src, layouts):
    """The submodule c: one record type over C memory per struct or union."""
    src.line("nccc::with_alloc! {")
    src.line("/// The module's structs and unions as C objects (`m.new::<c::T>()`,")
    src.line("/// `m.view::<c::T>(ptr)`): each field by name, at the library's offsets.")
    with src.block("pub mod c {", "}"):
        src.line("use super::Layouts;")
        for rec, fields in _shapes(layouts):
            src.blank()
            _record(src, rec, fields)
    src.line("}")


def _record(src, rec, fields):
    name = ident(rec["name"])
    shape = "self.t.%s" % name
    src.line("/// `%s` in C memory." % rec["name"])
    with src.block("pub struct %s<'a> {" % name, "}"):
        src.line("m: nccc::Mem<'a>,")
        src.line("t: &'a Layouts,")
    with src.block("impl<'a> nccc::CRecord<'a> for %s<'a> {" % name, "}"):
        src.line("type Table = Layouts;")
        src.line("const NAME: &'static str = %s;" % rust_str(rec["name"]))
        src.line("fn size(t: &Layouts) -> (usize, usize) { (t.%s.size, t.%s.align) }" % (name, name))
        src.line("fn at(m: nccc::Mem<'a>, t: &'a Layouts) -> Self { %s { m, t } }" % name)
        src.line("fn mem(&self) -> &nccc::Mem<'a> { &self.m }")
    held = rec.get("records", {})
    arrays = set(rec.get("arrays", ()))
    texts = {t["field"]: t for t in rec.get("texts", ())}
    what = rust_str("%s.%s" % (rec["name"], "%s"))
    with src.block("impl<'a> %s<'a> {" % name, "}"):
        for k, (fname, field) in enumerate(fields):
            place = "%s.fields[%d]" % (shape, k)
            label = what % fname
            getter = ident(fname)
            if fname in held:
                view = ident(held[fname])
                if fname in arrays:
                    src.line("pub fn %s(&self) -> nccc::CRecords<'_, %s<'_>> { "
                             "nccc::CRecords::new(self.m.sub(%s.offset, %s.size, %s), %s.count, self.t) }"
                             % (getter, view, place, place, label, place))
                else:
                    src.line("pub fn %s(&self) -> %s<'_> { <%s<'_> as nccc::CRecord<'_>>::at("
                             "self.m.sub(%s.offset, %s.size, %s), self.t) }"
                             % (getter, view, view, place, place, label))
                continue
            t = rust_scalar(field)
            if fname in arrays:
                src.line("pub fn %s(&self) -> nccc::CArray<'_, %s> { "
                         "nccc::CArray::new(self.m.sub(%s.offset, %s.size, %s), %s.count) }"
                         % (getter, t, place, place, label, place))
                continue
            src.line("pub fn %s(&self) -> Result<%s, nccc::Error> { self.m.get(%s.offset) }"
                     % (getter, t, place))
            src.line("pub fn set_%s(&self, value: %s) -> Result<(), nccc::Error> { self.m.put(%s.offset, value) }"
                     % (fname, t, place))
            if fname in texts:
                _text(src, texts[fname], fields, place)


def _text(src, text, fields, place):
    """A text field's copy: exactly COUNT bytes at its pointer."""
    count = text["count"]
    if "field" in count:
        n = "self.%s()? as usize" % ident(count["field"])
    else:
        n = str(count["fixed"])
    if text["kind"] == "string":
        src.line("pub fn %s_text(&self) -> Result<Option<nccc::String>, nccc::Error> { "
                 "let n = %s; self.m.text(%s.offset, n) }" % (text["field"], n, place))
    else:
        src.line("pub fn %s_bytes(&self) -> Result<Option<nccc::Vec<u8>>, nccc::Error> { "
                 "let n = %s; self.m.text_bytes(%s.offset, n) }" % (text["field"], n, place))


def emit_constructors(src):
    """The module's new and view of its C objects."""
    src.lines("""
        nccc::with_alloc! {
        /// A zeroed C object of record `R` (`m.new::<c::T>()`), of the size and
        /// alignment of the library's layout, owned by the returned object.
        pub fn new<'m, R: nccc::CRecord<'m, Table = Layouts>>(&'m self) -> Result<nccc::CObject<'m, R>, nccc::Error> {
            nccc::CObject::new(&self.layouts)
        }

        /// A borrowed view of the record `R` at `ptr`, a `T *` C gave: never freed.
        /// Errors: NULL (kind Null).
        pub fn view<'m, R: nccc::CRecord<'m, Table = Layouts>>(&'m self, ptr: nccc::Ptr) -> Result<nccc::CObject<'m, R>, nccc::Error> {
            nccc::CObject::view(&self.layouts, ptr)
        }

        /// A borrowed view of `count` records `R` side by side at `ptr` (`nth(k)`).
        /// Errors: NULL (kind Null).
        pub fn view_records<'m, R: nccc::CRecord<'m, Table = Layouts>>(&'m self, ptr: nccc::Ptr, count: usize) -> Result<nccc::CObject<'m, R>, nccc::Error> {
            nccc::CObject::view_records(&self.layouts, ptr, count)
        }

        /// A zeroed C object of the struct or union `name`, chosen at run time,
        /// its fields by path (`obj.get("a.b[2]")`). Errors: no such record (kind
        /// Unknown).
        pub fn new_named(&self, name: &str) -> Result<nccc::NamedObject<'_>, nccc::Error> {
            nccc::NamedObject::new(&self.layouts, name)
        }

        /// A borrowed view of the record `name` at `ptr`. Errors: no such record
        /// (kind Unknown), NULL (kind Null).
        pub fn view_named(&self, name: &str, ptr: nccc::Ptr) -> Result<nccc::NamedObject<'_>, nccc::Error> {
            nccc::NamedObject::view(&self.layouts, name, ptr, 1)
        }

        /// A borrowed view of `count` records `name` side by side at `ptr`
        /// (paths from `[k]`).
        pub fn view_records_named(&self, name: &str, ptr: nccc::Ptr, count: usize) -> Result<nccc::NamedObject<'_>, nccc::Error> {
            nccc::NamedObject::view(&self.layouts, name, ptr, count)
        }
        }
        """)
