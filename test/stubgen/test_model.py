"""The checked model: types, slots, signatures, tables."""

import pytest

from conftest import EXAMPLES, model
from stubgen.model import SlotIndex

M = "module m;\n"


def fn(text, name=None):
    m = model(M + text)
    return m.functions[-1] if name is None else m.function(name)


@pytest.mark.parametrize("ctype,code", [
    ("bool", "?"), ("_Bool", "?"), ("char", "NCCC_SIG_CHAR"),
    ("signed char", "b"), ("unsigned char", "B"), ("short", "h"),
    ("short int", "h"), ("unsigned short", "H"), ("int", "i"),
    ("signed", "i"), ("unsigned", "I"), ("unsigned int", "I"),
    ("long", "NCCC_SIG_LONG"), ("long int", "NCCC_SIG_LONG"),
    ("unsigned long", "NCCC_SIG_ULONG"), ("long long", "l"),
    ("long long int", "l"), ("unsigned long long", "L"), ("float", "f"),
    ("double", "d"), ("int8_t", "b"), ("uint8_t", "B"), ("int16_t", "h"),
    ("uint16_t", "H"), ("int32_t", "i"), ("uint32_t", "I"), ("int64_t", "l"),
    ("uint64_t", "L"), ("size_t", "NCCC_SIG_SIZE"),
    ("ssize_t", "NCCC_SIG_SSIZE"), ("intptr_t", "NCCC_SIG_INTPTR"),
    ("uintptr_t", "NCCC_SIG_UINTPTR"), ("ptrdiff_t", "NCCC_SIG_INTPTR"),
    ("void *", "p"), ("const char *", "s"), ("char *", "p"),
    ("int (*)(int)", "F"), ("const int", "i"),
])
def test_slot_code_of_every_scalar_type(ctype, code):
    if "(*)" in ctype:
        f = fn("void f(int (*x)(int));")
    else:
        f = fn("void f(%s x);" % ctype)
    assert f.sig_in == [code]


def test_signature_for_data_models():
    f = fn("long f(size_t n, char c, unsigned long u);")
    assert f.signature("LP64") == "LbL:l"
    assert f.signature("ILP32") == "IbI:i"
    assert f.signature("LLP64") == "LbI:i"


def test_kinds():
    m = model(M + """
        struct s { int x; }; union u { int x; }; struct o; typedef ... T;
        enum e { A };
        void f(bool a, int b, unsigned c, char d, float e, double g, enum e h,
               void *i, int (*j)(void), struct s k, union u l, struct o *p,
               T *q);""")
    kinds = [p.type.kind for p in m.functions[0].params]
    assert kinds == ["bool", "sint", "uint", "char", "float", "double", "enum",
                     "pointer", "funcptr", "struct", "union", "pointer",
                     "pointer"]
    assert m.functions[0].params[11].pointee.kind == "opaque"
    assert m.functions[0].params[12].pointee.kind == "opaque"


def test_slot_layout_of_out_inout_and_errno():
    f = fn("int f(int a, [out] double *d, [inout] long *n, char *s) [errno];")
    assert [(s.role, s.name, s.code, s.index.constant) for s in f.in_slots] \
        == [("arg", "a", "i", 0), ("inout", "n", "NCCC_SIG_LONG", 1),
            ("arg", "s", "p", 2)]
    assert [(s.role, s.name, s.code, s.index.constant) for s in f.out_slots] \
        == [("return", "return", "i", 0), ("out", "d", "d", 1),
            ("inout", "n", "NCCC_SIG_LONG", 2), ("errno", "errno", "e", 3)]
    assert f.n_in == SlotIndex(3) and f.n_out == SlotIndex(4)
    assert f.signature() == "ilp:idle"
    d = f.params[1]
    assert d.in_slot is None and d.out_slot is f.out_slots[1]
    n = f.params[2]
    assert n.in_slot is f.in_slots[1] and n.out_slot is f.out_slots[2]


def test_function_pointer_target_comes_first():
    f = fn("void f(int x) [function_pointer];")
    assert [(s.role, s.code) for s in f.in_slots] == [("target", "F"),
                                                      ("arg", "i")]
    assert f.in_slots[1].index.constant == 1
    assert f.signature() == "Fi:"


def test_records_by_value_take_sizeof_slots():
    f = fn("struct p { int x; };\n"
           "struct p f(int a, struct p b, int c, [out] struct p *d);")
    a, b, c = f.in_slots
    assert a.index.constant == 0 and b.index.constant == 1
    assert b.record is not None and b.code == "{p}"
    assert c.index.constant is None
    assert c.index.fixed == 1
    assert [t.spell() for t in c.index.records] == ["struct p"]
    assert repr(f.n_in) == "2+slots(struct p)"
    ret, d = f.out_slots
    assert ret.record is not None and d.record is not None
    assert repr(d.index) == "slots(struct p)"
    assert repr(f.n_out) == "slots(struct p)+slots(struct p)"
    assert f.signature() == "i{p}i:{p}{p}"


