"""The Rust emitter's records passed by value (docs/RUST.md, "Values"):
a #[repr(C)] Rust type per struct or union some function or callback
passes by value (and the records they hold), written into its slots
field by field and checked against the library's layout when the module
binds; an opaque type is an empty enum. Printed from the layout records
(their field names and types) and the function and callback records'
slots (which records pass by value)."""

from stubgen.emit_rust.objects import element_type
from stubgen.emit_rust.types import ident, rust_str, text_rust


def emit_record(src, host, layout, layouts):
    """The #[repr(C)] Rust type of a record passed by value (an opaque
    type: an empty enum), its nccc::Field and nccc::Record, from its
    layout record (layouts: every layout record by name)."""
    name = ident(layout["name"])
    if layout["kind"] == "opaque":
        src.line("/// `%s`: opaque (only pointers cross)." % layout["name"])
        src.line("pub enum %s {}" % name)
        return
    pairs = list(zip(layout["field_names"], layout["field_types"]))
    fields = [(ident(fname), text_rust(ftype), fname) for fname, ftype in pairs]
    union = layout["kind"] == "union"
    src.line("/// `%s %s` (layout checked when the module binds)." % (layout["kind"], layout["name"]))
    src.line("#[repr(C)]")
    plain = not union and not any(_holds_union(t, layouts) for _, t in pairs)
    src.line("#[derive(Clone, Copy%s)]" % (", Debug, PartialEq" if plain else ""))
    with src.block("pub %s %s {" % ("union" if union else "struct", name), "}"):
        for f, t, _ in fields:
            src.line("%s%s: %s," % ("" if union else "pub ", f, t))
    if union:
        # members private: a value starts all zero, so every byte a
        # member reads is initialised
        with src.block("impl %s {" % name, "}"):
            for f, t, cname in fields:
                src.line("/// A value holding `%s` (every other byte 0)." % cname)
                with src.block("pub fn from_%s(value: %s) -> %s {" % (cname, t, name), "}"):
                    src.line("let mut v = <%s as nccc::Field>::get(&[0u8; core::mem::size_of::<%s>()], 0);" % (name, name))
                    src.line("v.%s = value;" % f)
                    src.line("v")
                src.line("/// The bytes read as `%s`." % cname)
                with src.block("pub fn %s(&self) -> %s {" % (ident(cname), t), "}"):
                    src.line("let mut bytes = [0u8; core::mem::size_of::<%s>()];" % name)
                    src.line("nccc::Field::put(*self, &mut bytes, 0);")
                    src.line("<%s as nccc::Field>::get(&bytes, nccc::offset_of!(%s, %s))" % (t, name, f))
    with src.block("impl nccc::Field for %s {" % name, "}"):
        with src.block("fn put(self, bytes: &mut [u8], at: usize) {", "}"):
            if union:
                src.line("// SAFETY: a union value is made only from zeroed bytes (from_*, get),")
                src.line("// so all its bytes are initialised; they are copied whole.")
                src.line("let raw: [u8; core::mem::size_of::<%s>()] = unsafe { core::mem::transmute(self) };" % name)
                src.line("bytes[at..at + raw.len()].copy_from_slice(&raw);")
            else:
                for f, _, _ in fields:
                    src.line("nccc::Field::put(self.%s, bytes, at + nccc::offset_of!(%s, %s));" % (f, name, f))
        with src.block("fn get(bytes: &[u8], at: usize) -> Self {", "}"):
            if union:
                src.line("let mut raw = [0u8; core::mem::size_of::<%s>()];" % name)
                src.line("raw.copy_from_slice(&bytes[at..at + core::mem::size_of::<%s>()]);" % name)
                src.line("// SAFETY: every member is plain data, valid for any initialised bytes.")
                src.line("unsafe { core::mem::transmute(raw) }")
            else:
                with src.block("%s {" % name, "}"):
                    for f, t, _ in fields:
                        src.line("%s: <%s as nccc::Field>::get(bytes, at + nccc::offset_of!(%s, %s))," % (f, t, name, f))
    with src.block("impl nccc::Record for %s {" % name, "}"):
        src.line("const MODULE: &'static str = %s;" % rust_str(host.name))
        src.line("const NAME: &'static str = %s;" % rust_str(layout["name"]))
        with src.block("fn fields(each: &mut dyn FnMut(&'static str, usize, usize)) {", "}"):
            for f, t, cname in fields:
                src.line("each(%s, nccc::offset_of!(%s, %s), core::mem::size_of::<%s>());" % (rust_str(cname), name, f, t))


def by_value(host, layouts):
    """The names of the records some value passes by value (a function's
    or callback's slot, their records'), with the records they hold: the
    ones that get a #[repr(C)] Rust type, checked against the library's
    layout."""
    names = set()

    def add(text):
        text = element_type(text)
        if text.startswith("{") and text[1:-1] not in names and text[1:-1] in layouts:
            names.add(text[1:-1])
            for t in layouts[text[1:-1]].get("field_types", ()):
                add(t)
    for rec in list(host.function_records.values()) + list(host.callback_records.values()):
        for slot in rec["params"] + rec["results"]:
            add(slot["type"])
    return names


def _holds_union(text, layouts):
    """A union, or a struct or array holding one (no Debug or PartialEq
    can be derived for it)."""
    text = element_type(text)
    layout = layouts.get(text[1:-1]) if text.startswith("{") else None
    if layout is None or layout["kind"] == "opaque":
        return False
    return layout["kind"] == "union" or \
        any(_holds_union(t, layouts) for t in layout.get("field_types", ()))
