"""The rules that turn a header's declarations into a reviewed draft.

Each rule annotates what it recognises and leaves a comment naming
itself (Decl.rule); what no rule can decide gets a `// REVIEW:` comment
(Decl.review). docs/IMPORT.md lists them with an example each. The
callback rules (context, destroy, scope, closures) are in callbacks.py.
"""

import re

from stubgen.importer import callbacks
from stubgen.importer.spell import canon, spell

# A parameter that counts the elements of the pointer before it: a
# generic name, or a name that starts like the pointer's and ends like a
# count (dest, destLen; dictionary, dictLength).
COUNT_NAMES = frozenset(("n", "len", "length", "size", "count", "num",
                         "nbyte", "nbytes", "bytes", "cb"))
COUNT_END = re.compile(r"(?i)(len|length|size|count|bytes)$")


def _counts(p, q):
    if q.name.lower() in COUNT_NAMES:
        return True
    k = 0
    while k < min(len(p.name), len(q.name)) and p.name[k] == q.name[k]:
        k += 1
    return k >= 3 and COUNT_END.search(q.name) is not None


# A T** that the function fills in.
OUT_NAME = re.compile(r"(?i)^(pp|pz|out|ret)|(out|result|errmsg)$")
# A function whose name says that it returns values through pointers:
# one of its words (split at _ and at lower-to-upper case changes).
GETTER_WORDS = frozenset(("get", "status", "query", "pending", "metadata"))
# A function that makes an object someone must free, and its free.
MAKER = re.compile(r"^(?P<stem>.*?)(?P<sep>_?)"
                   r"(?P<verb>new|New|create|Create|open|Open)(?P<rest>.*)$")
FREE_VERBS = ("free", "destroy", "close", "delete", "release")

CHAR_KINDS = ("char", "signed char", "unsigned char")
# What a [bytes] buffer holds (plain char is text: a string with a count).
BYTE_KINDS = ("signed char", "unsigned char", "int8_t", "uint8_t")
# A function that hands the library an input it reads in later calls:
# one of its words.
KEEPER_WORDS = frozenset(("set", "input", "source", "attach", "feed"))
# What a counted pointer points to: elements of a buffer or an array.
BUFFER_KINDS = ("scalar", "enum", "void", "pointer")


def apply(header):
    """Runs every rule over the header's functions, in order: the
    per-parameter rules, ownership, then the callback rules."""
    live = [f for f in header.functions if f.left_out is None]
    for f in live:
        out_getter(f)
        lengths(f, f.params, True)
        out_names(f)
    owned(header, live)
    callbacks.apply(header, live)
    for f in live:
        string_arrays(f, f.params)
        strings(f)
        kept_inputs(f)
    for td in header.typedefs.values():
        if td.callback:
            fn = td.type.func()
            lengths(td, fn.params, False)
            string_arrays(td, fn.params)
            filled_buffers(td, fn.params)
    for rec in list(header.records.values()):
        if rec.fields is not None:
            shown = header.typedefs.get(rec.typedef) or rec
            _record_lengths(shown, rec)
    library_allocated(header, live)


def _free(p):
    return not p.anns


def lengths(decl, params, forward):
    """`T *p` followed by an integer named like a count: [length=count];
    followed by a pointer to one: the capacity in and the count out,
    [length=count] and [inout] on it. A `const char *` that a host passes
    to C (forward) stays a string: its bytes and its count go in."""
    for p, q in zip(params, params[1:]):
        target = p.type.pointee()
        if target is None or target.kind not in BUFFER_KINDS or \
                not _free(p) or not _free(q) or not _counts(p, q):
            continue
        if forward and _is_string(p.type) and q.type.is_integer():
            decl.rule("string-with-count", "%s, its count %s"
                      % (p.name, q.name))
        elif q.type.is_integer():
            if _is_bytes(p.type):
                p.anns.append("bytes")
                decl.rule("bytes", p.name)
            p.anns.append("length=%s" % q.name)
            decl.rule("length", "%s counted by %s" % (p.name, q.name))
        elif q.type.pointee() is not None and \
                q.type.pointee().kind in ("scalar", "enum") and \
                q.type.pointee().name not in ("float", "double") and \
                not q.type.pointee().const:
            p.anns.append("length=%s" % q.name)
            q.anns.append("inout")
            decl.rule("length-inout", "%s counted by *%s, in and out"
                      % (p.name, q.name))


