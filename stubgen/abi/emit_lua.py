"""bindings/lua/nccc/abi.lua: the ABI's facts as one Lua table."""

from stubgen.source import Source

MODULE = "bindings/lua/nccc/abi.lua"


def _str(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


_KEYWORDS = set("""and break do else elseif end false for function goto if in
    local nil not or repeat return then true until while""".split())


def _key(name):
    """A table key: bare where Lua allows it (not a keyword)."""
    if name.isidentifier() and name not in _KEYWORDS:
        return name
    return "[%s]" % _str(name)


def _int(v):
    """An integer as Lua: beyond a Lua 5.4 / LuaJIT-safe integer (2^53)
    it is written as a string, which the host converts itself."""
    return str(v) if abs(v) <= 2 ** 53 else _str(str(v))


def _code(c):
    fields = ["name = %s" % _str(c.name), "kind = %s" % _str(c.kind),
              "bytes = %d" % c.bytes, "signed = %s" % str(c.signed).lower(),
              "in_ok = %s" % str(c.in_ok).lower(),
              "out_ok = %s" % str(c.out_ok).lower()]
    if c.min is not None:
        fields += ["bits = %d" % c.bits, "min = %s" % _int(c.min),
                   "max = %s" % _int(c.max)]
    return "[%s] = {%s}," % (_str(c.code), ", ".join(fields))


def _rest_table(rest):
    return ("{arg = %d, per = %s, mul = %d, div = %d, out = %s}"
            % (rest.arg, _str(rest.per), rest.mul, rest.div,
               str(rest.out).lower()))


def _rest(rest):
    return "" if rest is None else ", rest = " + _rest_table(rest)


def emit(abi):
    src = Source(indent="  ")
    src.lines("""
        -- nccc/abi.lua: the nccc ABI's facts (docs/ABI.md), generated from
        -- idl/abi.json by stubgen/abi (python3 -m stubgen.abi --write); do
        -- not edit. Integers past 2^53 are strings.
        """)
    with src.block("return {", "}"):
        with src.block("codes = {", "},"):
            for c in abi.codes:
                src.line(_code(c))
        src.line("code_chars = %s," % _str("".join(c.code for c in abi.codes)))
        src.line("in_codes = %s," % _str(abi.in_codes()))
        src.line("value_codes = %s," % _str(abi.value_codes()))
        src.line("out_codes = %s," % _str(abi.out_codes()))
        src.line("grammar = {%s}," % ", ".join(
            "%s = %s" % (role, _str(c)) for role, c in abi.grammar_chars()))
        src.line("-- the native cores' items: the marks before an item, and "
                 "what slow takes")
        src.line("-- in place of an argument number to raise a call's other "
                 "errors")
        src.line("items = {nonnull = %s, helper = %s, helper_keys = {%s}},"
                 % (_str(abi.items.nonnull), _str(abi.items.helper),
                    ", ".join("%s = %d" % (k.name, k.value)
                              for k in abi.items.helper_keys)))
        src.line("-- what a generated wrapper refuses itself: argument kinds, "
                 "and the statuses")
        src.line("-- it leaves as the last error")
        src.line("refusals = {kinds = {%s}, statuses = {%s}},"
                 % (", ".join(_str(k) for k in abi.refusal_kinds),
                    ", ".join(_str(st) for st in abi.refusal_statuses)))
        src.line("max_slots = %d," % abi.max_slots)
        src.line("slots_variable = %d," % abi.slots_variable)
        src.line("handle = {%s}," % ", ".join(
            "%s = %d" % kv for kv in sorted(abi.handle.items())))
        with src.block("status = {", "},"):
            for s in abi.status:
                src.line("%s = %d," % (s.name, s.value))
        with src.block("status_text = {", "},"):
            for s in abi.status:
                src.line("[%d] = %s," % (s.value, _str(s.text)))
        src.line("-- rest: a '*' side's size: argument arg (0-based) holds n, "
                 "and the side")
        src.line("-- takes ceil(n * mul / div) slots; out: it is the out side")
        with src.block("builtins = {", "},"):
            for b in abi.builtins:
                src.line("{index = %d, name = %s, signature = %s, n_in = %d,"
                         " n_out = %d%s}," % (b.index, _str(b.name),
                                              _str(b.signature), b.n_in,
                                              b.n_out, _rest(b.rest)))
        with src.block("builtin = {", "},"):
            for b in abi.builtins:
                src.line("%s = %d," % (_key(b.name), b.index))
        src.line("scopes = {%s}," % ", ".join(
            "%s = %d" % (s.name, s.value) for s in abi.scopes))
        for f in abi.closure_flags:
            src.line("closure_%s = %d," % (f.name, f.value))
        src.line("closure_target_signature = %s,"
                 % _str(abi.closure_target_signature))
        src.line("-- the targets a signature may differ on, in the order of "
                 "a module's entries")
        src.line("targets = {%s}," % ", ".join(
            "{data_model = %s, char_signed = %s}"
            % (_str(t.data_model), str(t.char_signed).lower())
            for t in abi.targets))
        src.line("-- '*' sides an argument sizes, by qualified function name")
        with src.block("sized = {", "},"):
            for name, rest in sorted(abi.sized().items()):
                src.line("[%s] = %s," % (_str(name), _rest_table(rest)))
        src.line("builtins_module = %s," % _str(abi.builtins_module))
        src.line("packed = {module = %s, flags = {%s}, type_codes = {%s}},"
                 % (_str(abi.packed.module),
                    ", ".join("%s = %d" % (f.name, f.value)
                              for f in abi.packed.flags),
                    ", ".join("%s = %d" % (_key(t.name), t.value)
                              for t in abi.packed.type_codes)))
        src.line("-- %s" % "the constant of modules bound from a device "
                 "(docs/RPC.md)")
        src.line("rpc_bound_marker = %s," % _str(abi.rpc.bound_marker))
        src.line("type_kinds = {%s}," % ", ".join(
            "[%d] = %s" % (t.value, _str(t.name)) for t in abi.type_kinds))
    return str(src)
