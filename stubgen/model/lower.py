"""The lowering: after checking, every per-function fact an emitter needs,
computed once by one rule. The emitters (C, Lua, Scheme and host.py)
read these facts and print them; none works one out again.

lower(module) returns the module's Lowered (made on the first call, then
kept on the module as module.lowered):

  Lowered.functions   a LoweredFunction per registry entry, in order
  Lowered.callbacks   a LoweredCallback per callback type, in IDL order
  Lowered.used_callbacks  the callback types some function takes
  Lowered.records_put / records_copy  the records wrappers write to out[]
                      and, in dependency order, every record they hold
  Lowered.uses_nonnull  some wrapper refuses a NULL value
  Lowered.closure_sets  the module's closure sets (ClosureSet)

Signatures may differ by target (char signedness, the data model), so a
host entry carries either one signature or one per target of TARGETS.
"""

from functools import cached_property

from stubgen.abi import load as load_abi
from stubgen.ctype import (CHAR_CODES, FUNCTION_CODE,
                           POINTER_CODE, STRING_CODE, TARGET_CODES, VARIADIC,
                           Array, Enum, INT_CODE, Pointer, Record, Scalar,
                           code_kind)

_ABI = load_abi()

# (data model, letter of plain char): the targets a signature may differ
# on, in the ABI's order (idl/abi.json, targets)
TARGETS = tuple((t.data_model, CHAR_CODES[0 if t.char_signed else 1])
                for t in _ABI.targets)

# The kinds of the values that can be NULL: data pointer, string,
# function pointer.
_POINTER_KINDS = ("pointer", "string", "function")


def _letters(codes, target):
    dm, ch = target
    out = []
    for c in codes:
        if c == "NCCC_SIG_CHAR":
            out.append(ch)
        elif c in TARGET_CODES:
            out.append(TARGET_CODES[c][dm])
        else:
            out.append(c)
    return "".join(out)


def signatures(sig_in, sig_out):
    """[one signature] when every target has the same one, else one per
    target in TARGETS order."""
    key = (tuple(sig_in), tuple(sig_out))
    sigs = _signatures.get(key)
    if sigs is None:
        sigs = [_letters(sig_in, t) + ":" + _letters(sig_out, t)
                for t in TARGETS]
        sigs = _signatures[key] = sigs[:1] if len(set(sigs)) == 1 else sigs
    return list(sigs)


# signatures() of each pair of code lists met: most functions share theirs
_signatures = {}


class Closure:
    """A closure slot (code c) of a function: slot; params, the callback
    parameters it carries (their member order); scope (call, async,
    notified, forever); nullable: the callbacks are [nullable]; pool: the
    CallbackType when the callback has no context (a thunk of its pool is
    bound for the call), else None; destroy: the destroy-notify Param or
    None.

    A slot of a closure set (docs/IDL.md, "Closures kept by an owner")
    takes the owner's group: closures is the ClosureSet (else None),
    member the member index of a [closures=NAME] callback (None for the
    [context=NAME] parameter that hands C the group's context), owner
    the in slot of the owner's parameter; its scope is forever."""

    def __init__(self, slot):
        first = slot.callbacks[0] if slot.callbacks else None
        holder = slot.param
        self.slot = slot
        self.params = list(slot.callbacks)
        self.closures = holder.closures
        self.member = holder.member if self.closures is not None and \
            holder.callback is not None else None
        self.owner = holder.owner.in_slot if holder.owner else None
        self.scope = "forever" if first is None else first.scope
        self.nullable = _nullable_closure(slot)
        self.pool = first.callback if first is not None and \
            first.callback.context is None else None
        self.destroy = first.destroy if first is not None else None


class Owned:
    """An out slot whose value the caller owns: index (0-based in
    out_slots), slot, destructor (the registry name of the function that
    frees it), string (the value is a string: read, then freed), frees:
    the closure sets its destructor releases the groups of (set by
    Lowered)."""

    def __init__(self, index, slot):
        self.index = index
        self.slot = slot
        self.destructor = slot.info.owned
        self.string = slot.code == STRING_CODE
        self.frees = []


def _nullable_closure(slot):
    """A closure slot's callbacks are [nullable] (a closure set's context
    slot: the parameter itself)."""
    info = slot.callbacks[0].info if slot.callbacks else slot.info
    return bool(info.nullable)


def _refuses_null(slot):
    """The one nonnull rule: a pointer, string or function-pointer value
    marked [nonnull], or a closure slot whose callbacks are not
    [nullable]."""
    if slot.role == "closure":
        return not _nullable_closure(slot)
    return slot.role in ("arg", "inout") and slot.record is None and \
        slot.info is not None and slot.info.nullable is False and \
        code_kind(slot.code) in _POINTER_KINDS


