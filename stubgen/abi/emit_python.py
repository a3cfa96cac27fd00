"""bindings/python/nccc/abi.py: the ABI's facts as one Python module."""

from stubgen.source import Source

MODULE = "bindings/python/nccc/abi.py"


def _code(c):
    fields = ["name=%r" % c.name, "kind=%r" % c.kind, "bytes=%d" % c.bytes,
              "signed=%r" % c.signed, "in_ok=%r" % c.in_ok,
              "out_ok=%r" % c.out_ok]
    if c.min is not None:
        fields += ["bits=%d" % c.bits, "min=%d" % c.min, "max=%d" % c.max]
    else:
        fields += ["bits=None", "min=None", "max=None"]
    return "%r: Code(%r, %s)," % (c.code, c.code, ", ".join(fields))


def _rest(rest):
    if rest is None:
        return "None"
    return "Rest(arg=%d, per=%r, mul=%d, div=%d, out=%r)" % (
        rest.arg, rest.per, rest.mul, rest.div, rest.out)


# The module's record types (namedtuples) and their fields, in the order
# the rows below write them.
_RECORD_TYPES = (("Code", "code name kind bytes signed in_ok out_ok bits min "
                          "max"),
                 ("Rest", "arg per mul div out"),
                 ("Builtin", "index name signature n_in n_out rest"),
                 ("Target", "data_model char_signed"))


def emit(abi):
    src = Source(indent="    ")
    src.lines('''
        """The nccc ABI's facts (docs/ABI.md), generated from idl/abi.json by
        stubgen/abi (python3 -m stubgen.abi --write); do not edit."""

        from collections import namedtuple
        ''')
    src.blank()
    for name, fields in _RECORD_TYPES:
        src.line("%s = namedtuple(%r, %r)" % (name, name, fields))
    src.blank()
    with src.block("CODES = {", "}"):
        for c in abi.codes:
            src.line(_code(c))
    src.line("IN_CODES = %r" % abi.in_codes())
    src.line("VALUE_CODES = %r" % abi.value_codes())
    src.line("OUT_CODES = %r" % abi.out_codes())
    with src.block("GRAMMAR = {", "}"):
        for role, c in abi.grammar_chars():
            src.line("%r: %r," % (role, c))
    src.line("# the native cores' items: the marks before an item, and what "
             "slow takes")
    src.line("# in place of an argument number to raise a call's other "
             "errors")
    src.line("ITEM_NONNULL = %r" % abi.items.nonnull)
    src.line("ITEM_HELPER = %r" % abi.items.helper)
    with src.block("HELPER_KEYS = {", "}"):
        for k in abi.items.helper_keys:
            src.line("%r: %d," % (k.name, k.value))
    src.line("# what a generated wrapper refuses itself: argument kinds, and "
             "the statuses")
    src.line("# it leaves as the last error")
    src.line("REFUSAL_KINDS = %r" % (tuple(abi.refusal_kinds),))
    src.line("REFUSAL_STATUSES = %r" % (tuple(abi.refusal_statuses),))
    src.line("MAX_SLOTS = %d" % abi.max_slots)
    src.line("SLOTS_VARIABLE = %d" % abi.slots_variable)
    with src.block("HANDLE = {", "}"):
        for k, v in sorted(abi.handle.items()):
            src.line("%r: %d," % (k, v))
    with src.block("STATUS = {", "}"):
        for s in abi.status:
            src.line("%r: %d," % (s.name, s.value))
    with src.block("STATUS_TEXT = {", "}"):
        for s in abi.status:
            src.line("%d: %r," % (s.value, s.text))
    src.line("# rest: a '*' side's size: argument arg (0-based) holds n, and "
             "the side")
    src.line("# takes ceil(n * mul / div) slots; out: it is the out side")
    with src.block("BUILTINS = [", "]"):
        for b in abi.builtins:
            src.line("Builtin(%d, %r, %r, %d, %d, %s)," % (
                b.index, b.name, b.signature, b.n_in, b.n_out, _rest(b.rest)))
    src.line("BUILTIN = {b.name: b.index for b in BUILTINS}")
    with src.block("SCOPES = {", "}"):
        for s in abi.scopes:
            src.line("%r: %d," % (s.name, s.value))
    for f in abi.closure_flags:
        src.line("CLOSURE_%s = %d" % (f.name.upper(), f.value))
    src.line("CLOSURE_TARGET_SIGNATURE = %r" % abi.closure_target_signature)
    src.line("# the targets a signature may differ on, in the order of a "
             "module's entries")
    with src.block("TARGETS = [", "]"):
        for t in abi.targets:
            src.line("Target(%r, %r)," % (t.data_model, t.char_signed))
    src.line("# '*' sides an argument sizes, by qualified function name")
    with src.block("SIZED = {", "}"):
        for name, rest in sorted(abi.sized().items()):
            src.line("%r: %s," % (name, _rest(rest)))
    src.line("BUILTINS_MODULE = %r" % abi.builtins_module)
    src.line("PACKED_MODULE = %r" % abi.packed.module)
    for f in abi.packed.flags:
        src.line("PACKED_%s = %d" % (f.name.upper(), f.value))
    with src.block("PACKED_TYPE_CODES = {", "}"):
        for t in abi.packed.type_codes:
            src.line("%r: %d," % (t.name, t.value))
    src.line("# the constant of modules bound from a device (docs/RPC.md)")
    src.line("RPC_BOUND_MARKER = %r" % abi.rpc.bound_marker)
    with src.block("TYPE_KINDS = {", "}"):
        for t in abi.type_kinds:
            src.line("%d: %r," % (t.value, t.name))
    return str(src)
