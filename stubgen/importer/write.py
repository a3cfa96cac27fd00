"""The IDL writer: the draft, in the header's order. Every declaration
is preceded by its rule comments (`// rule NAME: detail`) and its
`// REVIEW:` comments; what is left out is a comment saying why.
Declarations are separated by blank lines so that --update can match
them one by one."""

import os

from stubgen.docs import doc
from stubgen.importer.spell import params_text, record_body, spell
from stubgen.importer.units import split_top

WIDTH = 79


def draft(header, module, include):
    """The IDL text for a read and ruled Header."""
    units = sorted(((k, _unit(d)) for k, d in _items(header)),
                   key=lambda u: u[0])
    out = ["// %s: drafted by nccc-stubgen --import from %s."
           % (module, os.path.basename(header.path)),
           "// `// rule NAME` comments name the rule behind an annotation,",
           "// `// REVIEW:` marks what the header cannot tell "
           "(%s)." % doc("IMPORT.md"),
           "module %s;" % module, "", "#include %s" % include]
    texts, notes = [], []
    for _, text in units:     # a note leads the declaration after it
        if text.startswith("// left out:"):
            notes.append(text)
        else:
            texts.append("\n".join(notes + [text]))
            notes = []
    return "\n".join(out) + "\n\n" + join_units(texts + notes)


def join_units(texts):
    """Declarations apart, by a blank line; consecutive constants and
    left-out notes one a line."""
    out, compact = [], False
    for text in texts:
        lines = text.strip("\n").split("\n")
        short = [line.startswith(("const ", "// left out:"))
                 for line in lines]
        out += [text] if short[0] and compact else (["", text] if out
                                                    else [text])
        compact = short[-1]
    return "\n".join(out) + "\n"


def _items(header):
    needed = _needed(header)
    for d in list(header.records.values()) + list(header.typedefs.values()):
        if d.name in needed[d.kind] and \
                not (d.kind == "record" and d.typedef):
            yield d.order, d
    for d in header.enums + header.constants + header.functions + \
            header.closures:
        if not (d.kind == "enum" and d.typedef and d.name is None and
                d.typedef in header.typedefs):
            yield d.order, d
    for order, text in header.notes:
        yield order, "// " + text


def _needed(header):
    """Names of the records and typedefs the written declarations use."""
    seen = {"record": set(), "typedef": set()}
    todo = []
    for f in header.functions:
        if f.left_out is None:
            todo += [f.ret] + [p.type for p in f.params]
    for e in header.enums:
        if e.typedef in header.typedefs:
            seen["typedef"].add(e.typedef)
    while todo:
        t = todo.pop()
        if t is None:
            continue
        if t.kind == "typedef" and t.name not in seen["typedef"]:
            seen["typedef"].add(t.name)
            todo.append(header.typedefs[t.name].type)
        elif t.kind == "record" and t.record is not None and \
                t.record.inline:
            todo += [p.type for p in t.record.fields]
        elif t.kind == "record" and t.name not in seen["record"]:
            seen["record"].add(t.name)
            rec = header.records[t.name]
            todo += [p.type for p in rec.fields or ()]
        elif t.kind in ("pointer", "array"):
            todo.append(t.target)
        elif t.kind == "func":
            todo += [t.ret] + [p.type for p in t.params]
    return seen


def _unit(d):
    if isinstance(d, str):
        return d
    lines = []
    merged = {}
    for name, detail in getattr(d, "rules", ()):
        merged.setdefault(name, []).append(detail)
    for name, details in merged.items():
        lines.append("// rule %s: %s" % (name, "; ".join(details)))
    for text in getattr(d, "reviews", ()):
        lines.append("// REVIEW: " + text)
    if getattr(d, "left_out", None):
        return "\n".join(lines + ["// left out: %s: %s"
                                  % (d.name, d.left_out)])
    return "\n".join(lines + [_text(d)])


def _text(d):
    return {"record": _record, "typedef": _typedef, "enum": _enum,
            "constant": _constant, "function": _function,
            "closures": _closures}[d.kind](d)


def _record(r):
    if r.typedef:
        return ""         # written by its typedef
    head = "%s %s" % ("union" if r.union else "struct", r.name)
    if r.fields is None:
        return head + ";"
    return head + " " + record_body(r) + ";"




def _typedef(td):
    t = td.type
    if td.opaque:
        return "typedef ... %s;" % td.name
    if t.kind == "record" and t.record is not None and \
            t.record.typedef == td.name:
        rec = t.record
        body = record_body(rec) if rec.fields is not None else None
        if body is None:
            return "typedef ... %s;" % td.name
        return "typedef %s %s %s;" % ("union" if rec.union else "struct",
                                      body, td.name)
    if t.kind == "enum" and t.record is not None and t.record.name is None:
        return "typedef enum %s %s;" % (_enumerators(t.record), td.name)
    anns = " [%s]" % ", ".join(td.anns) if td.anns else ""
    return _wrap("typedef " + spell(t, td.name) + anns + ";")


def _enumerators(e):
    return "{\n%s\n}" % ",\n".join("  %s = %d" % v for v in e.values)


def _enum(e):
    if e.name is None:
        return "enum %s;" % _enumerators(e)
    return "enum %s %s;" % (e.name, _enumerators(e))


def _constant(k):
    return "const %s %s;" % (k.ctype_text, k.name)


def _function(f):
    anns = " [%s]" % ", ".join(f.anns) if f.anns else ""
    head = spell(f.ret, "%s(%s)" % (f.name, params_text(f.params)))
    return _wrap(head + anns + ";")


def _closures(c):
    body = "\n".join("  %s %s;" % (t, m) for m, t in c.members)
    return "closures %s(%s) {\n%s\n};" % (c.name, c.owner, body)


def _wrap(line):
    """Breaks a long declaration after the commas of its outermost
    parameter list, continuation lines indented by four spaces."""
    if len(line) <= WIDTH:
        return line
    parts = split_top(line, ",", 1)
    pieces = [p.lstrip() + "," for p in parts[:-1]] + [parts[-1].lstrip()]
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + 1 + len(piece) <= WIDTH:
            lines[-1] += " " + piece
        else:
            lines.append("    " + piece)
    return "\n".join(lines)
