"""The binding records: what every host's binder reads, made from the
lowering (stubgen/model/lower.py) once, as plain data (dicts, lists,
strings, integers, booleans) in the format of idl/binding.schema.json,
documented in docs/BINDING.md.

records(module) returns the module's record:

  {"module": name, "functions": [function record, ...],
   "callbacks": [callback record, ...], "closure_sets": [...],
   "constants": [name, ...],
   "layouts": [{"name", "kind", "field_names", "records", "arrays",
                "texts"}]}

Positions are 1-based: an argument position counts the function's in
slots (a [function_pointer] target is 1), a result position its out
slots (the return value is 1). A key whose value would be empty, false
or absent is left out, so a plain function's record is its names,
signatures and argument count.
"""

from stubgen.ctype import (FUNCTION_CODE, INT_CODE, Array, Record,
                           array_depth)
from stubgen.model.lower import lower


def _closure(lf, c):
    """The record of one closure slot (a Closure)."""
    rec = {"arg": lf.position(c.slot), "scope": c.scope,
           "callbacks": [p.callback.name for p in c.params],
           "names": [p.name or "callback%d" % k for k, p in enumerate(c.params)]}
    if c.nullable:
        rec["nullable"] = True
    if c.pool is not None:
        rec["pool"] = c.pool.name
    if c.closures is not None:
        ref = {"name": c.closures.name, "owner": lf.position(c.owner)}
        if c.member is not None:
            ref["member"] = c.member
        rec["set"] = ref
    return rec


def _owned(o):
    """The record of an owned return value (an Owned)."""
    rec = {"result": o.index + 1, "free": o.destructor}
    if o.string:
        rec["kind"] = "string"
    else:
        rec["kind"] = "object"
        rec["type"] = o.slot.type.spell().replace(" *", "").strip()
    if o.frees:
        rec["frees"] = [cs.name for cs in o.frees]
    return rec


def type_text(t):
    """The C type t as a record spells it (docs/BINDING.md, "Types"): a
    scalar's code (a target-dependent one by its name, NCCC_SIG_LONG), an
    enum's INT_CODE, "{NAME}" a struct, union or opaque type, "*" then
    "const " (a const pointee) then the pointee a pointer, FUNCTION_CODE
    a function pointer, "[T; N]" an array, "void" and "function"."""
    if t is None:
        return "void"
    r = t.resolved()
    kind = r.kind
    if kind in ("struct", "union", "opaque"):
        return "{%s}" % r.decl.name
    if kind == "pointer":
        return "*" + ("const " if r.target.is_const else "") + type_text(r.target)
    if kind == "array":
        return "[%s; %s]" % (type_text(r.elem), r.size)
    if kind == "enum":
        return INT_CODE
    if kind == "funcptr":
        return FUNCTION_CODE
    if kind in ("void", "function"):
        return kind
    return r.code


def _slot(s, plain, named=True):
    """A slot's name (when it has one), type and role (left out when it
    is plain)."""
    rec = {"name": s.name, "type": type_text(s.type)} if named and s.name else \
        {"type": type_text(s.type)}
    if s.role not in plain:
        rec["role"] = s.role
    return rec


def function_record(module_name, lf):
    """The record of one function (a LoweredFunction)."""
    rec = {"name": lf.name, "error_name": module_name + "." + lf.name,
           "signatures": list(lf.signatures), "in_count": len(lf.in_slots),
           "params": [_slot(s, ("arg",)) for s in lf.in_slots],
           "results": [_slot(s, ("return", "out"), named=False) for s in lf.out_slots]}
    optional = {
        "nonnull": [lf.position(s) for s in lf.nonnull],
        "nullable": [lf.position(s) for s in lf.nullable],
        "owned": _owned(lf.owned_return) if lf.owned_return else None,
        "owned_strings": [{"result": o.index + 1, "free": o.destructor}
                          for o in lf.owned_out_strings],
        "owned_pointers": [_owned(o) for o in lf.owned
                           if o.index > 0 and not o.string],
        "closures": [_closure(lf, c) for c in lf.closures],
        "thunks": [cb.name for cb in lf.thunks],
        "frees": [cs.name for cs in lf.frees],
        "values": lf.values,
        "kept": [{"arg": lf.position(s), "owner": lf.position(o)}
                 for s, o in lf.kept],
    }
    rec.update((k, v) for k, v in optional.items() if v)
    return rec


