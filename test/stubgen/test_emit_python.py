"""The Python emitter: what it writes (M.py, M.pyi), that it is stable,
that every IDL goes through it, that the output is Python the interpreter
accepts, and that a module binds to a stand-in library with the options
the lowering decided. The modules' runtime behaviour against a real
library is in test/python."""

import ast
import importlib.util
import sys

import pytest

from conftest import ROOT, SHIPPED_IDLS
from stubgen.cli import generate

BINDINGS = ROOT / "bindings" / "python"
SMALL = """module m;
enum e { A, B = 4 };
const int LIMIT = 7;
struct pt { int x; int y; };
struct obj;
int64_t add(int64_t a, int64_t b);
long neg(long x);
void divmod(int a, int b, [out] int *q, [out] int *r);
struct pt mid(struct pt a, struct pt b);
struct obj *make(int v) [owned(drop)];
void drop([nullable] struct obj *o);
int use([nonnull] struct obj *o);
"""


def python_of(text, name="m"):
    out = generate(text, "t.idl", ["python"])
    return out[name + ".py"], out[name + ".pyi"]


def load(tmp_path, text, name="m"):
    source, _ = python_of(text, name)
    path = tmp_path / (name + ".py")
    path.write_text(source)
    if str(BINDINGS) not in sys.path:
        sys.path.insert(0, str(BINDINGS))
    spec = importlib.util.spec_from_file_location("gen_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_functions_are_their_binding_records():
    source, _ = python_of(SMALL)
    assert "        {'name': 'add', 'error_name': 'm.add', 'signatures': " \
        "['ll:l'], 'in_count': 2},\n" in source
    assert "'signatures': ['l:l', 'l:l', 'i:i', 'i:i', 'i:i', 'i:i'], " \
        "'in_count': 1}," in source
    assert "'owned': {'result': 1, 'free': 'drop', 'kind': 'object', " \
        "'type': 'struct obj'}}," in source
    assert "{'name': 'use', 'error_name': 'm.use', 'signatures': ['p:i'], " \
        "'in_count': 1, 'nonnull': [1]}," in source
    assert "class pt(_Record):" in source and "__slots__ = ('x', 'y', )" \
        in source
    assert source.rstrip().endswith("MODULE = _binder.Module(BINDING, "
                                    "CLASSES)\nbind = MODULE.bind")
    # data only: no function defined in the module
    assert "def " not in source and "lambda" not in source


def test_stubs_type_every_function():
    _, stubs = python_of(SMALL)
    assert "def add(self, a: int, b: int) -> int: ..." in stubs
    assert "def divmod(self, a: int, b: int) -> _typing.Tuple[int, int]: " \
        "..." in stubs
    assert "def mid(self, a: pt, b: pt) -> pt: ..." in stubs
    assert "def make(self, v: int) -> _typing.Optional[_nccc.Owned]: ..." \
        in stubs
    assert "LIMIT: int" in stubs


def test_stubs_declare_every_helper_of_a_bound_module():
    """M.pyi's class Bound has every public method of nccc.binder.Bound
    (what a bound module offers besides the IDL's names), and lib."""
    _, stubs = python_of(SMALL)
    declared = _methods(ast.parse(stubs), "Bound")
    helpers = _methods(ast.parse((BINDINGS / "nccc" / "binder.py")
                                 .read_text()), "Bound")
    assert helpers >= {"layout", "pack", "unpack", "signature", "values",
                       "callback"}
    assert helpers <= declared
    assert "lib: _nccc.Library" in stubs


def _methods(tree, class_name):
    cls = next(n for n in tree.body
               if isinstance(n, ast.ClassDef) and n.name == class_name)
    return {n.name for n in cls.body if isinstance(n, ast.FunctionDef)
            and not n.name.startswith("_")}


def test_output_is_stable():
    assert python_of(SMALL) == python_of(SMALL)


@pytest.mark.parametrize("idl", SHIPPED_IDLS, ids=[p.name for p in SHIPPED_IDLS])
def test_every_idl_gives_python_that_parses(idl):
    out = generate(idl.read_text(), idl.name, ["python"])
    assert len(out) == 2
    for name, source in out.items():
        ast.parse(source, filename=name)


class StandIn:
    """What Module.bind asks of a library, answered from a table."""

    def __init__(self, signatures, constants):
        self.handle, self.classes = None, {}
        self.sigs, self.consts, self.made = signatures, constants, []

    def lookup(self, name):
        return name

    def signature(self, h):
        return self.sigs[h]

    def constants(self, m):
        return self.consts

    def fast(self, key, nonnull=(), words=None, thunks=False):
        self.made.append((key, tuple(nonnull), sorted(words or ()), thunks))
        return lambda *a: (key, a)


def test_bind_makes_each_call_with_its_options(tmp_path):
    m = load(tmp_path, SMALL)
    lib = StandIn({"m.add": "ll:l", "m.neg": "i:i", "m.divmod": "ii:ii",
                   "m.mid": "{pt}{pt}:{pt}", "m.make": "i:p",
                   "m.drop": "p:", "m.use": "p:i"},
                  {"A": 0, "B": 4, "LIMIT": 7})
    b = m.bind(lib)
    assert b.add(1, 2) == ("m.add", (1, 2))
    assert (b.B, b.LIMIT) == (4, 7)
    assert ("m.use", (1,), [], False) in lib.made
    assert ("m.make", (), [1], False) in lib.made
    assert b._targets == [2, 3, 4, 5]     # neg is i:i: ILP32 and LLP64
    assert b.pt is m.pt and lib.classes["pt"] is m.pt


def test_bind_refuses_a_signature_the_idl_does_not_give(tmp_path):
    import nccc
    m = load(tmp_path, "module m; int64_t add(int64_t a, int64_t b);")
    with pytest.raises(nccc.Error, match="'ll:d' in the library"):
        m.bind(StandIn({"m.add": "ll:d"}, {}))


@pytest.mark.parametrize("idl", SHIPPED_IDLS, ids=[p.name for p in SHIPPED_IDLS])
def test_every_idl_binds_with_its_records(idl, tmp_path):
    """nccc.binder reads every shipped IDL's records: bind looks up each
    function once and makes its call with the record's options."""
    from stubgen.model import build
    text = idl.read_text()
    model = build(text)
    name = model.name
    m = load(tmp_path, text, name)
    lib = StandIn({"%s.%s" % (name, f.name): f.signature()
                   for f in model.functions},
                  {c.name: k for k, c in enumerate(model.constants)})
    b = m.bind(lib)
    made = {key for key, _, _, _ in lib.made}
    for f in model.functions:
        assert callable(getattr(b, f.name))
        # its call, made from the handle lookup gave (destructors also
        # by name for owned results)
        assert "%s.%s" % (name, f.name) in made, f.name
    for k, c in enumerate(model.constants):
        assert getattr(b, c.name) == k
