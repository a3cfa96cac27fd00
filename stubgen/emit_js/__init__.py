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

from stubgen.emit_js.fast import emit_special, specialisable
from stubgen.emit_js.types import emit_types
from stubgen.host import BinderSyntax, HostModule, binder
from stubgen.literal import LiteralSyntax, literal
from stubgen.source import Source


def js_string(text):
    return json.dumps(text)


# Data as JS literals (value descriptions)
JS = LiteralSyntax(string=js_string, true="true", false="false",
                   list=("[", "]"), dict=("{", "}"),
                   key=lambda k: "%s: " % k)


def _entries(src, field, entries, comment, values=False):
    src.line(comment)
    with src.block("M.%s = [" % field, "];"):
        for e in entries:
            sigs = e.signatures
            items = [js_string(e.name), js_string(sigs[0]) if len(sigs) == 1
                     else "[%s]" % ", ".join(js_string(s) for s in sigs)]
            if values and e.values:
                items.append(literal(e.values, JS, broken=0))
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


_SYNTAX = BinderSyntax(
    quote=js_string,
    record=lambda pairs: "{%s}" % ", ".join("%s: %s" % kv for kv in pairs),
    array=lambda texts: "[%s]" % ", ".join(texts),
    option_table=lambda key, pairs: "%s: {%s}" % (key, ", ".join(
        "%d: %s" % p for p in pairs)),
    option_flag=lambda key: "%s: true" % key,
    owner=lambda free, t: "rt.owner(%s, %s)" % (free, t),
    owned_string=lambda free: "rt.ownedString(%s)" % free,
    freeing=lambda name: "S.freeing(%s)" % name)


def _binder(src, host, lf):
    """The binder of one function that needs more than rt.fast (the
    options of rt.fast and the conversions of its owned results), or a
    specialised caller; none for the rest."""
    sig = specialisable(lf)
    if sig is not None:
        emit_special(src, lf, sig, js_string)
        return
    b = binder(host, lf, _SYNTAX)
    if b is None:
        return
    src.line("// %s" % b.note)
    with src.block("B[%s] = (rt, h, S) => {" % js_string(lf.name), "};"):
        src.line("let call = rt.fast(h, {%s});" % ", ".join(b.options))
        for w in b.sets:
            src.line("call = %s;" % w)
        convs = b.conversions
        if not convs:
            src.line("return call;")
        elif len(convs) == 1 and convs[0][0] == 1 and len(lf.out_slots) == 1:
            src.line("const own = %s;" % convs[0][1])
            src.line("return (...args) => own(call(...args));")
        else:
            src.line("return rt.owning(call, {%s});" % ", ".join(
                "%d: %s" % c for c in convs))


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
             "// callback types: [name, signature(s), value descriptions], for "
             "m.callback", values=True)
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