def _accepts_null(slot):
    """Marked [nullable] (for a closure slot: its callbacks)."""
    if slot.role == "closure":
        return _nullable_closure(slot)
    return slot.info is not None and slot.info.nullable is True


class LoweredFunction:
    """The facts of one function, in the terms the emitters print:

    function      the model's Function (name, c_name, params, flags)
    name          its registry name
    in_slots, out_slots  the model's slots
    signatures    one signature, or one per TARGETS
    extra_out     the out side ends in '*' (raw slots past the fixed ones)
    nonnull       in slots refused when NULL (_refuses_null), in order
    nonnull_values  those of them that are values, not closures (the C
                  wrapper's NCCC_NONNULL_REQUIRE; closures have their own
                  check)
    nullable      in slots marked [nullable], in order
    closures      a Closure per closure slot, in order
    owned         an Owned per out slot of an owned pointer or string
    owned_return  the Owned of the return value, or None
    owned_out_strings  the Owned strings of [out]/[inout] parameters past
                  the first out slot (read, then freed at once)
    thunks        the callback types without a context it binds a thunk
                  of, each once, in order
    frees         the closure sets whose owner it frees (a destructor
                  named by [owned(FN)]): after it returns, a host releases
                  the owner's group (its one in slot is the owner)
    set_closures  the closures of closure sets, in order
    values        what its pointer arguments with a [length], [size] or
                  [zero_terminated] hold (per_target_values)
    kept          (slot, owner slot) per [kept=OWNER] argument: the
                  library keeps it after the call, for as long as the
                  owner lives
    """

    def __init__(self, f):
        self.function = f
        self.name = f.name
        self.in_slots = f.in_slots
        self.out_slots = f.out_slots
        self.extra_out = bool(f.sig_out) and f.sig_out[-1] == VARIADIC
        self.nonnull = [s for s in f.in_slots if _refuses_null(s)]
        self.nonnull_values = [s for s in self.nonnull
                               if s.role != "closure"]
        self.nullable = [s for s in f.in_slots if _accepts_null(s)]
        self.closures = [Closure(s) for s in f.in_slots
                         if s.role == "closure"]
        self.owned = [Owned(j, s) for j, s in enumerate(f.out_slots)
                      if s.info is not None and s.info.owned
                      and s.code in (POINTER_CODE, STRING_CODE)]
        self.owned_return = next((o for o in self.owned
                                  if o.slot.role == "return"), None)
        self.owned_out_strings = [o for o in self.owned
                                  if o.index > 0 and o.string]
        self.frees = []
        self.set_closures = [c for c in self.closures
                             if c.closures is not None]
        self.values = per_target_values(f)
        by_name = {s.param.name: s for s in f.in_slots
                   if s.param is not None}
        self.kept = [(s, by_name[s.info.kept]) for s in f.in_slots
                     if s.info is not None and s.info.kept is not None]
        self.thunks = []
        for c in self.closures:
            if c.pool is not None and c.pool not in self.thunks:
                self.thunks.append(c.pool)

    @cached_property
    def signatures(self):
        """Made on the first read (the C emitter needs none)."""
        f = self.function
        return signatures(f.sig_in, f.sig_out)

    def position(self, slot):
        """The 1-based position of an in slot in the call (a
        [function_pointer] target is position 1)."""
        return self.in_slots.index(slot) + 1

    def closure(self, param):
        """The Closure whose slot is param's (a context parameter, or a
        callback parameter without a context)."""
        for c in self.closures:
            if c.slot.param is param:
                return c
        raise KeyError(param.name)


class LoweredCallback:
    """A callback type: callback (the model's CallbackType), name,
    signatures (one, or one per TARGETS; after in[0]), values: what its
    pointer arguments with a [length], [size] or [zero_terminated] hold,
    for hosts to hand their procedures strings and arrays
    (per_target_values);
    types: the type a typed closure of each signature records
    (idl/abi.json, closure_type), which its backward wrappers and thunks
    compare."""

    def __init__(self, cb):
        self.callback = cb
        self.name = cb.name
        self.signatures = signatures(cb.sig_in, cb.sig_out)
        self.values = per_target_values(cb)
        self.types = [_ABI.closure_type(s) for s in self.signatures]


def _element(elem, target):
    """(code, stride in bytes) of an array element type on target, or
    None for an element hosts do not read (a record)."""
    dm = target[0]
    if isinstance(elem, Pointer):
        t = elem.target.resolved()
        code = FUNCTION_CODE if elem.kind == "funcptr" else STRING_CODE \
            if isinstance(t, Scalar) and t.name == "char" and t.is_const \
            else POINTER_CODE
        bits = TARGET_CODES["NCCC_SIG_INTPTR"][dm]
        return code, _ABI.code(bits).bytes
    if isinstance(elem, Enum):
        return INT_CODE, _ABI.code(INT_CODE).bytes
    if isinstance(elem, Scalar):
        code = _letters([elem.code], target)
        return code, _ABI.code(code).bytes
    return None


