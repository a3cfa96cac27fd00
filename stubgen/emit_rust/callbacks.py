"""The Rust emitter's callbacks: a closure slot's parameters as Rust
closures (call scope: &mut dyn FnMut; the other scopes: Box<dyn FnMut +
Send>), the slot-level closure around each for the crate's dispatcher,
and the claim of them for the call (docs/RUST.md, "Callbacks"); the
slots of closure sets, kept by the crate's nccc::sets. Which arguments
are slices (and which are their counts, left out) comes from the
callback record's value descriptions (stubgen/model/binding.py)."""

from stubgen.ctype import ERRNO_CODE, STRING_CODE
from stubgen.emit_rust.slots import Slots
from stubgen.emit_rust.types import (ident, rust_str, sigs, slot_at,
                                     text_pointee, text_rust)
from stubgen.emit_rust.values import counted, counts, described, string_array
from stubgen.model.binding import callback_record
from stubgen.model.lower import LoweredCallback


class ClosureSlot:
    """A closure slot as the emitter reads it: its function record's
    closure (scope, nullable, the closure set with its owner and member,
    the names and callback types of the C parameters it carries) with
    its slot (slots.py) and the owner's."""

    def __init__(self, call, record, slot):
        self.slot = slot
        self.params = list(zip(record.get("names", ()), record["callbacks"]))
        self.scope = record["scope"]
        self.nullable = record.get("nullable", False)
        s = record.get("set")
        self.set_name = s["name"] if s else None
        self.member = s.get("member") if s else None
        self.owner = call.slots.ins[s["owner"] - 1] if s else None


def closure_params(call, closure):
    """The callbacks of one closure slot: one closure parameter each,
    claimed together (a group when several share the context)."""
    heap = closure.scope != "call"
    members = []
    for param, callback in closure.params:
        name = ident(param)
        cb = call.host.callback_records[callback]
        members.append((name, cb, _closure_param(call, closure, name, cb, heap)))
    scope = closure.scope.upper()
    raw = []
    for name, cb, n_outs in members:
        slots = Slots(cb, callback=True)
        body = _cb_body(name, cb, n_outs, heap)
        n_in, n_out = slot_at(slots.n_in), slot_at(slots.n_out)
        sig = "pick_signature(self.target, %s)" % callback_sigs(call.host, cb["name"], nul=True)
        unwrap = "%s.map(|mut %s| " % (name, name) if closure.nullable else ""
        close = ")" if closure.nullable else ""
        if heap:
            raw.append("let %s_raw: Option<nccc::callback::Callback> = %s%s(%s, %s, %s, %s)%s;"
                       % (name, unwrap, "" if closure.nullable else "Some(",
                          _boxed_slot_closure(slots, n_outs, body), n_in, n_out, sig,
                          close if closure.nullable else ")"))
        else:
            raw.append("let mut %s_fn = %s|%s: &[u64], %s: &mut [u64]| { %s }%s;"
                       % (name, unwrap, _in_name(slots), _out_name(n_outs), body, close))
            if closure.nullable:
                raw.append("let %s_entry = %s_fn.as_mut().map(|f| nccc::callback::Entry::new(f, %s, %s));"
                           % (name, name, n_in, n_out))
            else:
                raw.append("let %s_entry = nccc::callback::Entry::new(&mut %s_fn, %s, %s);"
                           % (name, name, n_in, n_out))
            raw.append("let %s_sig = %s;" % (name, sig))
    call.claims.extend(raw)
    first = members[0][0]
    ctx = "%s_ctx" % first
    if heap:
        boxes = ", ".join("%s_raw" % m[0] for m in members)
        cond = "%s_raw.is_some()" % first
        call.claims.append(
            "let %s = if %s { Some(nccc::callback::claim_boxed(self.rt, nccc::abi::SCOPE_%s, %d, [%s].map(|m| m.unwrap()))?) } else { None };"
            % (ctx, cond, scope, len(members) - 1, boxes)
            if closure.nullable else
            "let %s = Some(nccc::callback::claim_boxed(self.rt, nccc::abi::SCOPE_%s, %d, [%s].map(|m| m.unwrap()))?);"
            % (ctx, scope, len(members) - 1, boxes))
        call.slot_in(closure.slot, "%s.map_or(0, |c| c.context)" % ctx)
        if closure.scope == "forever":
            call.forever.append((ctx, closure.nullable))
    else:
        if closure.nullable:
            call.claims.append(
                "let %s_members; let %s = match %s_entry.as_ref() { Some(e) => { %s_members = [(e, %s_sig)]; Some(nccc::callback::claim_call(self.rt, &%s_members)?) } None => None };"
                % (first, ctx, first, first, first, first))
            call.slot_in(closure.slot, "%s.as_ref().map_or(0, |c| c.context)" % ctx)
        else:
            call.claims.append("let %s_members = [%s];" % (first, ", ".join(
                "(&%s_entry, %s_sig)" % (m[0], m[0]) for m in members)))
            call.claims.append("let %s = nccc::callback::claim_call(self.rt, &%s_members)?;"
                               % (ctx, first))
            call.slot_in(closure.slot, "%s.context" % ctx)


