"""A function's slots as its binding record gives them, for the Rust
emitter: each argument's and result's name, type text and role (the
record's `params` and `results`, docs/BINDING.md "A function"), its
signature code, its argument position, and its index in the slot buffer
(fixed slots plus the slots of the records by value before it)."""

from stubgen.abi import load as load_abi

_ABI = load_abi()


class Index:
    """fixed + the slots of the records named, as slot_at prints it."""

    def __init__(self, fixed=0, records=()):
        self.fixed, self.records = fixed, tuple(records)

    def plus(self, record):
        """The index after a value: one slot, or record's slots."""
        if record is None:
            return Index(self.fixed + 1, self.records)
        return Index(self.fixed, self.records + (record,))


class Slot:
    """One value of the slot buffers: name, type (text), role, code,
    record (the name of a struct or union by value), position and index."""

    def __init__(self, desc, code, position, index, plain):
        self.name = desc.get("name")
        self.type = desc["type"]
        self.role = desc.get("role", plain)
        self.code = code
        self.record = self.type[1:-1] if self.type.startswith("{") else None
        self.position, self.index = position, index


def signature_items(side):
    """The values of one side of a signature: a code letter each, or
    "{NAME}" for a record."""
    items, k = [], 0
    close = _ABI.record_close
    while k < len(side):
        if side[k] == _ABI.record_open:
            end = side.index(close, k)
            items.append(side[k:end + 1])
            k = end + 1
        else:
            items.append(side[k])
            k += 1
    return items


def _side(descs, codes, plain, first=0):
    """The slots of one side, indexed from `first`, and their total."""
    slots, index, total = [], Index(first), Index()
    for k, (desc, code) in enumerate(zip(descs, codes)):
        slot = Slot(desc, code, k + 1, index, plain)
        slots.append(slot)
        index, total = index.plus(slot.record), total.plus(slot.record)
    return slots, total


class Slots:
    """The in and out slots of a function's or callback type's record,
    and their totals; a callback's in slots are indexed after in[0], the
    environment word its closure does not count."""

    def __init__(self, record, callback=False):
        ins, outs = record["signatures"][0].split(_ABI.separator)
        self.variable_out = outs.endswith(_ABI.variadic)
        self.ins, self.n_in = _side(record["params"], signature_items(ins), "arg",
                                    1 if callback else 0)
        self.outs, self.n_out = _side(record["results"], signature_items(outs), "return")
