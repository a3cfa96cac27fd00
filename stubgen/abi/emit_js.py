"""bindings/js/nccc/abi.mjs: the ABI's facts as one JavaScript
object (an ES module's default export)."""

import json
import re

from stubgen.source import Source

MODULE = "bindings/js/nccc/abi.mjs"


def _int(v):
    """An integer as JavaScript: past 2^53 a BigInt literal, since a
    number would round it."""
    return str(v) if abs(v) <= 2 ** 53 else "%dn" % v


def _obj(pairs):
    return "{%s}" % ", ".join("%s: %s" % (json.dumps(k), v) for k, v in pairs)


def _code(c):
    pairs = [("name", json.dumps(c.name)), ("kind", json.dumps(c.kind)),
             ("bytes", str(c.bytes)), ("signed", json.dumps(c.signed)),
             ("in_ok", json.dumps(c.in_ok)), ("out_ok", json.dumps(c.out_ok))]
    if c.min is not None:
        pairs += [("bits", str(c.bits)), ("min", _int(c.min)),
                  ("max", _int(c.max))]
    return _obj(pairs)


def _rest(rest):
    return _obj([("arg", str(rest.arg)), ("per", json.dumps(rest.per)),
                 ("mul", str(rest.mul)), ("div", str(rest.div)),
                 ("out", json.dumps(rest.out))])


def _builtin(b):
    pairs = [("index", str(b.index)), ("name", json.dumps(b.name)),
             ("signature", json.dumps(b.signature)), ("n_in", str(b.n_in)),
             ("n_out", str(b.n_out))]
    if b.rest is not None:
        pairs.append(("rest", _rest(b.rest)))
    return _obj(pairs)


_FIELD = re.compile(r"^([a-z_]+):(\d+|[a-z_]+)$")


def _fields(words, at=0):
    """{field: offset} of "name:size" words from at; a variable field
    ends them; "end" is the size of fixed fields only."""
    fields = {}
    for w in words:
        m = _FIELD.match(w)
        if not m:
            break
        fields[m.group(1)] = at
        if not m.group(2).isdigit():
            return fields
        at += int(m.group(2))
    fields["end"] = at
    return fields


def header_offsets(rpc):
    """{field: offset} of the header's "name:size ..." (idl/abi.json)."""
    fields = _fields(rpc.header.split())
    if fields.pop("end", None) != rpc.header_bytes:
        raise ValueError("rpc header %r is not %d bytes of fixed fields"
                         % (rpc.header, rpc.header_bytes))
    return fields


def offsets(layout, header_bytes):
    """{field: offset} of a message layout as idl/abi.json writes it
    (docs/RPC.md): "header" or "header(...)", then "name:size" fields,
    up to the first variable part (a field whose size names another
    field, "text:length", whose offset is kept; or a word that is no
    field, "in slots: ...", "["); "end" is where a layout of fixed fields
    ends, or its variable part begins."""
    words = re.sub(r"\([^)]*\)", " ", layout).split()
    if not words or words[0] != "header":
        raise ValueError("rpc layout %r does not begin with the header"
                         % layout)
    return _fields(words[1:], header_bytes)


def entries(layout):
    """The offsets in each repeated entry of a layout ("n x ( slot:2
    length:4 bytes:length 0x00 )"), in order."""
    return [_fields(group.split())
            for group in re.findall(r"\bx \(([^)]*)\)", layout)]


def section(layout):
    """The offsets in a layout's optional section ("[ n_strings:1
    n_fetch:1 ..."), from its start, or None."""
    for part in layout.split("[")[1:]:
        fields = _fields(part.split())
        if len(fields) > 1:
            return fields
    return None


def _offsets_obj(fields):
    return _obj((f, str(v)) for f, v in fields.items())


def _layouts(layouts, header_bytes):
    return _obj((name, _offsets_obj(offsets(text, header_bytes)))
                for name, text in layouts.items())


def _sections(layouts):
    return _obj((name, _offsets_obj(found)) for name, text in layouts.items()
                for found in [section(text)] if found)


def _entries(layouts):
    return _obj((name, "[%s]" % ", ".join(_offsets_obj(e) for e in found))
                for name, text in layouts.items()
                for found in [entries(text)] if found)


def _named(entries):
    return _obj((e.name, str(e.value)) for e in entries)


