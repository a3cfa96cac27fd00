"""The Source builder and Sections shared by the emitters."""

import pytest

from stubgen.source import Sections, Source


def test_lines_and_indentation():
    s = Source()
    s.line("a")
    s.indent().line("b").indent().line("c").dedent().dedent()
    s.line("d")
    assert str(s) == "a\n  b\n    c\nd\n"


def test_block_indents_its_body_and_closes():
    s = Source()
    with s.block("void f(void) {", "}"):
        s.line("g();")
        with s.block("if (x) {", "}"):
            s.line("h();")
    assert str(s) == "void f(void) {\n  g();\n  if (x) {\n    h();\n  }\n}\n"


def test_custom_indent_unit():
    s = Source(indent="\t")
    with s.block("{", "}"):
        s.line("x;")
    assert str(s) == "{\n\tx;\n}\n"


def test_blank_lines_never_pile_up_nor_start_or_end_the_text():
    s = Source()
    s.blank()
    s.line("a")
    s.blank()
    s.blank()
    s.line("")
    s.line("b")
    s.blank()
    assert str(s) == "a\n\nb\n"


def test_empty_source_is_empty_text():
    s = Source()
    assert s.empty()
    assert str(s) == ""
    s.blank()
    assert str(s) == ""


def test_lines_dedents_a_block_and_keeps_its_shape():
    s = Source()
    with s.block("{", "}"):
        s.lines("""
            one
              two

            three
            """)
    assert str(s) == "{\n  one\n    two\n\n  three\n}\n"


def test_line_refuses_newlines():
    with pytest.raises(ValueError):
        Source().line("a\nb")


def test_dedent_below_zero_is_an_error():
    with pytest.raises(ValueError):
        Source().dedent()


def test_extend_reindents_another_source():
    inner = Source()
    inner.line("x;").blank().line("y;")
    outer = Source()
    with outer.block("{", "}"):
        outer.extend(inner)
    assert str(outer) == "{\n  x;\n\n  y;\n}\n"


def test_sections_join_in_declared_order_skipping_empty_ones():
    sec = Sections(["head", "decls", "body", "tail"])
    sec["body"].line("body")
    sec["head"].line("head")
    sec["tail"].line("tail")
    assert sec.join() == "head\n\nbody\n\ntail\n"


def test_sections_reject_unknown_and_duplicate_names():
    sec = Sections(["a"])
    with pytest.raises(KeyError):
        sec["b"]
    with pytest.raises(ValueError):
        Sections(["a", "a"])
