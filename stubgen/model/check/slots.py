"""The checker's slot layout: slot codes, and the in[] / out[] slots of
functions and callback types."""

from stubgen.abi import load as load_abi
from stubgen.ctype import (ASSUMED_SIZES, CLOSURE_CODE, ERRNO_CODE,
                           FUNCTION_CODE, INT_CODE, LASTERROR_CODE,
                           POINTER_CODE, SCALARS,
                           STRING_CODE, Array, Enum, Pointer, Record,
                           Scalar, Void)
from stubgen.errors import IdlError
from stubgen.model.values import Slot, SlotIndex

# The most slots one side of a signature may have (idl/abi.json).
MAX_SLOTS = load_abi().max_slots


class SlotRules:
    def _code(self, t, info):
        r = t.resolved()
        if isinstance(r, Scalar):
            return r.code
        if isinstance(r, Enum):
            return INT_CODE
        if isinstance(r, Pointer):
            if r.kind == "funcptr":
                return FUNCTION_CODE
            return STRING_CODE if info.string else POINTER_CODE
        if isinstance(r, Record) and not r.decl.opaque:
            return "{%s}" % r.decl.name
        raise AssertionError("no slot code for %s" % t.spell())

    def _slots(self, f):
        idx = SlotIndex()
        ins = []
        if f.function_pointer:
            fp = Pointer(f.c_type)
            ins.append(Slot("target", "target", None, fp, FUNCTION_CODE,
                            idx, None))
            idx = idx.plus(None)
        for p in f.params:
            if p.direction == "out" or p.destroys is not None:
                continue
            if p.callback is not None and p.callback.context is not None \
                    and p.closures is None:
                continue    # its context parameter's slot carries it
            if p.carries or p.callback is not None or p.closures is not None:
                # a context, a callback without one (a thunk), a member or
                # the context of a closure set
                s = Slot("closure", p.name, p, p.type, CLOSURE_CODE, idx,
                         p.info)
                s.callbacks = list(p.carries) if p.carries else \
                    [p] if p.callback is not None else []
                p.in_slot = s
                ins.append(s)
                idx = idx.plus(None)
                self.m.uses_callbacks = True
                continue
            t = p.type if p.direction == "in" else p.pointee
            s = Slot("arg" if p.direction == "in" else "inout",
                     p.name, p, t, self._code(t, p.info), idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(s.record)
        f.in_slots, f.n_in = ins, idx
        self._out_slots(f)
        for s in ins + f.out_slots:
            if s.record is not None:
                _by_value(s.record.resolved().decl, s.param or f)
        if len(ins) > MAX_SLOTS or len(f.out_slots) > MAX_SLOTS:
            raise IdlError(f.pos, "too many slots")

    def _use(self, r):
        if isinstance(r, Scalar) and (r.name in ASSUMED_SIZES
                                      or r.name == "ptrdiff_t"):
            self.m.used_scalars.add(r.name)
        elif isinstance(r, Enum):
            self.m.used_scalars.add("int")

    def _out_slots(self, owner):
        """out[] of a function or callback type: the return value, the
        [out]/[inout] values, then errno for [errno], then the Win32
        last error for [lasterror]."""
        idx = SlotIndex()
        outs = []
        if not isinstance(owner.ret.resolved(), Void):
            s = Slot("return", "return", None, owner.ret,
                     self._code(owner.ret, owner.ret_info), idx,
                     owner.ret_info)
            outs.append(s)
            idx = idx.plus(s.record)
        for p in owner.params:
            if p.direction == "in":
                continue
            s = Slot(p.direction, p.name, p, p.pointee,
                     self._code(p.pointee, p.info), idx, p.info)
            p.out_slot = s
            outs.append(s)
            idx = idx.plus(s.record)
        if owner.errno:
            outs.append(Slot("errno", "errno", None, SCALARS["int"],
                             ERRNO_CODE, idx, None))
            idx = idx.plus(None)
        if owner.lasterror:
            outs.append(Slot("lasterror", "lasterror", None,
                             SCALARS["uint32_t"], LASTERROR_CODE, idx, None))
            idx = idx.plus(None)
        owner.out_slots, owner.n_out = outs, idx

    def _callback_slots(self, cb):
        """A callback type's slots as its backward wrapper packs them:
        in[0] is the environment word, the arguments follow (the context
        takes none); out[] as a function's (callbacks take no records)."""
        idx = SlotIndex(1)
        ins = []
        for p in cb.params:
            if p.is_context or p.direction == "out":
                continue
            t = p.type if p.direction == "in" else p.pointee
            s = Slot("arg" if p.direction == "in" else "inout", p.name, p,
                     t, self._code(t, p.info), idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(None)
        cb.in_slots, cb.n_in = ins, SlotIndex(idx.fixed - 1)
        self._out_slots(cb)


def _by_value(decl, at):
    """A record that crosses in slots by value may hold no anonymous
    member, at any depth: the wrapper copies it field by field, and an
    anonymous member has no name to copy it by."""
    for fld in decl.fields:
        if fld.anonymous:
            raise IdlError(at.pos, "%s %s has an anonymous member: pass it "
                           "by pointer, not by value" % (decl.kind,
                                                         decl.name))
        r = fld.type.resolved()
        if isinstance(r, Array):
            r = r.innermost()
        if isinstance(r, Record) and r.decl.fields is not None:
            _by_value(r.decl, at)