def _rpc(rpc):
    """The remote-call protocol's numbers (docs/RPC.md), for the
    JavaScript client (nccc/remote/)."""
    cb = rpc.callbacks
    return _obj([
        ("version", str(rpc.version)), ("escape", str(rpc.escape)),
        ("start", str(rpc.start)), ("nop", str(rpc.nop)),
        ("data_ff", str(rpc.data_ff)),
        ("crc", _obj((k, str(v)) for k, v in sorted(rpc.crc.items())
                     if k != "name")),
        ("length_bytes", str(rpc.length_bytes)),
        ("crc_bytes", str(rpc.crc_bytes)),
        ("header_bytes", str(rpc.header_bytes)),
        ("largest_message", str(rpc.largest_message)),
        ("max_name_bytes", str(rpc.max_name_bytes)),
        ("header", _offsets_obj(header_offsets(rpc))),
        ("result_flags", _named(rpc.result_flags)),
        ("messages", _named(rpc.messages)),
        ("byte_orders", _named(rpc.byte_orders)),
        ("log_levels", _named(rpc.log_levels)),
        ("claim", _obj([("name", json.dumps(cb["claim"]["name"])),
                        ("signature", json.dumps(cb["claim"]["signature"])),
                        ("signature_slots",
                         str(cb["claim"]["signature_slots"]))])),
        ("runner", _obj([("name", json.dumps(cb["runner"]["name"])),
                         ("signature", json.dumps(cb["runner"]["signature"]))])),
        ("released", str(cb["released"])),
        ("layouts", _layouts(rpc.layouts, rpc.header_bytes)),
        ("answers", _layouts(rpc.answers, rpc.header_bytes)),
        ("sections", _sections(rpc.layouts)),
        ("entries", _entries(rpc.layouts)),
        ("answer_entries", _entries(rpc.answers)),
        ("bound_marker", json.dumps(rpc.bound_marker))])


def emit(abi):
    src = Source(indent="  ")
    src.lines("""
        // nccc/abi.mjs: the nccc ABI's facts (docs/ABI.md), generated from
        // idl/abi.json by stubgen/abi (python3 -m stubgen.abi --write); do
        // not edit. Integers past 2^53 are BigInts.
        """)
    with src.block("const abi = {", "};"):
        with src.block("codes: {", "},"):
            for c in abi.codes:
                src.line("%s: %s," % (json.dumps(c.code), _code(c)))
        src.line("in_codes: %s," % json.dumps(abi.in_codes()))
        src.line("value_codes: %s," % json.dumps(abi.value_codes()))
        src.line("out_codes: %s," % json.dumps(abi.out_codes()))
        src.line("grammar: %s," % _obj(
            (role, json.dumps(c)) for role, c in abi.grammar_chars()))
        src.line("// the native cores' items: the marks before an item, and "
                 "what slow takes")
        src.line("// in place of an argument number to raise a call's other "
                 "errors")
        src.line("items: %s," % _obj([
            ("nonnull", json.dumps(abi.items.nonnull)),
            ("helper", json.dumps(abi.items.helper)),
            ("helper_keys", _obj((k.name, str(k.value))
                                 for k in abi.items.helper_keys))]))
        src.line("// what a generated wrapper refuses itself: argument kinds, "
                 "and the statuses")
        src.line("// it leaves as the last error")
        src.line("refusals: %s," % _obj([
            ("kinds", json.dumps(abi.refusal_kinds)),
            ("statuses", json.dumps(abi.refusal_statuses))]))
        src.line("max_slots: %d," % abi.max_slots)
        src.line("slots_variable: %d," % abi.slots_variable)
        src.line("handle: %s," % _obj(
            (k, str(v)) for k, v in sorted(abi.handle.items())))
        src.line("status: %s," % _obj(
            (s.name, str(s.value)) for s in abi.status))
        src.line("status_text: %s," % _obj(
            (str(s.value), json.dumps(s.text)) for s in abi.status))
        with src.block("builtins: [", "],"):
            for b in abi.builtins:
                src.line(_builtin(b) + ",")
        src.line("builtin: %s," % _obj(
            (b.name, str(b.index)) for b in abi.builtins))
        src.line("scopes: %s," % _obj(
            (s.name, str(s.value)) for s in abi.scopes))
        src.line("closure_flags: %s," % _obj(
            (f.name, str(f.value)) for f in abi.closure_flags))
        src.line("closure_target_signature: %s,"
                 % json.dumps(abi.closure_target_signature))
        src.line("builtins_module: %s," % json.dumps(abi.builtins_module))
        src.line("// the targets a signature may differ on, in the order of "
                 "a module's entries")
        src.line("targets: [%s]," % ", ".join(_obj([
            ("data_model", json.dumps(t.data_model)),
            ("char_signed", json.dumps(t.char_signed))])
            for t in abi.targets))
        src.line("// '*' sides an argument sizes, by qualified function name")
        with src.block("sized: {", "},"):
            for name, rest in sorted(abi.sized().items()):
                src.line("%s: %s," % (json.dumps(name), _rest(rest)))
        src.line("packed: %s," % _obj([
            ("module", json.dumps(abi.packed.module)),
            ("flags", _obj((f.name, str(f.value))
                           for f in abi.packed.flags)),
            ("type_codes", _obj((t.name, str(t.value))
                                for t in abi.packed.type_codes))]))
        src.line("type_kinds: %s," % _obj(
            (str(t.value), json.dumps(t.name)) for t in abi.type_kinds))
        src.line("rpc: %s," % _rpc(abi.rpc))
    src.line("export default abi;")
    return str(src)