def closure_set_record(cs):
    """The record of one closure set (a ClosureSet): its members' names
    and callback types, in member order."""
    return {"name": cs.name, "members": [
        {"name": m.name, "callback": m.callback.name} for m in cs.members]}


def callback_record(lc):
    """The record of one callback type (a LoweredCallback)."""
    rec = {"name": lc.name, "signatures": list(lc.signatures),
           "types": list(lc.types),
           "params": [_slot(s, ("arg",)) for s in lc.callback.in_slots],
           "results": [_slot(s, ("return", "out"), named=False)
                       for s in lc.callback.out_slots]}
    if lc.callback.thunks is not None:
        rec["thunks"] = lc.callback.thunks
    if lc.values:
        rec["values"] = lc.values
    return rec


def layout_record(entry):
    """The record of one entry of the layout table (docs/BINDING.md, "A
    layout")."""
    rec = {"name": entry.name, "kind": entry.kind}
    if not entry.fields:
        return rec
    rec["field_names"] = [f.name for f in entry.fields]
    rec["field_types"] = [type_text(f.type) for f in entry.fields]
    held = {}
    for f in entry.fields:
        r = f.type.resolved()
        if isinstance(r, Array):
            r = r.innermost()
        if isinstance(r, Record) and not r.decl.opaque:
            held[f.name] = r.decl.name
    arrays = [f.name for f in entry.fields if array_depth(f.type)]
    texts = [t for t in map(_field_text, entry.fields) if t is not None]
    if held:
        rec["records"] = held
    if arrays:
        rec["arrays"] = arrays
    if texts:
        rec["texts"] = texts
    return rec


def _field_text(f):
    """What a pointer field marked [bytes], or a char pointer field with
    a count, holds: {"field", "kind": "bytes" or "string", "count"}."""
    info = f.info
    if f.type.kind != "pointer":
        return None
    if info.length is not None:
        count = {"field": info.length}
    elif isinstance(info.size, int):
        count = {"fixed": info.size}
    else:
        return None
    target = f.type.resolved().target.resolved()
    if info.bytes:
        kind = "bytes"
    elif info.string or getattr(target, "name", None) == "char":
        kind = "string"
    else:
        return None
    return {"field": f.name, "kind": kind, "count": count}


def records(module):
    """The module's binding record (see the module docstring), made on
    the first call and kept on the module: every host emitter reads the
    same one (and none changes it)."""
    if module.binding_records is None:
        module.binding_records = _records(module)
    return module.binding_records


# What only a host that types its values reads (Rust's methods): the
# data modules of the other hosts, whose binders convert by the
# signatures, leave these keys of functions, their closures and callback
# types out (data_records).
TYPED_KEYS = ("params", "results", "names", "field_types", "constant_types")


def _untyped(rec):
    out = {k: v for k, v in rec.items() if k not in TYPED_KEYS}
    if "closures" in out:
        out["closures"] = [_untyped(c) for c in out["closures"]]
    return out


def data_records(module):
    """records(module) without the TYPED_KEYS: what the generated modules
    of Lua, Python, JavaScript and Scheme hold."""
    rec = _untyped(records(module))
    return dict(rec, functions=[_untyped(f) for f in rec["functions"]],
                callbacks=[_untyped(c) for c in rec["callbacks"]],
                layouts=[_untyped(t) for t in rec["layouts"]])


def _records(module):
    lowered = lower(module)
    return {
        "module": module.name,
        "functions": [function_record(module.name, lf)
                      for lf in lowered.functions],
        "callbacks": [callback_record(lc) for lc in lowered.callbacks],
        "closure_sets": [closure_set_record(cs) for cs in lowered.closure_sets],
        "constants": [c.name for c in module.constants],
        "constant_types": [INT_CODE if c.type is None else type_text(c.type)
                           for c in module.constants],
        "layouts": [layout_record(e) for e in module.layouts],
    }
