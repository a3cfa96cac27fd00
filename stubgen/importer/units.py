"""IDL text cut into declarations ("units") for --update: each unit is
its leading comments plus one declaration (up to its `;` at depth 0), a
directive line, or the comments at the end. A unit's key says what it
declares (("function", "f"), ("record", "s"), ...); its `plain` form,
without comments, annotations, parameter names and spacing, says which
C declaration it is."""

import re

_IDENT = re.compile(r"[A-Za-z_]\w*")
_PTR_NAME = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)")
_TAGS = ("struct", "union", "enum")
_TYPEDEF_TAG = re.compile(r"typedef (?:struct|union) ([A-Za-z_]\w*) \{")


class Unit:
    def __init__(self, text, body, lead=""):
        self.text = text          # as written, comments included
        self.body = body          # the declaration without comments
        self.lead = lead          # the comments before the declaration
        self.key = key(body) if body else ("comment", text)
        self.keys = [self.key]
        m = _TYPEDEF_TAG.match(normal(body or ""))
        if m:                     # typedef struct TAG { ... } NAME;
            self.keys.append(("record", m.group(1)))


def split(text):
    """The units of an IDL text, in order."""
    units, start, i, depth, n = [], 0, 0, 0, len(text)
    code = []                     # the current unit without comments
    first = None                  # where its first code character is
    while i < n:
        if first is None and not text[i].isspace() and \
                not text.startswith("//", i) and \
                not text.startswith("/*", i):
            first = i
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            end = text.find("\n", i) if c == "/" and text[i + 1] == "/" \
                else text.find("*/", i) + 2
            i = n if end < 2 or end == -1 else end
            code.append(" ")
            continue
        if c == "#" and depth == 0 and not "".join(code).strip():
            end = text.find("\n", i)
            end = n if end == -1 else end
            units.append(Unit(text[start:end].strip("\n"),
                              text[i:end].strip(),
                              text[start:i].strip("\n")))
            start = i = end
            code, first = [], None
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            code.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        code.append(c)
        i += 1
        if c == ";" and depth == 0:
            units.append(Unit(text[start:i].strip("\n"), "".join(code),
                              text[start:first].strip("\n")))
            start = i
            code, first = [], None
    rest = text[start:].strip("\n")
    if rest.strip():
        units.append(Unit(rest, None))
    return units


def strip_annotations(body):
    """The body without its [annotation] lists (array sizes stay)."""
    out, i = [], 0
    while i < len(body):
        if body[i] == "[" and _annotation_at(body, i):
            depth = 0
            while i < len(body):
                depth += {"[": 1, "]": -1}.get(body[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        out.append(body[i])
        i += 1
    return "".join(out)


def _annotation_at(body, i):
    before = body[:i].rstrip()
    if not before or before[-1] in "(,{;":
        return True
    if before[-1] == ")":
        close = body.find("]", i)
        return not body[i + 1:close].strip().isdigit()
    return before[-1] == "]" and _annotation_at(body, before.rfind("["))


def normal(body):
    return " ".join(re.sub(r"\s*([(),;{}*\[\]])\s*", r" \1 ",
                           body).split())


def key(body):
    b = normal(strip_annotations(body))
    words = b.split()
    if not words:
        return ("empty", b)
    head = words[0]
    if head.startswith("#"):
        return ("directive", b)
    if head in ("module", "default", "packed"):
        return (head,) if head == "module" else (head, b)
    if head == "closures" and len(words) > 1:
        return ("closures", words[1])
    if head == "typedef":
        return ("typedef", _declared_name(b))
    if head in _TAGS and len(words) > 2 and words[2] in "{;":
        if words[1] == "{":
            return (head, words[2])
        return ("enum" if head == "enum" else "record", words[1])
    if head == "enum" and words[1] == "{":
        return ("enum", words[2])
    if head in ("const", "static") and "(" not in b:
        return ("constant", _IDENT.findall(b.split("=")[0])[-1])
    m = re.search(r"([A-Za-z_]\w*)\s*\(", b)
    return ("function", m.group(1)) if m else ("other", b)


def _declared_name(b):
    m = _PTR_NAME.search(b)
    if m:
        return m.group(1)
    if b.rstrip(" ;").endswith("}") or "(" not in b:
        return _IDENT.findall(b)[-1]
    return _IDENT.findall(b[:b.index("(")])[-1]


def members(body):
    """(name, annotations text, member text) of each parameter of the
    outermost parameter list, or each field of a record body."""
    b = body
    if "{" in b and not b.lstrip().startswith("closures"):
        inner, sep = b[b.index("{") + 1:b.rindex("}")], ";"
    else:
        open_ = _param_open(b)
        if open_ < 0:
            return []
        close = _matching(b, open_)
        inner, sep = b[open_ + 1:close], ","
    out = []
    for part in split_top(inner, sep):
        if not part.strip():
            continue
        anns = ""
        s = part.strip()
        while s.startswith("["):
            end = _matching(s, 0)
            anns += s[:end + 1] + " "
            s = s[end + 1:].lstrip()
        m = _PTR_NAME.search(s)
        idents = _IDENT.findall(s)
        name = m.group(1) if m else (idents[-1] if idents else "")
        out.append((name, anns.strip(), part))
    return out


def _param_open(b):
    """Where the outermost parameter list opens: after the declared name
    (after `(*NAME)` for a function pointer typedef)."""
    m = _PTR_NAME.search(b)
    start = m.end() if m and b.lstrip().startswith("typedef") else 0
    depth = 0
    for i in range(start, len(b)):
        if b[i] == "[":
            depth += 1
        elif b[i] == "]":
            depth -= 1
        elif b[i] == "(" and depth == 0:
            return i
    return -1


def _matching(s, i):
    opener, closer = s[i], {"(": ")", "[": "]", "{": "}"}[s[i]]
    depth = 0
    for j in range(i, len(s)):
        if s[j] == opener:
            depth += 1
        elif s[j] == closer:
            depth -= 1
            if depth == 0:
                return j
    return len(s) - 1


def split_top(s, sep, level=0):
    """s cut at each sep inside exactly `level` brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == level:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    return parts


def plain(body):
    """What C declares: no annotations, no parameter names, no spacing."""
    b = normal(strip_annotations(body))
    for name, _, part in members(b):
        if name and len([w for w in _IDENT.findall(part)
                         if w not in _TAGS]) > 1:
            b = b.replace(part, _unnamed(part, name), 1)
    return " ".join(b.split())


def _unnamed(part, name):
    if _PTR_NAME.search(part):
        return _PTR_NAME.sub("( * )", part, 1)
    k = part.rfind(name)
    return part[:k] + part[k + len(name):]
