"""Callback types: typedefs of function (pointer) types with a [context]
parameter or a pool of [thunks=N] (docs/CALLBACKS.md)."""

from stubgen.model.values import SlotIndex, Slotted, ValueInfo

SCOPES = ("call", "async", "notified", "forever")

# Thunks a pool may have (each is a generated function).
MAX_THUNKS = 4096


class CallbackType(Slotted):
    """A callback typedef: a function (pointer) type with a [context]
    parameter, or without one and with a pool of [thunks=N]. Its
    backward wrapper calls the closure's target with in[0] = the
    environment word, then in_slots (indices from 1; the context
    parameter takes none), and reads out_slots (return value, [out] and
    [inout] values, errno for [errno]) like a forward wrapper's.
    members: the member indices some function uses it as (a backward
    wrapper per member); used: a function takes it."""

    def __init__(self, pos, name, decl, ftype, params):
        self.pos = pos
        self.name = name
        self.decl = decl            # the TypedefDecl
        self.ftype = ftype          # its FuncType
        self.ret = ftype.ret
        self.ret_info = ValueInfo()
        self.params = params        # Param, in C order (context included)
        self.context = None         # the [context] Param, or None
        # [context=FN] on a parameter: the context is FN(that parameter),
        # which still takes its slot; the C name of FN, else None
        self.context_from = None
        self.context_from_pos = None
        self.thunks = None          # pool size when it has no context
        self.errno = False
        self.lasterror = False      # [lasterror]: SetLastError after
        self.windows = False        # [windows]: a Windows API's type
        self.in_slots = []
        self.out_slots = []
        self.n_in = SlotIndex()     # slots after env
        self.n_out = SlotIndex()
        self.members = set()
        self.used = False


class ClosureMember:
    """A member of a closure set: name, pos, callback (its CallbackType),
    index (its member index in the set's group)."""

    def __init__(self, name, pos, callback, index):
        self.name = name
        self.pos = pos
        self.callback = callback
        self.index = index


class ClosureSet:
    """closures NAME(OWNER) { members }: callbacks that C functions
    register one by one on an owning object (parameters marked
    [closures=NAME]) and that all get, as their context, the user data
    another function sets on that owner (its parameter marked
    [context=NAME]); one closure group per owner, member k the k-th
    member. owner: the owner's type; destructors: the registry names of
    the functions that free an owner (the [owned(FN)] of results of the
    owner's type), filled once every function is known."""

    def __init__(self, pos, name, owner, members):
        self.pos = pos
        self.name = name
        self.owner = owner
        self.members = members
        self.destructors = []

    def member(self, name):
        for m in self.members:
            if m.name == name:
                return m
        return None
