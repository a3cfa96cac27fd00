"""The native cores' item format (idl/abi.json, items) for C: the
section nccc/abi.h has, and bindings/python/core/nccc_items.h, the same
section with the codes for Python's C extension, which is built from
its own folder (pip) without the runtime's headers."""

from stubgen.source import Source

HEADER = "bindings/python/core/nccc_items.h"


def section(src, abi, char):
    """The item marks and the helper keys, as C: what nccc/abi.h and
    nccc_items.h both say."""
    src.line("/* ---- the native cores' items (docs/ABI.md, \"Core items\")"
             " ---- */")
    src.blank()
    src.line("/* Marks before an item: a zero slot is the helper's to "
             "refuse; the")
    src.line("** helper converts the item both ways. */")
    src.line("#define NCCC_ABI_ITEM_NONNULL %s" % char(abi.items.nonnull))
    src.line("#define NCCC_ABI_ITEM_HELPER %s" % char(abi.items.helper))
    src.line("/* What slow(k, v) takes in place of an argument number k to "
             "raise")
    src.line("** one of the call's other errors. */")
    keys = abi.items.helper_keys
    with src.block("typedef enum nccc_helper_key {", "} nccc_helper_key;"):
        for k, key in enumerate(keys):
            src.line("NCCC_HELPER_%s = %d%s /* %s */" % (
                key.name.upper(), key.value, "," if k + 1 < len(keys) else "",
                key.doc))
    src.blank()


def emit(abi):
    from stubgen.abi.emit_c import _char
    src = Source(indent="  ")
    src.lines("""
        /*
        ** nccc_items.h — the slot items nccc._core takes (docs/ABI.md,
        ** "Core items"): the signature codes it converts, the grammar of a
        ** side, the item marks and the helper keys.
        **
        ** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
        ** --write); do not edit.
        */
        #ifndef NCCC_ITEMS_H
        #define NCCC_ITEMS_H
        """)
    src.blank()
    src.line("/* NCCC_ITEM_CODES(X): X(CODE, KIND, BYTES, SIGNED); KIND is "
             "BOOL INT FLOAT")
    src.line("** POINTER STRING FUNCTION CLOSURE or ERRNO; BYTES 0 means "
             "pointer-sized. */")
    src.line("#define NCCC_ITEM_CODES(X) \\")
    for k, c in enumerate(abi.codes):
        tail = " \\" if k + 1 < len(abi.codes) else ""
        src.line("  X(%s, %s, %d, %d)%s" % (_char(c.code), c.kind.upper(),
                                           c.bytes, int(c.signed), tail))
    src.blank()
    for role, c in abi.grammar_chars():
        if role != "separator":
            src.line("#define NCCC_ABI_SIG_%s %s" % (role.upper(), _char(c)))
    src.blank()
    section(src, abi, _char)
    src.line("#endif")
    return str(src)
