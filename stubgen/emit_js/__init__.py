"""The JavaScript emitter: M.mjs, an ES module for the support library
bindings/js (docs/JS.md, "Generated modules"), and M.d.ts, its
TypeScript declarations.

    import * as tour from "./tour.mjs";
    const t = tour.bind(await nccc.load("fixture.wasm"));
    t.add(40n, 2n)   // 42n

The module imports nothing: bind(rt) hands its tables to the runtime it
is given (rt.bindModule, bindings/js/nccc/binder.mjs), which looks every
function up once, checks its signature and makes its caller. Functions
of numbers only get a caller printed for their own signature
(stubgen/emit_js/fast.py); the others one binder each, printed from the
lowered facts (stubgen/model/lower.py: non-NULL arguments, owned
results, owned strings, thunks to bind, closure sets), around rt.fast.
"""

import json

from stubgen.ctype import POINTER_CODE
from stubgen.emit_js.fast import emit_special, specialisable
from stubgen.emit_js.types import emit_types
from stubgen.host import HostModule
from stubgen.source import Source


def js_string(text):
    return json.dumps(text)


def _entries(src, field, entries, comment):
    src.line(comment)
    with src.block("M.%s = [" % field, "];"):
        for e in entries:
            sigs = e.signatures
            items = [js_string(e.name), js_string(sigs[0]) if len(sigs) == 1
                     else "[%s]" % ", ".join(js_string(s) for s in sigs)]
            values = getattr(e, "values", None)
            if values:
                items.append("[%s]" % ", ".join(js_string(v) for v in values))
            src.line("[%s]," % ", ".join(items))


def _closure_sets(src, sets):
    src.line("// closure sets: [name, [member, callback type], ...]; member k "
             "of the group is the k-th")
    with src.block("M.closure_sets = [", "];"):
        for cs in sets:
            src.line("[%s]," % ", ".join(
                [js_string(cs.name)] + ["[%s, %s]" % (
                    js_string(m.name), js_string(m.callback.name))
                    for m in cs.members]))


def _closure_params(src, functions):
    """Per function taking closures: the argument position of each
    closure slot and the callback type of each of its members (bind
    refuses a closure of other signatures before C runs). Slots of
    closure sets are the owner's: left out."""
    src.line("// closure arguments: {function: {position: [callback type "
             "per member]}}")
    with src.block("M.closure_params = {", "};"):
        for lf in functions:
            slots = ["%d: [%s]" % (lf.position(c.slot), ", ".join(
                js_string(p.callback.name) for p in c.params))
                for c in lf.closures if c.closures is None]
            if slots:
                src.line("%s: {%s}," % (js_string(lf.name), ", ".join(slots)))


def _set_wrappers(host, lf):
    """The closure-set wrappers of a function around call (positions are
    in-slot positions), then the release of the groups of an owner it
    frees."""
    out = []
    by_set = {}
    for c in lf.set_closures:
        by_set.setdefault(c.closures, []).append(c)
    for cs, cl in by_set.items():
        members = ", ".join("%d: %d" % (lf.position(c.slot), c.member)
                            for c in cl if c.member is not None)
        context = [lf.position(c.slot) for c in cl if c.member is None]
        out.append("S.closures(call, %d, {name: %s, set: %s, owner: %d, "
                   "members: {%s}%s})" % (
                       len(lf.in_slots), js_string(host.qualified(lf.name)),
                       js_string(cs.name), lf.position(cl[0].owner), members,
                       ", context: %d" % context[0] if context else ""))
    if lf.frees:
        out.append("S.release(call, [%s])" % ", ".join(
            js_string(cs.name) for cs in lf.frees))
    return out


