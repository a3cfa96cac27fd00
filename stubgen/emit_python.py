"""The Python emitter: M.py, a module for the Python support library
bindings/python (docs/PYTHON.md, "Generated modules"), and M.pyi, its
type stubs.

    tour = importlib.import_module("tour").bind(nccc.open(path))
    tour.add(40, 2)   # 42

M.py holds data and record classes only: the module's binding records
(stubgen/model/binding.py, docs/BINDING.md) as one Python literal,
written by the shared literal writer (stubgen/literal.py), handed to
nccc.binder.Module, whose bind interprets them: it looks every function
up once, checks its signature and makes its converter and call once in
the primitive (lib.fast). M.pyi gives every function its argument and
result types.
"""

import keyword

from stubgen import abi as abi_source
from stubgen.host import HostModule
from stubgen.literal import LiteralSyntax, write_literal
from stubgen.model.binding import data_records
from stubgen.source import Source

ABI = abi_source.load()
PYTHON = LiteralSyntax(string=repr, true="True", false="False",
                       list=("[", "]"), dict=("{", "}"),
                       key=lambda k: "%r: " % k)
_PY_TYPE = {"bool": "bool", "int": "int", "float": "float",
            "pointer": "_Pointer", "function": "_Pointer", "string": "str",
            "closure": "_Callback", "errno": "int"}


def _codes(side):
    """The codes of one side of a signature: single characters, and
    {name} records as the record's name."""
    items, i = [], 0
    while i < len(side):
        if side[i] == ABI.record_open:
            close = side.index(ABI.record_close, i)
            items.append(side[i + 1:close].split(ABI.record_count)[0])
            i = close + 1
        else:
            items.append(side[i])
            i += 1
    return [c for c in items if c != ABI.variadic]


def _py_type(code, records, result=False):
    if code in records:
        return records[code]
    info = ABI.code(code) if len(code) == 1 else None
    if info is None:
        return "_typing.Any"
    if result and info.kind == "pointer":
        return "_typing.Optional[int]"
    if result and info.kind == "string":
        return "_typing.Optional[str]"
    return _PY_TYPE[info.kind]


def _class_name(name):
    """A record class's Python name: the layout's, with a trailing _
    when that is a Python keyword."""
    return name + "_" if keyword.iskeyword(name) else name


def _record_classes(module):
    """[(layout name, kind, field names)] of the structs and unions."""
    return [(entry.name, entry.kind, [f.name for f in entry.fields])
            for entry in module.layouts if entry.kind in ("struct", "union")]


def _emit_module(host, module):
    src = Source(indent="    ")
    src.line('"""%s.py: the nccc module "%s" for Python, %s.' % (
        host.name, host.name, host.generated_by()))
    src.lines('''

        Data only: bind, the conversions and calls are the support
        library's (bindings/python/nccc/binder.py; docs/PYTHON.md,
        "Generated modules"):  m = %s.bind(nccc.open(path))
        """''' % host.name)
    src.blank()
    src.line("from nccc import binder as _binder")
    src.line("from nccc.values import Record as _Record")
    for name, kind, fields in _record_classes(module):
        src.blank()
        src.blank()
        with src.block("class %s(_Record):" % _class_name(name), ""):
            src.line('"""%s %s (layout %s.%s)."""' % (kind, name, host.name,
                                                     name))
            src.line("__slots__ = (%s)" % "".join(
                "%r, " % f for f in fields))
            src.line("_layout_name = %r" % name)
    src.blank()
    src.blank()
    src.line("# the module's binding records (docs/BINDING.md)")
    write_literal(src, data_records(module), PYTHON, before="BINDING = ",
                  indent="    ")
    src.line("CLASSES = {%s}" % ", ".join(
        "%r: %s" % (name, _class_name(name))
        for name, _, _ in _record_classes(module)))
    src.blank()
    src.line("MODULE = _binder.Module(BINDING, CLASSES)")
    src.line("bind = MODULE.bind")
    return str(src)


def _usable(name):
    """A name the stubs can spell (not a Python keyword)."""
    return bool(name) and name.isidentifier() and not keyword.iskeyword(name)