def value_descriptions(slotted, target):
    """What the pointer arguments of slotted (a function or callback
    type) with a [length], a numeric [size] or [zero_terminated] hold on
    target (docs/BINDING.md, "Value descriptions"): per such argument
    (position k from 1, in slots; a callback's after in[0]) a dict
    {"arg": k, "kind": "string", "count": COUNT} for a char string (or a
    [string] of signed or unsigned char), {"arg": k, "kind": "bytes",
    "count": COUNT} for a [bytes] buffer, or {"arg": k, "kind": "array",
    "code": CODE, "stride": BYTES, "count": COUNT} for elements of slot
    code CODE, BYTES apart; with "fill": true when a callback fills it
    ([out, length=N]). COUNT is {"arg": j} (the value of argument j),
    {"fixed": n} or {"zero_terminated": true}."""
    out = []
    args = {s.param: k for k, s in enumerate(slotted.in_slots, 1)
            if s.param is not None}
    by_name = {p.name: p for p in slotted.params if p.name}
    for k, s in enumerate(slotted.in_slots, 1):
        info = s.info
        if s.code != POINTER_CODE or info is None or s.role != "arg":
            continue
        length = by_name.get(info.length)
        if length is not None and length in args:
            count = {"arg": args[length]}
        elif isinstance(info.size, int):
            count = {"fixed": info.size}
        elif info.zero_terminated:
            count = {"zero_terminated": True}
        else:
            continue
        elem = s.type.resolved().target.resolved()
        fill = {"fill": True} if info.fills else {}
        if info.bytes:
            out.append(dict({"arg": k, "kind": "bytes", "count": count},
                            **fill))
            continue
        if isinstance(elem, Scalar) and (elem.name == "char" or
                                         info.string) and \
                "zero_terminated" not in count:
            out.append(dict({"arg": k, "kind": "string", "count": count},
                            **fill))
            continue
        e = _element(elem, target)
        if e is not None:
            out.append(dict({"arg": k, "kind": "array", "code": e[0],
                             "stride": e[1], "count": count}, **fill))
    return out


def per_target_values(slotted):
    """The value descriptions of slotted: [] when it has none, [one
    list] when every target agrees, else one list per TARGETS."""
    descs = [value_descriptions(slotted, t) for t in TARGETS]
    if not descs[0]:
        return []
    return descs[:1] if all(d == descs[0] for d in descs) else descs


class Lowered:
    """The lowering of a Module (see the module docstring)."""

    def __init__(self, module):
        self.module = module
        self.functions = [LoweredFunction(f) for f in module.functions]
        self.callbacks = [LoweredCallback(c) for c in module.callbacks]
        self._lowered_callback = {lc.callback: lc for lc in self.callbacks}
        self.used_callbacks = [c for c in module.callbacks if c.used]
        self.uses_nonnull = any(lf.nonnull_values for lf in self.functions)
        self.records_put, self.records_copy = _record_order(module)
        self.closure_sets = module.closure_sets
        for cs in module.closure_sets:
            for lf in self.functions:
                if lf.name in cs.destructors:
                    lf.frees.append(cs)
                for o in lf.owned:
                    if o.destructor in cs.destructors and \
                            cs not in o.frees:
                        o.frees.append(cs)

    def callback(self, cb):
        """The LoweredCallback of the model's CallbackType cb."""
        return self._lowered_callback[cb]

    def function(self, name):
        for lf in self.functions:
            if lf.name == name:
                return lf
        raise KeyError(name)


def held_record(fld):
    """The RecordDecl a field holds by value (itself or as the elements
    of an array), or None."""
    r = fld.type.resolved()
    if isinstance(r, Array):
        r = r.innermost()
    if isinstance(r, Record) and r.decl.fields is not None and \
            r.decl.c_name is not None:
        return r.decl
    return None   # a record defined in place is copied with its member


def _record_order(module):
    """(put, copy): the records some wrapper writes to out[], first use
    first; those and every record they hold by value, a record after the
    ones it holds."""
    put = []
    for f in module.functions:
        for s in f.out_slots:
            if s.record is not None:
                d = s.record.resolved().decl
                if d not in put:
                    put.append(d)
    copy = []

    def visit(d):
        if d in copy:
            return
        if d.kind == "struct":
            for fld in d.fields:
                held = held_record(fld)
                if held is not None:
                    visit(held)
        copy.append(d)

    for d in put:
        visit(d)
    return put, copy


def lower(module):
    """The module's Lowered, computed on the first call."""
    lowered = getattr(module, "lowered", None)
    if lowered is None:
        lowered = module.lowered = Lowered(module)
    return lowered
