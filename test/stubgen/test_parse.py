"""The parser: grammar, syntax nodes, positions."""

import io
import logging

from lark import Lark, logger

from stubgen import syntax as S
from stubgen.errors import Pos
from stubgen.parse import grammar_path, parse


def items(text):
    return parse(text).items


def test_grammar_is_lalr_without_conflicts():
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    old = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        with open(grammar_path()) as f:
            Lark(f.read(), parser="lalr", lexer="basic", debug=True)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    assert "conflict" not in buf.getvalue().lower()


def test_module_line_and_annotations():
    f = parse("module zlib [errno, function_pointer=false];")
    assert f.module.name == "zlib"
    assert f.module.pos == Pos(1, 8)
    anns = f.module.annotations
    assert [(a.name, a.kind) for a in anns] == [("errno", "flag"),
                                               ("function_pointer", "value")]
    assert anns[1].values[0].kind == "name"
    assert anns[1].values[0].value == "false"


def test_comments_and_directives():
    its = items("// c\nmodule m; /* block\ncomment */\n#include <a.h>\n"
                "#  include \"b.h\" \n#define _POSIX_C_SOURCE 200809L\n")
    assert [type(i).__name__ for i in its] == ["Directive"] * 3
    assert its[0].text == "#include <a.h>"
    assert its[0].pos == Pos(4, 1)


def test_function_declaration_nodes():
    (d,) = items("module m;\nint64_t add(int64_t a, int64_t) [rename=plus];")
    assert isinstance(d, S.Decl) and d.is_fn
    assert isinstance(d.specifiers.base, S.TypeName)
    assert d.specifiers.base.name == "int64_t"
    fn = d.declarator
    assert isinstance(fn, S.DFunction) and not fn.variadic
    assert fn.inner.name == "add" and fn.inner.pos == Pos(2, 9)
    assert [p.declarator.name if p.declarator else None
            for p in fn.params] == ["a", None]
    (ann,) = d.annotations
    assert (ann.name, ann.kind, ann.values[0].value) == ("rename", "value",
                                                         "plus")


def test_declarators_nest_like_c():
    (d,) = items("module m; char *(*getfn(int which))(int);")
    # pointer -> function(int) -> pointer -> function(which) -> name
    p = d.declarator
    assert isinstance(p, S.DPointer)
    assert isinstance(p.inner, S.DFunction)
    assert isinstance(p.inner.inner, S.DPointer)
    assert isinstance(p.inner.inner.inner, S.DFunction)
    assert p.inner.inner.inner.inner.name == "getfn"


def test_qualifiers_everywhere():
    (d,) = items("module m; void f(const char *const *names, int const x);")
    p0, p1 = d.declarator.params
    assert [q for q, _ in p0.specifiers.quals] == ["const"]
    assert [q for q, _ in p0.declarator.quals] == ["const"]
    assert p0.declarator.inner.quals == []
    assert [q for q, _ in p1.specifiers.quals] == ["const"]


def test_variadic_and_void_parameter_lists():
    a, b = items("module m; int printf(const char *fmt, ...); int g(void);")
    assert a.declarator.variadic
    assert len(b.declarator.params) == 1
    assert b.declarator.params[0].declarator is None


def test_expressions_become_c_text_with_names():
    (d,) = items("module m; enum e { A = -(1 + 2) * 3, B = A << 1 | 0x10u, "
                 "C = 'x' };")
    e = d.specifiers.base.enumerators
    assert e[0].value.text == "-(1 + 2) * 3"
    assert e[0].value.literal is None
    assert e[1].value.text == "A << 1 | 0x10u"
    assert [n for n, _ in e[1].value.names] == ["A"]
    assert e[2].value.text == "'x'"


def test_integer_literals_keep_their_value():
    (d,) = items("module m; struct s { char a[0x10]; };")
    arr = d.specifiers.base.fields[0].declarators[0][0]
    assert isinstance(arr, S.DArray)
    assert arr.size.literal == 16


def test_annotation_value_forms():
    (d,) = items('module m; void f([size=-3, owned(a, b), rename="x y", '
                 'flag] int *p);')
    anns = d.declarator.params[0].annotations
    assert [a.kind for a in anns] == ["value", "call", "value", "flag"]
    assert anns[0].values[0].value == -3
    assert [v.value for v in anns[1].values] == ["a", "b"]
    assert anns[2].values[0].kind == "string"
    assert anns[2].values[0].value == "x y"


def test_module_and_packed_are_not_reserved_words():
    (d,) = items("module m; int f(int module, int packed);")
    assert [p.declarator.name for p in d.declarator.params] == ["module",
                                                              "packed"]
    (p,) = items('module m; packed "runtime.SystemLib" '
                 'TVMModuleHandle lib(void);')
    assert isinstance(p, S.PackedDecl) and p.name == "runtime.SystemLib"
    assert p.keyword[0] == "packed"


def test_packed_declaration():
    (p,) = items('module m; packed "a\\tb" int64_t add(int64_t x, int y) '
                 '[module];')
    assert p.name == "a\tb"
    assert p.pos.column == 18 and p.keyword[1].column == 11
    assert isinstance(p.declarator, S.DFunction)
    assert p.declarator.inner.name == "add"
    assert [q.declarator.name for q in p.declarator.params] == ["x", "y"]
    assert [a.name for a in p.annotations] == ["module"]


def test_typedef_forms():
    its = items("module m; typedef ... FILE; typedef struct { int x; } P, *PP;"
                " typedef int (*cb)(void *ctx);")
    assert isinstance(its[0], S.OpaqueTypedef) and its[0].name == "FILE"
    assert isinstance(its[1], S.Typedef)
    assert len(its[1].declarators) == 2
    assert isinstance(its[2].declarators[0][0], S.DFunction)


def test_default_statement():
    (d,) = items("module m; default [errno];")
    assert isinstance(d, S.DefaultDecl)
    assert d.annotations[0].name == "errno"