def test_module_defaults_and_default_statements():
    m = model("module m [errno];\nint a(void);\ndefault [errno=false];\n"
              "int b(void);\nint c(void) [errno];\n"
              "default [function_pointer];\nint d(void);")
    assert [(f.name, f.errno, f.function_pointer) for f in m.functions] == [
        ("a", True, False), ("b", False, False), ("c", True, False),
        ("d", False, True)]


def test_strings_by_default_and_by_annotation():
    f = fn("const char *f(const char *a, char *b, [string] char *c, "
           "[string=false] const char *d, [length=n] const char *e, int n);")
    assert f.signature() == "spspp" + "i:s"
    assert [p.info.string for p in f.params] == [True, False, True, False,
                                                 False, False]


def test_value_annotations_are_recorded():
    m = model(M + "void release(void *p);\n"
              "char *f([nullable, length=n] const int *a, int n) "
              "[owned(release), nonnull];")
    f = m.function("f")
    assert f.params[0].info.as_dict() == {"nullable": True, "length": "n"}
    assert f.ret_info.as_dict() == {"nullable": False, "owned": "release"}


def test_array_parameters_decay_and_keep_their_size():
    f = fn("int f(int a[4], const double b[]);")
    assert [p.type.spell() for p in f.params] == ["int *", "const double *"]
    assert f.params[0].info.size == 4
    assert f.params[1].info.size is None


def test_out_value_annotations_describe_the_pointee():
    f = fn("void f([out] const char **name, [out, string] char **copy);")
    assert f.signature() == ":ss"


def test_rename_and_owned_use_registry_names():
    m = model(M + "void xfree(void *p) [rename=free_it];\n"
              "char *dup(const char *s) [owned(xfree)];")
    assert m.function("free_it").c_name == "xfree"
    assert m.function("dup").ret_info.owned == "free_it"


def test_variadic_instantiation():
    m = model(M + "int printf(const char *fmt, ...);\n"
              "int printf_sd(const char *fmt, int a, double b) "
              "[variadic=printf];")
    (f,) = m.functions
    assert (f.name, f.c_name, f.variadic_of) == ("printf_sd", "printf",
                                                 "printf")
    assert f.prototype is m.prototypes[0]
    assert f.signature() == "sid:i"


def test_layout_table():
    m = model(M + """
        struct a { int x; char name[8]; struct a *next; };
        typedef struct { double re, im; } cplx;
        union u { int i; float f; };
        struct fwd;
        typedef ... FILE;
        struct later;
        struct later { cplx c; };""")
    assert [(e.name, e.kind) for e in m.layouts] == [
        ("a", "struct"), ("cplx", "struct"), ("u", "union"),
        ("fwd", "opaque"), ("FILE", "opaque"), ("later", "struct")]
    a = m.layout("a")
    assert [(f.name, f.code) for f in a.fields] == [
        ("x", "i"), ("name", "NCCC_SIG_CHAR"), ("next", "p")]
    assert a.fields[1].count_type.spell() == "char"
    assert m.layout("later").fields[0].code == "{cplx}"


def test_constants_table():
    m = model(M + "enum e { A, B = 4, C };\nenum { X = 1 << 2 };\n"
              "const unsigned long long BIG = 1ULL << 40;\n"
              "static const char Q = 'q';")
    assert [(c.name, c.code) for c in m.constants] == [
        ("A", "i"), ("B", "i"), ("C", "i"), ("X", "i"), ("BIG", "L"),
        ("Q", "NCCC_SIG_CHAR")]
    assert m.constants[1].decl.value == "4"
    assert m.constants[2].decl.previous.name == "B"
    assert m.constants[4].decl.value == "1ULL << 40"


def test_include_mode_takes_values_and_names_from_headers():
    m = model(M + "#include <zlib.h>\nconst int Z_OK;\n"
              "enum { LEVEL = Z_BEST_COMPRESSION };\n"
              "int deflateInit(void *strm, int level) [macro];")
    assert m.has_includes
    assert [c.name for c in m.constants] == ["Z_OK", "LEVEL"]
    assert m.constants[0].decl.value is None
    assert m.constants[1].decl.value == "Z_BEST_COMPRESSION"
    assert m.functions[0].macro


def test_used_scalars_collects_assumed_sizes():
    m = model(M + "short f(int a, double b, long long c);")
    assert m.used_scalars == {"short", "int", "double", "long long"}


def test_tour_example_checks():
    m = model((EXAMPLES / "tour.idl").read_text())
    assert len(m.functions) == 57
    assert m.function("name_of_color").c_name == "color_name"
    assert m.function("parse_long").errno
    assert not m.function("format_int").errno
