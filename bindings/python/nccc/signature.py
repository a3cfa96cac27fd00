"""Signature strings (docs/ABI.md) parsed by the codes and grammar of
nccc.abi, and turned into the primitive's slot specs (docs/PYTHON.md,
"The primitive"): one letter per item, '!' before a non-NULL one."""

from nccc import abi
from nccc.errors import Error

G = abi.GRAMMAR
RECORD = G["record_open"]
VARIADIC = G["variadic"]
TYPE_NAME = {VARIADIC: "slot", RECORD: "struct"}
TYPE_NAME.update({c: info.name for c, info in abi.CODES.items()})


class Item:
    """One item of a signature side: its code (RECORD for a record, with
    its type name), the layout and slot count once sized."""
    __slots__ = ("code", "name", "slots", "layout")

    def __init__(self, code, name=None, slots=1):
        self.code, self.name, self.slots, self.layout = code, name, slots, None


def _side(sig, text, ok_field):
    items, var, i = [], False, 0
    while i < len(text):
        c = text[i]
        if c == RECORD:
            close = text.find(G["record_close"], i)
            inner = text[i + 1:close] if close > 0 else ""
            name, _, count = inner.partition(G["record_count"])
            if close < 0 or not name.isidentifier() or \
                    (count and not count.isdigit()):
                raise Error("malformed signature '%s'" % sig)
            items.append(Item(RECORD, name, int(count) if count else None))
            i = close + 1
        elif c == VARIADIC and i == len(text) - 1:
            var, i = True, i + 1
        elif c in abi.CODES and getattr(abi.CODES[c], ok_field):
            items.append(Item(c))
            i += 1
        else:
            raise Error("malformed signature '%s': unexpected '%s'" % (sig, c))
    return items, var


def parse(sig):
    """(ins, var_in, outs, var_out) of a signature string."""
    if not isinstance(sig, str) or G["separator"] not in sig:
        raise Error("malformed signature %r" % (sig,))
    left, _, right = sig.partition(G["separator"])
    ins, var_in = _side(sig, left, "in_ok")
    outs, var_out = _side(sig, right, "out_ok")
    return ins, var_in, outs, var_out


def size_side(items, find_layout, label):
    """Gives each record item its layout and slot count; the side's
    slots."""
    n = 0
    for item in items:
        if item.code == RECORD:
            layout = find_layout(item.name)
            if layout is None:
                raise Error("%s: unknown type '%s' in its signature"
                            % (label, item.name))
            item.layout = layout
            item.slots = layout.slots
        n += item.slots
    return n


def letter(item, nonnull=False, word=False):
    """The primitive's spec letter of an item: word=True when only the
    support library converts it (closures, owned results)."""
    info = abi.CODES.get(item.code)
    if item.code == RECORD:
        s = "x%d" % max(item.slots, 1)
    elif word or info.kind == "closure":
        s = "w"
    elif info.kind == "bool":
        s = "?"
    elif info.kind in ("int", "errno"):
        s = "%s%d" % ("i" if info.signed else "u", info.bits)
    elif info.kind == "float":
        s = "f" if info.bytes == 4 else "d"
    elif info.kind == "string":
        s = "z"
    else:
        s = "p"
    return ("!" if nonnull else "") + s


def spec(items, var=False, nonnull=(), words=()):
    """The spec string of a side; nonnull and words hold 1-based item
    positions."""
    text = "".join(letter(it, k in nonnull, k in words)
                   for k, it in enumerate(items, 1))
    return text + ("*" if var else "")