def _arguments(lf, records):
    """(name, Python type) of the arguments a bound function takes."""
    ins = _codes(lf.signatures[0].split(ABI.separator)[0])
    skip = {lf.position(c.slot) for c in lf.set_closures
            if c.member is None}
    members = {lf.position(c.slot) for c in lf.set_closures
               if c.member is not None}
    args, used = [], set()
    for k, (slot, code) in enumerate(zip(lf.in_slots, ins), 1):
        if k in skip:
            continue
        name = slot.name if _usable(slot.name) and slot.name not in used \
            and slot.name != "self" else "arg%d" % k
        used.add(name)
        if k in members:
            typ = "_typing.Optional[_typing.Callable[..., _typing.Any]]"
        else:
            typ = _py_type(code, records)
        args.append("%s: %s" % (name, typ))
    return args


def _result(lf, records):
    outs = _codes(lf.signatures[0].split(ABI.separator)[1])
    types = [_py_type(c, records, result=True) for c in outs]
    own = lf.owned_return
    if own is not None and types:
        types[0] = "_typing.Optional[str]" if own.string \
            else "_typing.Optional[_nccc.Owned]"
    if not types:
        return "None"
    if len(types) == 1:
        return types[0]
    return "_typing.Tuple[%s]" % ", ".join(types)


def _emit_stubs(host, module):
    records = {name: _class_name(name) for name, _, _ in
               _record_classes(module)}
    src = Source(indent="    ")
    src.line('"""Type stubs of %s.py, %s."""' % (host.name,
                                                   host.generated_by()))
    src.blank()
    src.line("import typing as _typing")
    src.blank()
    src.line("import nccc as _nccc")
    src.line("from nccc.values import Record as _Record")
    src.blank()
    src.line("_Pointer = _typing.Union[int, None, _nccc.Owned, _nccc.CData, "
             "bytes, bytearray, memoryview]")
    src.line("_Callback = _typing.Optional[_nccc.Closure]")
    for name, kind, fields in _record_classes(module):
        src.blank()
        src.blank()
        with src.block("class %s(_Record):" % _class_name(name), ""):
            for f in fields:
                # a keyword field is reached with getattr or r["name"]
                src.line(("%s: _typing.Any" if _usable(f) else
                          "# field %s: a Python keyword") % f)
            src.line("...")
    src.blank()
    src.blank()
    with src.block("class Bound:", ""):
        src.line('"""The module bound to a library."""')
        src.line("lib: _nccc.Library")
        for c in filter(_usable, host.constants):
            src.line("%s: int" % c)
        for name in filter(_usable, records):
            src.line("%s: _typing.Type[%s]" % (name, records[name]))
        for lf in host.functions:
            if not _usable(lf.name):
                src.line("# %s: a Python keyword, reached with getattr"
                         % lf.name)
                continue
            args = ", ".join(["self"] + _arguments(lf, records))
            src.line("def %s(%s) -> %s: ..." % (lf.name, args,
                                                 _result(lf, records)))
        src.line("def callback(self, name: str, fn: _typing.Callable[..., "
                 "_typing.Any], scope: str = ..., any_thread: bool = ...) "
                 "-> _nccc.Closure: ...")
        src.line("def signature(self, name: str) -> str: ...")
        src.line("def values(self, name: str, fn: _typing.Callable[..., "
                 "_typing.Any]) -> _typing.Callable[..., _typing.Any]: ...")
        src.line("def layout(self, name: str) -> _typing.Any: ...")
        src.line("def pack(self, name: str, value: _typing.Any) -> bytes: ...")
        src.line("def unpack(self, name: str, data: bytes) -> _Record: ...")
        src.line("def new(self, name: str, value: _typing.Any = ...) -> "
                 "_typing.Any: ...")
        src.line("def view(self, name: str, p: _typing.Any, count: "
                 "_typing.Optional[int] = ...) -> _typing.Any: ...")
    src.blank()
    src.blank()
    src.line("def bind(lib: _nccc.Library) -> Bound: ...")
    return str(src)


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    return {host.name + ".py": _emit_module(host, module),
            host.name + ".pyi": _emit_stubs(host, module)}
