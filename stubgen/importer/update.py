"""--update: the new draft merged into the previous IDL.

A declaration the header still has, with the same C text (parameter
names, annotations and comments aside), is kept as the previous IDL
has it: the user's annotations, names and comments stay; so is a record
that names some of the header's fields, each as the header declares it
(a partial record), or fields of a record the draft writes opaque. One whose C
text changed is the new draft's, with the previous annotations carried
over by parameter (field) name and a `// REVIEW:` comment. Declarations
the header no longer has are dropped and reported, except what the user
wrote that no header declares (closure sets, `default` lines, `packed`
declarations, [macro], [variadic] and [rename] functions, and the
typedefs these use), which stay where they were."""

import re

from stubgen.importer import units as U
from stubgen.importer.write import join_units

_USER_MADE = re.compile(r"\[[^\]]*\b(macro|variadic|rename)\b")
_KEPT_KINDS = ("closures", "default", "packed", "module", "directive",
               "comment", "empty", "other")


class Merge:
    def __init__(self):
        self.added = []
        self.removed = []
        self.changed = []
        self.text = ""


def merge(old_text, new_text):
    old, new = U.split(old_text), U.split(new_text)
    new_keys = {k for u in new for k in u.keys}
    old_by_key = {k: u for u in old if u.body for k in u.keys}
    used = set()
    result = Merge()
    # old-only units, anchored after the last common unit before them
    anchored, anchor = {}, None
    for u in old:
        if any(k in new_keys for k in u.keys):
            anchor = u.key
        else:
            anchored.setdefault(anchor, []).append(u)
    out = [u.text for u in anchored.get(None, ()) if _kept(u, old)]
    for u in new:
        o = old_by_key.get(u.key)
        if o is not None and id(o) in used:
            o = None              # a typedef whose struct came first
        elif o is not None:
            used.add(id(o))
        if o is None:
            if u.body and u.key not in old_by_key:
                result.added.append(_name(u.key))
            out.append(u.text)
        elif u.key[0] == "module" or U.plain(o.body) == U.plain(u.body) \
                or _partial(o, u):
            out.append(o.text)
        else:
            result.changed.append(_name(u.key))
            out.append(_carry(o, u))
        for k in anchored.get(u.key, ()):
            if _kept(k, old):
                out.append(k.text)
            elif k.body:
                result.removed.append(_name(k.key))
    result.text = join_units([t.strip("\n") for t in out if t.strip()])
    return result


def _partial(o, u):
    """Whether the previous unit is a record that names some of the
    header's fields, each as the header declares it (a partial record,
    IDL.md), or names fields of a record the draft can only write opaque
    (`struct s;`, `typedef ... T;`; the compiler checks them): the
    user's choice, kept as written."""
    if "{" not in o.body or u.key[0] not in ("record", "typedef"):
        return False
    if "{" not in u.body:
        return bool(re.match(r"\s*(struct|union)\s+\w+\s*;|\s*typedef\s*"
                             r"\.\.\.", u.body))
    def fields(body):
        return [U.normal(U.strip_annotations(part))
                for _, _, part in U.members(body)]
    old, new = fields(o.body), set(fields(u.body))
    return bool(old) and all(f in new for f in old)


def _name(key):
    return "%s %s" % key if len(key) > 1 else key[0]


def _kept(u, old):
    kind = u.key[0]
    if kind in _KEPT_KINDS:
        return True
    if kind == "function" and _USER_MADE.search(u.body):
        return True
    if kind == "typedef":
        name = u.key[1]
        return any(o is not u and o.body and _kept(o, old) and
                   re.search(r"\b%s\b" % re.escape(name), o.body)
                   for o in old if o.key[0] != "typedef")
    return False


def _carry(o, u):
    """The new unit with the old one's annotations on the members of the
    same name and after the parameter list."""
    old_anns = {name: anns for name, anns, _ in U.members(o.body)}
    body = u.body
    for name, anns, part in U.members(u.body):
        if name in old_anns and old_anns[name] != anns:
            bare = part.strip()[len(anns):].lstrip() if anns else \
                part.strip()
            lead = part[:len(part) - len(part.lstrip())]
            repl = lead + (old_anns[name] + " " if old_anns[name] else "") \
                + bare
            body = body.replace(part, repl, 1)
    tail_old, tail_new = _tail(o.body), _tail(body)
    if tail_old != tail_new:
        body = body[:len(body) - len(tail_new)] + tail_old
    was = " ".join(U.strip_annotations(o.body).split())
    note = "// REVIEW: the header changed this declaration; annotations " \
        "carried over from the previous IDL, which had:\n//   %s" \
        % re.sub(r"\(\s+", "(", was)
    return "\n".join(x for x in (u.lead.strip("\n"), note, body.strip())
                     if x)


def _tail(body):
    """Annotations after the parameter list, with the `;`."""
    b = body.rstrip()
    m = re.search(r"\)\s*((\[[^\]]*\]\s*)*);$", b)
    return m.group(1) + ";" if m else ";"
