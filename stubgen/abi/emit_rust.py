"""bindings/rust/nccc/src/abi.rs: the ABI's facts as Rust constants."""

from stubgen.source import Source

MODULE = "bindings/rust/nccc/src/abi.rs"


def _str(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _const(name):
    return name.upper().replace(" ", "_")


def _code(c):
    return "Code { code: b'%s', name: %s, kind: Kind::%s, bytes: %d, " \
        "signed: %s, in_ok: %s, out_ok: %s }," % (
            c.code if c.code not in "'\\" else "\\" + c.code, _str(c.name),
            c.kind.capitalize(), c.bytes, str(c.signed).lower(),
            str(c.in_ok).lower(), str(c.out_ok).lower())


def _rest(rest):
    return "Rest { arg: %d, mul: %d, div: %d, out: %s }" % (
        rest.arg, rest.mul, rest.div, str(rest.out).lower())


def emit(abi):
    src = Source(indent="    ")
    src.lines("""
        //! The nccc ABI's facts (docs/ABI.md), generated from idl/abi.json by
        //! stubgen/abi (python3 -m stubgen.abi --write); do not edit.
        """)
    src.blank()
    src.line("/// What a signature code's value is.")
    src.line("#[derive(Clone, Copy, Debug, PartialEq, Eq)]")
    with src.block("pub enum Kind {", "}"):
        for kind in sorted({c.kind for c in abi.codes}):
            src.line("%s," % kind.capitalize())
    src.blank()
    src.line("/// One signature code (`bytes` 0: pointer-sized).")
    src.line("#[derive(Clone, Copy, Debug)]")
    with src.block("pub struct Code {", "}"):
        for field, ty in (("code", "u8"), ("name", "&'static str"),
                          ("kind", "Kind"), ("bytes", "u8"),
                          ("signed", "bool"), ("in_ok", "bool"),
                          ("out_ok", "bool")):
            src.line("pub %s: %s," % (field, ty))
    src.blank()
    with src.block("pub const CODES: &[Code] = &[", "];"):
        for c in abi.codes:
            src.line(_code(c))
    src.blank()
    for role, ch in abi.grammar_chars():
        src.line("pub const SIG_%s: u8 = b'%s';" % (_const(role), ch))
    src.line("pub const MAX_SLOTS: usize = %d;" % abi.max_slots)
    src.blank()
    src.line("/// Status codes (`nccc_status`).")
    for s in abi.status:
        src.line("pub const %s: u32 = %d;" % (s.name.replace("NCCC_", ""),
                                              s.value))
    src.blank()
    src.line("/// What a generated wrapper refuses itself (docs/CALLBACKS.md, \"Refused")
    src.line("/// calls\"): an argument of one of these code kinds, leaving one of these")
    src.line("/// statuses as the thread's last error.")
    src.line("pub const REFUSAL_KINDS: &[Kind] = &[%s];" % ", ".join(
        "Kind::%s" % k.capitalize() for k in abi.refusal_kinds))
    src.line("pub const REFUSAL_STATUSES: &[u32] = &[%s];" % ", ".join(
        abi.refusal_statuses))
    src.blank()
    src.line("/// The text of a status (`nccc_status_name`).")
    with src.block("pub fn status_text(status: u32) -> &'static str {", "}"):
        with src.block("match status {", "}"):
            for s in abi.status:
                src.line("%d => %s," % (s.value, _str(s.text)))
            src.line('_ => "unknown status",')
    src.blank()
    src.line("/// The size of a built-in's '*' side: argument `arg` (0-based) holds n,")
    src.line("/// and the side takes ceil(n * mul / div) slots; `out`: it is the out side.")
    src.line("#[derive(Clone, Copy, Debug)]")
    with src.block("pub struct Rest {", "}"):
        for field, ty in (("arg", "usize"), ("mul", "usize"), ("div", "usize"),
                          ("out", "bool")):
            src.line("pub %s: %s," % (field, ty))
    src.blank()
    src.line("/// A built-in: its index for the root, name, signature and '*' side.")
    src.line("#[derive(Clone, Copy, Debug)]")
    with src.block("pub struct Builtin {", "}"):
        src.line("pub index: u64,")
        src.line("pub name: &'static str,")
        src.line("pub signature: &'static str,")
        src.line("pub rest: Option<Rest>,")
    src.blank()
    for b in abi.builtins:
        rest = "None" if b.rest is None else "Some(%s)" % _rest(b.rest)
        src.line("pub const %s: Builtin = Builtin { index: %d, name: %s, "
                 "signature: %s, rest: %s };" % (b.ident, b.index, _str(b.name),
                                                 _str(b.signature), rest))
    src.blank()
    with src.block("pub const BUILTINS: &[Builtin] = &[", "];"):
        for b in abi.builtins:
            src.line("%s," % b.ident)
    src.blank()
    src.line("/// Closure scopes and the flags or'ed into them.")
    for s in abi.scopes:
        src.line("pub const SCOPE_%s: u64 = %d;" % (_const(s.name), s.value))
    src.line("pub const SCOPES: &[(&str, u64)] = &[%s];" % ", ".join(
        "(%s, SCOPE_%s)" % (_str(s.name), _const(s.name)) for s in abi.scopes))
    for f in abi.closure_flags:
        src.line("pub const CLOSURE_%s: u64 = %d;" % (_const(f.name),
                                                      f.value))
    src.line("pub const CLOSURE_TARGET_SIGNATURE: &str = %s;"
             % _str(abi.closure_target_signature))
    src.blank()
    src.line("/// The module of the built-ins.")
    src.line("pub const BUILTINS_MODULE: &str = %s;" % _str(abi.builtins_module))
    src.line("/// Packed functions: their module for hosts, the flags of "
             "registering one,")
    src.line("/// TVM's type codes of packed values.")
    src.line("pub const PACKED_MODULE: &str = %s;" % _str(abi.packed.module))
    for f in abi.packed.flags:
        src.line("pub const PACKED_%s: u64 = %d;" % (_const(f.name), f.value))
    for t in abi.packed.type_codes:
        src.line("pub const PACKED_TYPE_%s: u64 = %d;"
                 % (_const(t.name), t.value))
    src.line("/// The '*' sides an argument sizes, by qualified function name.")
    with src.block("pub const SIZED: &[(&str, Rest)] = &[", "];"):
        for name, rest in sorted(abi.sized().items()):
            src.line("(%s, %s)," % (_str(name), _rest(rest)))
    src.line("/// The targets a signature may differ on (data model, plain char "
             "signed), in")
    src.line("/// the order of a module's entries.")
    src.line("pub const TARGETS: &[(&str, bool)] = &[%s];" % ", ".join(
        "(%s, %s)" % (_str(t.data_model), str(t.char_signed).lower())
        for t in abi.targets))
    src.blank()
    src.line("/// Type kinds of the layout table.")
    for t in abi.type_kinds:
        src.line("pub const TYPE_%s: u64 = %d;" % (_const(t.name), t.value))
    return str(src)