def _binder(src, host, lf):
    """The binder of one function that needs more than rt.fast (the
    options of rt.fast and the conversions of its owned results), or a
    specialised caller; none for the rest."""
    sig = specialisable(lf)
    if sig is not None:
        emit_special(src, lf, sig, js_string)
        return
    owned = lf.owned_return
    sets = _set_wrappers(host, lf)
    if not lf.nonnull and not owned and not lf.thunks and \
            not lf.owned_out_strings and not sets:
        return
    opts = []
    if lf.nonnull:
        opts.append("nonnull: {%s}" % ", ".join(
            "%d: true" % lf.position(s) for s in lf.nonnull))
    string = owned is not None and owned.string
    raw = ([1] if string else []) + [o.index + 1
                                     for o in lf.owned_out_strings]
    if raw:
        opts.append("outs: {%s}" % ", ".join(
            '%d: "%s"' % (k, POINTER_CODE) for k in raw))
    if lf.thunks:
        opts.append("thunks: true")
    src.line("// %s" % _describe(lf))
    with src.block("B[%s] = (rt, h, S) => {" % js_string(lf.name), "};"):
        src.line("let call = rt.fast(h, {%s});" % ", ".join(opts))
        for w in sets:
            src.line("call = %s;" % w)
        convs = []
        if owned:
            free = js_string(host.qualified(owned.destructor))
            if owned.frees:
                # closing the object releases the owner's groups too
                free = "S.freeing(%s)" % js_string(owned.destructor)
            if string:
                convs.append((1, "rt.ownedString(%s)" % free))
            else:
                tname = owned.slot.type.spell().replace(" *", "").strip()
                convs.append((1, "rt.owner(%s, %s)" % (free, js_string(tname))))
        for o in lf.owned_out_strings:
            convs.append((o.index + 1, "rt.ownedString(%s)" % js_string(
                host.qualified(o.destructor))))
        if not convs:
            src.line("return call;")
        elif len(convs) == 1 and convs[0][0] == 1 and len(lf.out_slots) == 1:
            src.line("const own = %s;" % convs[0][1])
            src.line("return (...args) => own(call(...args));")
        else:
            src.line("return rt.owning(call, {%s});" % ", ".join(
                "%d: %s" % c for c in convs))


def _describe(lf):
    notes = []
    if lf.nonnull:
        notes.append("non-NULL: " + ", ".join(
            (s.callbacks[0].name if s.callbacks else s.name) or "?"
            for s in lf.nonnull))
    if lf.owned_return:
        notes.append("owned(%s)" % lf.owned_return.destructor)
    for o in lf.owned_out_strings:
        notes.append("owned string result %d (%s)"
                     % (o.index + 1, o.destructor))
    if lf.thunks:
        notes.append("binds a thunk of " + ", ".join(
            cb.name for cb in lf.thunks))
    for c in lf.set_closures:
        notes.append("%s of closures %s, owner #%d" % (
            "member %d" % c.member if c.member is not None else "context",
            c.closures.name, lf.position(c.owner)))
    if lf.frees:
        notes.append("frees the owner of closures " + ", ".join(
            cs.name for cs in lf.frees))
    return "%s: %s" % (lf.name, "; ".join(notes))


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    src = Source()
    src.line("// %s.mjs: the nccc module %s for JavaScript, %s." % (
        host.name, js_string(host.name), host.generated_by()))
    src.lines("""
        // Tables and callers only; the support library (bindings/js,
        // docs/JS.md "Generated modules") binds them to a loaded runtime:
        //   import * as %s from "./%s.mjs";
        //   const m = %s.bind(await nccc.load(wasm));
        """ % (host.name, host.name, host.name))
    src.line("const M = {name: %s};" % js_string(host.name))
    src.blank()
    _entries(src, "functions", host.functions,
             "// [registry name, signature or one signature per target] "
             "(stubgen/host.py)")
    src.blank()
    _entries(src, "callbacks", host.callbacks,
             "// callback types: [name, signature(s), value specs], for "
             "m.callback")
    src.blank()
    _closure_sets(src, host.closure_sets)
    src.blank()
    _closure_params(src, host.functions)
    src.blank()
    src.line("M.constants = %s;" % json.dumps(host.constants))
    src.line("M.layouts = %s;" % json.dumps(host.layouts))
    src.blank()
    src.line("// binders: specialised callers, and the functions that need "
             "more than rt.fast")
    src.line("const B = {};")
    for lf in host.functions:
        _binder(src, host, lf)
    src.line("M.binders = B;")
    src.blank()
    src.line("export const name = M.name;")
    src.line("// bind(rt): the module bound to a runtime from nccc.load")
    src.line("export function bind(rt) { return rt.bindModule(M); }")
    src.line("export default { name, bind };")
    return {host.name + ".mjs": str(src),
            host.name + ".d.ts": emit_types(host)}