def _record_lengths(shown, rec):
    """The rules length and bytes on the fields of a record, and of the
    records defined in place in it; the comments go on the declaration
    the draft writes (shown). A record whose fields refer to a typedef
    still being read where the field was (a self-referring `typedef
    struct s s;`) is left alone."""
    if not all(_resolvable(f.type) for f in rec.fields):
        return
    lengths(shown, rec.fields, False)
    for f in rec.fields:
        r = f.type.resolved()
        while r.kind == "array":
            r = r.target.resolved()
        if r.kind == "record" and r.record is not None and r.record.inline:
            _record_lengths(shown, r.record)


def _resolvable(t):
    while t is not None and t.kind in ("typedef", "pointer", "array"):
        t = t.target
    return t is not None


def _is_bytes(t):
    target = t.pointee()
    return target is not None and target.kind == "scalar" and \
        target.name in BYTE_KINDS


def filled_buffers(td, params):
    """A counted buffer a callback type gets that is not const: C may
    hand it for the callback to fill (REVIEW: [out, length=N])."""
    for p in params:
        counted = [a for a in p.anns if a.startswith("length=")]
        if counted and not p.type.pointee().const and "out" not in p.anns:
            td.review("%s: if the callback fills this buffer, write [out, "
                      "%s] (a host then hands it a writable view)"
                      % (p.name, ", ".join(p.anns)))


def kept_inputs(f):
    """A function named like one that hands the library an input (set,
    input, source, attach, feed) with an object first: does the library
    keep its const pointer inputs after the call? (REVIEW: [kept])"""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", f.name).lower()
    if not KEEPER_WORDS & set(words.split("_")) or not f.params:
        return
    owner = f.params[0]
    target = owner.type.pointee()
    if target is None or target.const or target.kind not in (
            "record", "opaque"):
        return
    for p in f.params[1:]:
        pt = p.type.pointee()
        if pt is not None and pt.const and pt.kind == "scalar" and \
                "kept=%s" % owner.name not in p.anns:
            f.review("%s: does the library keep this pointer after the call "
                     "returns? then add [kept=%s]: a host keeps the value "
                     "alive as long as %s" % (p.name, owner.name,
                                               owner.name))


def library_allocated(header, live):
    """A record the header defines that a function makes as an owned
    object (the rule owned: a *_new and its *_free) and that nothing
    holds by value: the library allocates it and the program meets it
    only through its pointers, so the draft keeps it opaque (rule
    library-allocated). A record the library hands out without an owner
    (a table of features, a registry's entry) keeps its fields."""
    held = set()
    for rec in header.records.values():
        for fld in rec.fields or ():
            held |= _records_in(fld.type)
    for f in live:
        for t in [f.ret] + [p.type for p in f.params]:
            held |= _records_in(t)
    for rec in header.records.values():
        if rec.fields is None or rec.name in held:
            continue
        makers = [f.name for f in live if _points_to(f.ret, rec) and
                  any(a.startswith("owned(") for a in f.anns)]
        if makers:
            rec.fields = None
            shown = header.typedefs.get(rec.typedef) or rec
            shown.rule("library-allocated", "%s makes it, owned, and "
                       "nothing holds one by value: opaque"
                       % ", ".join(makers))


def _records_in(t):
    """The names of the records t holds by value (itself, or the
    elements of arrays; records defined in place looked into)."""
    r = t.resolved()
    while r.kind == "array":
        r = r.target.resolved()
    if r.kind != "record" or r.record is None:
        return set()
    if r.record.inline:
        out = set()
        for fld in r.record.fields:
            out |= _records_in(fld.type)
        return out
    return {r.name}


def _points_to(t, rec):
    target = t.pointee() if t is not None else None
    return target is not None and target.kind == "record" and \
        target.record is rec


def out_names(f):
    """A `T **` (T not const) named like an output: [out]."""
    for p in f.params:
        t = p.type.pointee()
        if t is not None and t.kind == "pointer" and not t.const and \
                _free(p) and OUT_NAME.search(p.name):
            p.anns.append("out")
            f.rule("out-name", p.name)


