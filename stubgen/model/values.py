"""Values and slots: what the annotations say about a value (ValueInfo),
slot positions (SlotIndex), one value in in[] or out[] (Slot), what has
slots and a signature (Slotted) and a parameter (Param)."""

from stubgen.ctype import TARGET_CODES


class ValueInfo:
    """What the annotations say about one value (a parameter, the value an
    [out]/[inout] parameter points to, a return value or a field)."""

    def __init__(self):
        self.string = False         # NUL-terminated char string
        self.bytes = False          # a byte buffer ([bytes])
        self.fills = False          # a buffer a callback fills ([out])
        self.kept = None            # [kept=OWNER]: the owner's name
        self.zero_terminated = False
        self.length = None          # name of the parameter/field
        self.size = None            # int, or the C text of a constant
        self.nullable = None        # True, False (nonnull) or None
        self.owned = None           # registry name of the destructor
        self.owned_pos = None

    def as_dict(self):
        """The annotations that say something (for hosts and tests)."""
        return {k: v for k, v in vars(self).items()
                if k != "owned_pos" and v is not None
                and (v is not False or k == "nullable")}


class SlotIndex:
    """fixed + the sum of NCCC_SLOTS(sizeof(t)) over records."""

    def __init__(self, fixed=0, records=()):
        self.fixed = fixed
        self.records = tuple(records)

    def plus(self, slot_type):
        """The index after a value of slot_type: one slot, or the
        record's slots."""
        if slot_type is None:
            return SlotIndex(self.fixed + 1, self.records)
        return SlotIndex(self.fixed, self.records + (slot_type,))

    @property
    def constant(self):
        """The index as an int when no sizeof is involved, else None."""
        return None if self.records else self.fixed

    def __eq__(self, other):
        return (isinstance(other, SlotIndex) and self.fixed == other.fixed
                and [r.spell() for r in self.records]
                == [r.spell() for r in other.records])

    def __repr__(self):
        parts = [str(self.fixed)] if self.fixed or not self.records else []
        parts += ["slots(%s)" % r.spell() for r in self.records]
        return "+".join(parts)


class Slot:
    """One value in in[] or out[]. role: in[]: "target" (the function
    pointer of a [function_pointer] function), "arg", "inout"; out[]:
    "return", "out", "inout", "errno". type: the C type of the value
    (the pointee for [out]/[inout]). record: the type when the value is a
    struct or union taking NCCC_SLOTS(sizeof) slots, else None."""

    def __init__(self, role, name, param, type_, code, index, info):
        self.role, self.name, self.param = role, name, param
        self.type, self.code, self.index, self.info = type_, code, index, info
        self.record = type_ if type_ is not None and \
            type_.kind in ("struct", "union") else None
        self.callbacks = []

    def __repr__(self):
        return "Slot(%s %s %s @%r)" % (self.role, self.name, self.code,
                                      self.index)


class Slotted:
    """What has in_slots and out_slots: a function, or a callback type
    (whose in_slots start after in[0], the environment word)."""

    @property
    def sig_in(self):
        return [s.code for s in self.in_slots]

    @property
    def sig_out(self):
        return [s.code for s in self.out_slots]

    def signature(self, data_model="LP64"):
        """The signature string with the target-dependent codes given for
        one data model (a name of stubgen.ctype.DATA_MODELS)."""
        def letters(codes):
            return "".join(TARGET_CODES[c][data_model]
                           if c in TARGET_CODES else c for c in codes)
        return letters(self.sig_in) + ":" + letters(self.sig_out)


class Param:
    def __init__(self, pos, index, name, type_, direction, info):
        self.pos = pos
        self.index = index          # 0-based position in the C call
        self.name = name            # None when unnamed
        self.type = type_           # declared type, arrays decayed
        self.direction = direction  # "in", "out" or "inout"
        self.info = info
        self.in_slot = None
        self.out_slot = None
        self.anns = {}              # annotation name -> (value, pos)
        # callbacks (docs/IDL.md, "Callbacks"): on a callback parameter,
        # its CallbackType, scope, context parameter (None for a thunk
        # type), member index in that context's group and destroy-notify
        # parameter; on a context parameter, the callbacks it carries; on
        # a destroy notify, the context parameter it releases
        self.callback = None
        self.scope = None
        self.context = None
        self.member = 0
        self.destroy = None
        self.carries = []
        self.destroys = None
        self.is_context = False     # the [context] parameter of a callback
        # closure sets: on a [closures=NAME] callback parameter and on a
        # [context=NAME] parameter naming a set, the ClosureSet and the
        # parameter of its owner's type (member is the set's member index)
        self.closures = None
        self.owner = None

    @property
    def label(self):
        return "'%s'" % self.name if self.name else \
            "parameter %d" % (self.index + 1)

    @property
    def pointee(self):
        return self.type.resolved().target
