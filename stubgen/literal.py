"""One writer of data literals for every host emitter: a binding record
(stubgen/model/binding.py: dicts, lists, strings, integers, booleans)
spelled in a host's language. A host gives only its syntax; the layout
is the same everywhere: containers nested less than `broken` deep one
element a line, deeper ones on one line (a function's record is one
line).
"""

import json
from typing import Callable, NamedTuple


class LiteralSyntax(NamedTuple):
    """How a language spells data: string(text); true and false; list
    and dict brackets as (open, close); key(name), the text before a
    dict's value, and entry_close the text after it; comma, what follows
    an element of a broken container (last_comma: after the last one
    too), and separator, what joins the elements of a container on one
    line."""
    string: Callable
    true: str
    false: str
    list: tuple
    dict: tuple
    key: Callable
    last_comma: bool = True
    comma: str = ","
    separator: str = ", "
    entry_close: str = ""


def _scalar(value, syntax):
    if isinstance(value, str):  # the most common: names and signatures
        return syntax.string(value)
    if value is True:
        return syntax.true
    if value is False:
        return syntax.false
    if isinstance(value, int):
        return str(value)
    raise TypeError("no literal for %r" % (value,))


def _items(value, syntax):
    """(brackets, [(text before, value, text after)]) of a container."""
    if isinstance(value, dict):
        return syntax.dict, [(syntax.key(k), v, syntax.entry_close)
                             for k, v in value.items()]
    return syntax.list, [("", v, "") for v in value]


def _flat(value, syntax):
    """The literal of value on one line (what _items and literal_lines
    make of it with broken 0, without their lists: most of a record is
    written so)."""
    if isinstance(value, str):
        return syntax.string(value)
    if isinstance(value, dict):
        key, after = syntax.key, syntax.entry_close
        return syntax.dict[0] + syntax.separator.join(
            [key(k) + _flat(v, syntax) + after for k, v in value.items()]) \
            + syntax.dict[1]
    if isinstance(value, list):
        return syntax.list[0] + syntax.separator.join(
            [_flat(v, syntax) for v in value]) + syntax.list[1]
    return _scalar(value, syntax)


def literal_lines(value, syntax, broken=2, indent="  "):
    """The literal of value as lines (the first without indentation)."""
    if not isinstance(value, (dict, list)):
        return [_scalar(value, syntax)]
    (open_, close), items = _items(value, syntax)
    if broken <= 0 or not items:
        return [open_ + syntax.separator.join(
            before + _flat(v, syntax) + after
            for before, v, after in items) + close]
    lines = [open_]
    for n, (before, v, after) in enumerate(items, 1):
        inner = literal_lines(v, syntax, broken - 1, indent)
        inner[0] = before + inner[0]
        inner[-1] += after
        if n < len(items) or syntax.last_comma:
            inner[-1] += syntax.comma
        lines += [indent + line for line in inner]
    lines.append(close)
    return lines


def write_literal(src, value, syntax, before="", after="", **layout):
    """Writes the literal of value (literal_lines, layout its broken and
    indent) into src, a stubgen.source.Source, a line at a time: before
    ahead of its first line, after behind its last."""
    lines = literal_lines(value, syntax, **layout)
    lines[0] = before + lines[0]
    lines[-1] += after
    for line in lines:
        src.line(line)


def literal(value, syntax, broken=2, indent="  "):
    return "\n".join(literal_lines(value, syntax, broken, indent))


# json.dumps of a str, without its options handling: what json.dumps
# calls for one (ensure_ascii, the default)
json_string = json.encoder.encode_basestring_ascii

JSON = LiteralSyntax(string=json_string, true="true", false="false",
                     list=("[", "]"), dict=("{", "}"),
                     key=lambda k: json_string(k) + ": ", last_comma=False)
