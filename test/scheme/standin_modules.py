"""standin_modules.py OUT IDL...: the data of bind_all.sps, the test
that binds every shipped IDL's Scheme library through the binder with
the stand-in adapter (test/scheme/standin/compat.sls) in place of C.

Writes OUT/nccc/M.sls, M.scm and M.rkt for each IDL (what
`nccc-stubgen --lang scheme` writes) and OUT/standin.scm: per module,
what a library built from the IDL on x86-64 Linux would say of it (each
function's signature and slot counts, its constants' codes, its layout
table) and what a caller passes each function. The layouts are laid out
here by the natural alignment of each field (their numbers need only
agree with each other: the binder reads them, nothing compiles them)."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from stubgen.abi import load as load_abi  # noqa: E402
from stubgen.cli import generate  # noqa: E402
from stubgen.ctype import Array  # noqa: E402
from stubgen.model import build  # noqa: E402
from stubgen.model.binding import records  # noqa: E402
from stubgen.model.lower import TARGETS, _letters  # noqa: E402

BYTES = {c.code: c.bytes or 8 for c in load_abi().codes}


def items(sig):
    """'i{pt}p' -> ['i', '{pt}', 'p']"""
    out, k = [], 0
    while k < len(sig):
        end = sig.index("}", k) + 1 if sig[k] == "{" else k + 1
        out.append(sig[k:end])
        k = end
    return out


def field_count(t):
    n = 1
    t = t.resolved()
    while isinstance(t, Array):
        n *= int(t.size) if t.size and t.size.isdigit() else 2
        t = t.elem.resolved()
    return n


def layouts(model):
    """{name: (kind, size, align, [(field, code, offset, size, count)])}"""
    table = {}

    def size_of(code):
        if code.startswith("{"):
            entry = lay(code[1:-1])
            return entry[1], entry[2]
        return BYTES[code], BYTES[code]

    def lay(name):
        if name not in table:
            e = model.layout(name)
            fields, at, most, align = [], 0, 0, 1
            for f in e.fields:
                code = _letters([f.code], TARGETS[0])
                size, a = size_of(code)
                count = field_count(f.type)
                offset = 0 if e.kind == "union" else -(-at // a) * a
                fields.append((f.name, code, offset, size * count, count))
                at, most = offset + size * count, max(most, size * count)
                align = max(align, a)
            end = most if e.kind == "union" else at
            table[name] = (e.kind, -(-end // align) * align if fields else 0,
                           align, fields)
        return table[name]

    for e in model.layouts:
        lay(e.name)
    return table


def slot_count(sig_side, table):
    return sum(math.ceil(table[i[1:-1]][1] / 8) if i.startswith("{") else 1
               for i in items(sig_side))


def arguments(rec, sig_in):
    """What a caller passes each argument: its code, and for a closure
    its scope and callback types (or set, a member of a closure set), for
    a [bytes] argument bytes (one kept by its owner is passed as an
    address). The context slot of a closure set (a set closure of no
    member) is no argument."""
    closures = {c["arg"]: c for c in rec.get("closures", [])}
    kept = {k["arg"] for k in rec.get("kept", [])}
    bytes_args = {v["arg"] for vs in rec.get("values", [])[:1] for v in vs
                  if v["kind"] == "bytes"} - kept
    out = []
    for k, code in enumerate(items(sig_in), 1):
        c = closures.get(k)
        if c and "set" in c and "member" not in c["set"]:
            continue
        if c and "set" in c:
            out.append([code, "set"])
        elif c:
            out.append([code, c["scope"]] + c["callbacks"])
        elif k in bytes_args:
            out.append([code, "bytes"])
        else:
            out.append([code])
    return out


def scheme(x):
    if isinstance(x, str):
        return '"%s"' % x.replace("\\", "\\\\").replace('"', '\\"')
    if isinstance(x, (list, tuple)):
        return "(" + " ".join(scheme(y) for y in x) + ")"
    return str(x)


def module_data(model):
    rec = records(model)
    table = layouts(model)
    functions = []
    for f in rec["functions"]:
        sig = f["signatures"][0]
        sig_in, sig_out = sig.split(":")
        functions.append([f["name"], sig, slot_count(sig_in, table),
                          slot_count(sig_out, table),
                          arguments(f, sig_in)])
    return [model.name,
            ["functions"] + functions,
            ["callbacks"] + [[c["name"], c["signatures"][0]]
                             for c in rec["callbacks"]],
            ["constants"] + [[c.name, _letters([c.code], TARGETS[0])]
                             for c in model.constants],
            ["layouts"] + [[name, kind, size, align, fields]
                           for name, (kind, size, align, fields)
                           in table.items()]]


def main(out, idls):
    lib = Path(out) / "nccc"
    lib.mkdir(parents=True, exist_ok=True)
    data = []
    for idl in sorted(idls):
        text = Path(idl).read_text()
        model = build(text)
        for name, body in generate(text, Path(idl).name, ["scheme"]).items():
            (lib / name).write_text(body)
        data.append(module_data(model))
    (Path(out) / "standin.scm").write_text(
        ";; made by test/scheme/standin_modules.py; do not edit\n" +
        "\n".join(scheme(m) for m in data) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