def callback_sigs(host, callback, nul=False):
    """The signatures of a callback type (its record's) as a Rust slice;
    nul: each ending in NUL, for a claim."""
    return sigs(host.callback_records[callback]["signatures"], nul)


def _closure_param(call, closure, name, cb, heap):
    """Adds the Rust parameter of callback `name` of type cb (its
    record); gives the number of values its closure returns."""
    args = [_cb_arg_type(s, d) for _, s, d in _cb_args(cb)]
    # a string a callback gives C must outlive the callback: the closure
    # returns it as a pointer it keeps valid itself
    outs = ["nccc::Ptr" if s.code == STRING_CODE else _value_type(s)
            for s in Slots(cb, callback=True).outs if s.code != ERRNO_CODE]
    ret = "()" if not outs else outs[0] if len(outs) == 1 else "(%s)" % ", ".join(outs)
    fn = "FnMut(%s) -> %s" % (", ".join(args), ret)
    ty = "nccc::Box<dyn %s + Send + 'static>" % fn if heap else "&mut dyn %s" % fn
    if closure.nullable:
        ty = "Option<%s>" % ty
    call.params.append("%s%s: %s" % ("mut " if heap and not closure.nullable else "", name, ty))
    return len(outs)


def _boxed_slot_closure(slots, n_outs, body):
    return ("nccc::Box::new(move |%s: &[u64], %s: &mut [u64]| { %s }) as "
            "nccc::Box<dyn FnMut(&[u64], &mut [u64]) + Send>"
            % (_in_name(slots), _out_name(n_outs), body))


def set_closure_params(call, closure):
    """A slot of a closure set: a [closures=S] callback is one boxed
    closure parameter, registered as its member of the owner's group
    (nccc::sets::register; None passes NULL when [nullable]); the
    [context=S] parameter is no parameter: its slot takes the group."""
    owner = ident(closure.owner.name)
    cbs = [Slots(call.host.callback_records[m["callback"]], callback=True)
           for m in call.host.closure_set_records[closure.set_name]["members"]]
    members = "&[%s]" % ", ".join(
        "(pick_signature(self.target, %s), %s, %s)"
        % (callback_sigs(call.host, m["callback"], nul=True), slot_at(cb.n_in), slot_at(cb.n_out))
        for m, cb in zip(call.host.closure_set_records[closure.set_name]["members"], cbs))
    where = "self.rt, %s, %s, %s" % (rust_str(call.host.qualified(closure.set_name)), owner, members)
    if closure.member is None:
        ctx = "%s_ctx" % ident(closure.slot.name).replace("r#", "")
        call.claims.append("let %s = nccc::sets::context(%s)?;" % (ctx, where))
        call.slot_in(closure.slot, ctx)
        return
    param, callback = closure.params[0]
    name = ident(param)
    cb = call.host.callback_records[callback]
    n_outs = _closure_param(call, closure, name, cb, True)
    raw = _boxed_slot_closure(Slots(cb, callback=True), n_outs, _cb_body(name, cb, n_outs, True))
    ctx = "%s_ctx" % name.replace("r#", "")
    if closure.nullable:
        call.claims.append("let %s_given = %s.is_some();" % (ctx, name))
        call.claims.append("let %s = nccc::sets::register(%s, %d, %s.map(|mut %s| %s))?;"
                           % (ctx, where, closure.member, name, name, raw))
        call.slot_in(closure.slot, "if %s_given { %s } else { 0 }" % (ctx, ctx))
    else:
        call.claims.append("let %s = nccc::sets::register(%s, %d, Some(%s))?;"
                           % (ctx, where, closure.member, raw))
        call.slot_in(closure.slot, ctx)


