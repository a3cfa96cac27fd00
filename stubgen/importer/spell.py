"""C spelling of the importer's types, with the annotations the rules put
on the parameters of function types (callback types)."""


def base_name(t):
    """The type specifier of a non-derived type."""
    if t.kind == "record":
        rec = t.record
        if rec is not None and rec.inline:
            return ("union " if rec.union else "struct ") + record_body(rec)
        if rec is not None and rec.typedef:
            return rec.typedef
        return ("union " if rec is not None and rec.union else "struct ") \
            + t.name
    if t.kind == "enum":
        e = t.record
        if e is not None and e.name is None:
            return e.typedef
        return "enum " + t.name
    if t.kind == "void":
        return "void"
    return t.name     # scalar, typedef, opaque


def spell(t, decl=""):
    """The C declaration of `decl` with type t (decl "" spells the type)."""
    if t.kind == "pointer":
        inner = "*" + ("const" if t.const else "")
        if t.const and decl:
            inner += " "
        inner += decl
        if t.target.kind in ("array", "func"):
            inner = "(" + inner + ")"
        return spell(t.target, inner)
    if t.kind == "array":
        return spell(t.target, "%s[%s]" % (decl, "" if t.size is None
                                          else t.size))
    if t.kind == "func":
        return spell(t.ret, "%s(%s)" % (decl, params_text(t.params)))
    text = ("const " if t.const else "") + base_name(t)
    return text + (" " + decl if decl else "")


def record_body(rec):
    """The braces and fields of a record, one field a line, indented (a
    record defined in place in a field indented once more)."""
    lines = []
    for f in rec.fields:
        text = param_text(f) + ";"
        lines += ["  " + line for line in text.split("\n")]
    return "{\n%s\n}" % "\n".join(lines)


def param_text(p):
    anns = "[%s] " % ", ".join(p.anns) if p.anns else ""
    return anns + spell(p.type, p.name or "")


def params_text(params):
    return ", ".join(param_text(p) for p in params) if params else "void"


def canon(t):
    """Equal for the same C type: typedefs looked through."""
    r = t.resolved()
    if r.kind == "pointer":
        return ("const " if r.const else "") + "*" + canon(r.target)
    if r.kind == "array":
        return "[%s]%s" % (r.size, canon(r.target))
    if r.kind == "func":
        return "(%s)%s" % (",".join(canon(p.type) for p in r.params),
                           canon(r.ret))
    return ("const " if r.const else "") + base_name(r)