def out_getter(f):
    """In a function whose name says it returns through pointers
    (get, status, query, pending, metadata), a pointer to a non-const
    scalar other than char: [out]."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", f.name).lower()
    if not GETTER_WORDS & set(words.split("_")):
        return
    for p in f.params:
        t = p.type.pointee()
        if t is not None and t.kind in ("scalar", "enum") and \
                not t.const and t.name not in CHAR_KINDS and _free(p):
            p.anns.append("out")
            f.rule("out-getter", p.name)


def owned(header, live):
    """What a *_new/*_create/*_open function returns (or puts in an [out]
    T **) is owned by the matching *_free/*_destroy/*_close (same stem,
    one parameter of that type); failing that, by the one free-like
    function of the header taking that type."""
    for f in live:
        m = MAKER.match(f.name)
        if m is None:
            continue
        places = [(None, f.ret)] + [(p, p.type.pointee()) for p in f.params
                                    if "out" in p.anns]
        for p, t in places:
            if t is None or t.resolved().kind != "pointer" or \
                    _is_string(t):
                continue   # a destructor of a string takes a string
            closer, why = _closer(live, m, t)
            what = "the result" if p is None else p.name
            if closer is None:
                if why:
                    f.review("%s: which function frees it? %s" % (what, why))
                continue
            ann = "owned(%s)" % closer
            if p is None:
                f.anns.append(ann)
            else:
                p.anns.append(ann)
            f.rule("owned", "%s freed by %s" % (what, closer))


def _is_string(t):
    target = t.pointee()
    return target is not None and target.is_char() and target.const


def _closer(live, m, t):
    want = canon(t)
    takers = [g for g in live if len(g.params) == 1 and
              canon(g.params[0].type) == want]
    verbs = FREE_VERBS if m.group("verb").islower() else \
        tuple(v.capitalize() for v in FREE_VERBS)
    for verb in verbs:
        name = m.group("stem") + m.group("sep") + verb
        if any(g.name == name for g in takers):
            return name, None
    free_like = [g.name for g in takers
                 if any(v in g.name.lower() for v in FREE_VERBS)]
    if len(free_like) == 1:
        return free_like[0], None
    if free_like:
        return None, "candidates: %s" % ", ".join(free_like)
    return None, None


def string_arrays(decl, params):
    """A `const char **` with no count: an array ending with NULL,
    [zero_terminated]."""
    for p in params:
        t = p.type.pointee()
        if t is not None and t.kind == "pointer" and _free(p) and \
                t.target.is_char() and t.target.resolved().const:
            p.anns.append("zero_terminated")
            decl.rule("string-array", p.name)


def strings(f):
    """`const char *` is a string (the IDL's default: a comment only); a
    `char *` may be a buffer or a string: REVIEW, also for what an [out]
    `char **` gives back, and for a `const unsigned char *` (text or
    bytes?)."""
    said = []
    for p in [None] + f.params:
        t = f.ret if p is None else p.type
        name = "the result" if p is None else p.name
        pt = t.pointee()
        if p is not None and not p.anns and _is_bytes(t) and pt.const:
            f.review("%s is a %s: text ([string]) or bytes ([bytes, "
                     "length=N])?" % (name, spell(p.type)))
        if pt is None or not pt.is_char() or (p is not None and p.anns):
            continue
        if pt.const:
            if not any(r == "string-with-count" and d.startswith(name + ",")
                       for r, d in f.rules):
                said.append(name)
        elif p is None:
            f.review("the result is a char *: a string? (add [string] "
                     "after the parameter list) and who frees it?")
        else:
            f.review("%s is a char *: a buffer or a string? (add [string] "
                     "for a string, [length=N] for a buffer)" % name)
    for p in f.params:
        pt = p.type.pointee()
        if "out" in p.anns and pt.pointee() is not None and \
                pt.pointee().is_char() and not pt.pointee().const:
            f.review("*%s is a char *: a string? ([out, string]) and who "
                     "frees it? ([owned(F)])" % p.name)
    if said:
        f.rule("string", ", ".join(said))