def _cb_index(slot):
    """A callback's in slot in the closure's slice (in[1..])."""
    index = slot.index
    if not index.records:
        return str(index.fixed - 1)
    return "%s - 1" % slot_at(index)


def _in_name(slots):
    return "i" if slots.ins else "_i"


def _out_name(n_outs):
    return "o" if n_outs else "_o"


def _cb_args(cb):
    """(position, in slot, value description or None) of each value a
    callback's closure takes, from the callback record cb: a slice stands
    for its pointer and its count (the count is left out)."""
    values = described(cb)
    left_out = counts(values)
    return [(s.position, s, values.get(s.position)) for s in Slots(cb, callback=True).ins
            if s.position not in left_out]


def callback_arguments(cb):
    """Per C value a callback of type cb gets (its in slots, in order):
    (k, counted), k the closure argument that gives it, counted when the
    value is the length of that argument's slice."""
    args = _cb_args(callback_record(LoweredCallback(cb)))
    at = {pos: k for k, (pos, _, _) in enumerate(args)}
    of_count = {d["count"]["arg"]: at[pos] for pos, _, d in args if counted(d)}
    return [(at[pos], False) if pos in at else (of_count[pos], True)
            for pos in range(1, len(cb.in_slots) + 1)]


def _cb_arg_type(slot, d):
    """The Rust type of a value a closure takes (d: its description)."""
    if string_array(d):
        return "nccc::StrArray<'_>"
    if counted(d):
        # a buffer the callback fills ([out, length=N]) is written
        return "&%s[%s]" % ("mut " if d.get("fill") else "", text_pointee(slot.type)[0])
    return _value_type(slot)


def _value_type(slot):
    """The Rust type of a value a callback takes or gives in one slot."""
    if slot.record is not None:
        return ident(slot.record)
    if slot.code == STRING_CODE:
        return "&str"
    return text_rust(slot.type)


def _cb_body(name, cb, n_outs, heap):
    """The slot-level closure around a typed one: arguments from i[k-1]
    (the dispatcher drops env), results into o."""
    slots = Slots(cb, callback=True)
    args = []
    for _, s, d in _cb_args(cb):
        # in[0] is the environment word: the closure gets in[1..]
        at = _cb_index(s)
        if string_array(d):
            args.append("nccc::StrArray::arg(i[%s])" % at)
        elif counted(d):
            args.append("nccc::callback::%s(i[%s], i[%s])"
                        % ("slice_arg_mut" if d.get("fill") else "slice_arg",
                           at, _cb_index(slots.ins[d["count"]["arg"] - 1])))
        elif s.record is not None:
            args.append("<%s as nccc::Record>::from_slots(&i[%s..])" % (ident(s.record), at))
        elif s.code == STRING_CODE:
            args.append("nccc::callback::str_arg(i[%s])" % at)
        else:
            args.append("nccc::Value::from_slot(i[%s])" % at)
    call = "%s(%s)" % (name, ", ".join(args))
    outs = [s for s in slots.outs if s.code != ERRNO_CODE]
    if not outs:
        return "%s;" % call
    stores = []
    for k, s in enumerate(outs):
        value = "r" if len(outs) == 1 else "r.%d" % k
        if s.record is not None:
            stores.append("nccc::Record::to_slots(%s, &mut o[%s..]);" % (value, slot_at(s.index)))
        else:
            stores.append("o[%s] = nccc::Value::to_slot(%s);" % (slot_at(s.index), value))
    return "let r = %s; %s" % (call, " ".join(stores))
