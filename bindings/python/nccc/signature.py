"""Signature strings (docs/ABI.md) parsed by the codes and grammar of
nccc.abi, and turned into the primitive's slot specs: the native cores'
item format (docs/ABI.md, "Core items")."""

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


def item(it, nonnull=False, helper=False):
    """One item in the native cores' format (docs/ABI.md, "Core items"):
    its code, or a record's size in bytes, after the marks nonnull and
    helper (the support library converts it: closures, owned results)."""
    marks = (abi.ITEM_NONNULL if nonnull else "") + \
        (abi.ITEM_HELPER if helper else "")
    if it.code == RECORD:
        return "%s%s%d%s" % (marks, RECORD, max(it.layout.size, 1),
                             G["record_close"])
    return marks + it.code


def spec(items, var=False, nonnull=(), helpers=()):
    """The spec of a side for the primitive; nonnull and helpers hold
    1-based item positions."""
    text = "".join(item(it, k in nonnull, k in helpers)
                   for k, it in enumerate(items, 1))
    return text + (VARIADIC if var else "")
