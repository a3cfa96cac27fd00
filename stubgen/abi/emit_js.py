"""bindings/js/nccc/abi.mjs: the ABI's facts as one JavaScript
object (an ES module's default export)."""

import json

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


def _builtin(b):
    pairs = [("index", str(b.index)), ("name", json.dumps(b.name)),
             ("signature", json.dumps(b.signature)), ("n_in", str(b.n_in)),
             ("n_out", str(b.n_out))]
    if b.rest is not None:
        pairs.append(("rest", _obj([
            ("arg", str(b.rest.arg)), ("per", json.dumps(b.rest.per)),
            ("mul", str(b.rest.mul)), ("div", str(b.rest.div)),
            ("out", json.dumps(b.rest.out))])))
    return _obj(pairs)


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
        ("messages", _named(rpc.messages)),
        ("byte_orders", _named(rpc.byte_orders)),
        ("log_levels", _named(rpc.log_levels)),
        ("claim", _obj([("name", json.dumps(cb["claim"]["name"])),
                        ("signature", json.dumps(cb["claim"]["signature"]))])),
        ("runner", _obj([("name", json.dumps(cb["runner"]["name"])),
                         ("signature", json.dumps(cb["runner"]["signature"]))])),
        ("released", str(cb["released"])),
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
        src.line("type_kinds: %s," % _obj(
            (str(t.value), json.dumps(t.name)) for t in abi.type_kinds))
        src.line("rpc: %s," % _rpc(abi.rpc))
    src.line("export default abi;")
    return str(src)
