"""The JavaScript emitter: M.mjs, an ES module for the support library
bindings/js (docs/JS.md, "Generated modules"), and M.d.ts, its
TypeScript declarations.

    import * as tour from "./tour.mjs";
    const t = tour.bind(await nccc.load("fixture.wasm"));
    t.add(40n, 2n)   // 42n

The module imports nothing: it is the module's binding records
(stubgen/model/binding.py, docs/BINDING.md) as one JavaScript literal,
written by the shared literal writer (stubgen/literal.py), and bind(rt)
hands them to the runtime it is given (rt.bindModule,
bindings/js/nccc/binder.mjs), which looks every function up once, checks
its signature and makes its caller from its record (functions of
numbers only get one of the fixed callers of
bindings/js/nccc/special.mjs).
"""

from stubgen.emit_js.types import emit_types
from stubgen.host import HostModule
from stubgen.literal import LiteralSyntax, json_string, write_literal
from stubgen.model.binding import data_records
from stubgen.source import Source


def js_string(text):
    return json_string(text)


# Data as JS literals
JS = LiteralSyntax(string=js_string, true="true", false="false",
                   list=("[", "]"), dict=("{", "}"),
                   key=lambda k: "%s: " % k)


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    src = Source()
    src.line(host.title("//", host.name + ".mjs", "JavaScript", js_string))
    src.lines("""
        // The module's binding records (docs/BINDING.md); the support
        // library (bindings/js/nccc/binder.mjs, docs/JS.md "Generated
        // modules") binds them to a loaded runtime:
        //   import * as %s from "./%s.mjs";
        //   const m = %s.bind(await nccc.load(wasm));
        """ % (host.name, host.name, host.name))
    write_literal(src, data_records(module), JS, before="const M = ", after=";")
    src.blank()
    src.line("export const name = M.module;")
    src.line("// bind(rt): the module bound to a runtime from nccc.load")
    src.line("export function bind(rt) { return rt.bindModule(M); }")
    src.line("export default { name, bind };")
    return {host.name + ".mjs": str(src),
            host.name + ".d.ts": emit_types(host)}
