"""Annotations: the names each place allows and the forms of their values.
annotation_values checks a list of syntax annotations and returns
{name: (value, pos)}."""

from stubgen.errors import IdlError
from stubgen.model.callbacks import MAX_THUNKS

# name -> how its value is written: "bool" (flag, or =true/false),
# "name" (=NAME or (NAME)), "size" (=N or =CONSTANT), "dir" (flag only),
# "count" (=N, a positive integer), "context" (a flag in a callback
# typedef, =NAME or (NAME, ...) on a function's parameter)
ANN_FORMS = {
    "in": "dir", "out": "dir", "inout": "dir",
    "string": "bool", "bytes": "bool", "kept": "name",
    "zero_terminated": "bool", "nullable": "bool",
    "nonnull": "bool", "length": "name", "size": "size", "owned": "name",
    "errno": "bool", "lasterror": "bool", "windows": "bool",
    "function_pointer": "bool", "macro": "bool",
    "rename": "name", "variadic": "name",
    "module": "bool", "system_lib": "bool",
    "trace": "bool", "fault": "bool",
    "context": "context", "scope": "name", "destroy": "name",
    "thunks": "count", "closures": "name",
}
VALUE_ANNS = ("string", "bytes", "zero_terminated", "nullable", "nonnull",
              "length", "size", "owned")
FUNCTION_ANNS = ("errno", "lasterror", "windows", "function_pointer",
                 "macro", "rename", "variadic", "trace", "fault")
DEFAULTABLE = ("errno", "lasterror", "function_pointer", "trace", "fault")
PACKED_ANNS = ("module", "system_lib")
FIELD_ANNS = ("string", "bytes", "zero_terminated", "nullable", "nonnull",
              "length", "size")
PARAM_ANNS = ("in", "out", "inout") + VALUE_ANNS + ("context", "scope",
                                                     "destroy", "closures",
                                                     "kept")
CB_PARAM_ANNS = ("in", "out", "inout", "context", "string", "bytes",
                 "zero_terminated", "nullable", "nonnull", "length", "size")
CB_TYPEDEF_ANNS = ("thunks", "errno", "lasterror", "windows", "string",
                   "zero_terminated",
                    "nullable", "nonnull", "size")


def annotation_values(anns, allowed, where):
    """Checks annotation names, forms and duplicates; returns
    {name: (value, pos)}; flag-like values are True/False."""
    out = {}
    for a in anns:
        form = ANN_FORMS.get(a.name)
        if form is None:
            raise IdlError(a.pos, "unknown annotation '%s'" % a.name)
        if a.name not in allowed:
            raise IdlError(a.pos, "'%s' is not allowed on %s"
                           % (a.name, where))
        if a.name in out:
            raise IdlError(a.pos, "duplicate annotation '%s'" % a.name)
        out[a.name] = (annotation_value(a, form, where), a.pos)
    return out


def annotation_value(a, form, where=""):
    if form == "context":
        if where == "a callback parameter":
            # [context]: this parameter is the context; [context=FN]: the
            # context is FN(this parameter)
            if a.kind == "flag":
                return True
            v = a.values[0]
            if a.kind != "value" or v.kind != "name":
                raise IdlError(a.pos, "'context' in a callback typedef is a "
                               "flag, or names the function that gets the "
                               "context from the parameter, as in "
                               "[context=NAME]")
            return (v.value, v.pos)
        if a.kind == "flag":
            raise IdlError(a.pos, "'context' needs the callbacks whose "
                           "context the parameter carries, as in "
                           "[context=NAME] or [context(NAME, NAME)]")
        names = []
        for v in a.values:
            if v.kind != "name":
                raise IdlError(v.pos, "'context' needs parameter names, "
                               "not %s" % v.text)
            names.append((v.value, v.pos))
        return names
    if form == "count":
        v = a.values[0] if a.kind == "value" and len(a.values) == 1 \
            else None
        if v is None or v.kind != "int" or not 1 <= v.value <= MAX_THUNKS:
            raise IdlError(a.pos, "'%s' needs the pool size, an integer "
                           "from 1 to %d, as in [%s=4]"
                           % (a.name, MAX_THUNKS, a.name))
        return v.value
    if form == "dir":
        if a.kind != "flag":
            raise IdlError(a.pos, "'%s' takes no value" % a.name)
        return True
    if form == "bool":
        if a.kind == "flag":
            return True
        v = a.values[0] if len(a.values) == 1 else None
        if v is not None and a.kind == "value":
            if v.kind == "name" and v.value in ("true", "false"):
                return v.value == "true"
            if v.kind == "int" and v.value in (0, 1):
                return v.value == 1
        raise IdlError(a.pos, "'%s' takes no value, or =true or =false"
                       % a.name)
    if a.kind == "flag":
        example = {"name": "%s=NAME", "size": "%s=16"}[form] % a.name
        raise IdlError(a.pos, "'%s' needs a value, as in [%s]"
                       % (a.name, example))
    if len(a.values) != 1:
        raise IdlError(a.pos, "'%s' takes one value" % a.name)
    v = a.values[0]
    if form == "name":
        if v.kind == "string":
            if not is_ident(v.value):
                raise IdlError(v.pos, "'%s' needs a C identifier, not %s"
                               % (a.name, v.text))
            return v.value
        if v.kind != "name":
            raise IdlError(v.pos, "'%s' needs a name, not %s"
                           % (a.name, v.text))
        return v.value
    # size
    if v.kind == "int":
        if v.value <= 0:
            raise IdlError(v.pos, "'size' must be a positive integer or a "
                           "constant name, not %s" % v.text)
        return v.value
    if v.kind == "name":
        return v.value
    raise IdlError(v.pos, "'size' must be a positive integer or a "
                   "constant name, not %s" % v.text)


def is_ident(s):
    return (bool(s) and (s[0].isalpha() or s[0] == "_") and s.isascii()
            and all(c.isalnum() or c == "_" for c in s))
