"""Every rule of the importer on the made-up headers of headers/: the
annotation it writes, the comment naming it, the REVIEW markers, what
is left out and why; each draft passes the checker and its C compiles
against the header."""

import pytest

from conftest import HEADERS, base, build, draft, signatures, unit


@pytest.fixture(scope="module")
def widget():
    return draft(HEADERS / "widget.h")


@pytest.fixture(scope="module")
def parser():
    return draft(HEADERS / "parser.h")


def test_module_and_include(widget):
    assert "\nmodule widget;\n\n#include \"widget.h\"\n" in widget


@pytest.mark.parametrize("needle, expected", [
    ("widget_new(", "// rule owned: the result freed by widget_free\n"
     "// rule string: name\n"
     "widget *widget_new(const char *name,\n"
     "    enum widget_kind kind) [owned(widget_free)];"),
    ("widget_open(", "// rule out-name: out_widget\n"
     "// rule owned: out_widget freed by widget_free\n"
     "// rule string: path\n"
     "int widget_open(const char *path,\n"
     "    [out, owned(widget_free)] widget **out_widget);"),
    ("widget_write(", "// rule length: data counted by len\nsize_t "
     "widget_write(widget *w, [length=len] const void *data, size_t len);"),
    ("widget_read(", "// rule length-inout: buf counted by *buf_len, in "
     "and out\nint widget_read(widget *w, [length=buf_len] void *buf,\n"
     "    [inout] size_t *buf_len);"),
    ("widget_get_size(", "// rule out-getter: width; height\nint "
     "widget_get_size(const widget *w, [out] int *width, [out] int *height);"),
    ("widget_send(", "// rule string-with-count: text, its count n\n"
     "int widget_send(widget *w, const char *text, int n);"),
    ("widget_tag(", "// rule string-array: tags\nint widget_tag(widget *w, "
     "[zero_terminated] const char **tags);"),
    ("int (*widget_visit_fn)", "// rule context: ud, its first void *\n"
     "typedef int (*widget_visit_fn)([context] void *ud, const char *key, "
     "int depth);"),
    ("widget_each(", "// rule context: ud carries visit's context\n"
     "// rule scope: visit: call (used while widget_each runs)\n"
     "int widget_each(widget *w, widget_visit_fn visit, "
     "[context=visit] void *ud);"),
    ("widget_on_close_cb_fn(", "// rule context: ud, its first void *\n"
     "typedef void widget_on_close_cb_fn([context] void *ud, int code);"),
    ("void widget_on_close(", "// rule context: ud carries cb's context\n"
     "// REVIEW: how long does the library keep cb? [scope=forever] never "
     "releases it; [scope=call] if only this call uses it\n"
     "void widget_on_close(widget *w, [scope=forever] widget_on_close_cb_fn "
     "*cb,\n    [context=cb] void *ud);"),
    ("void widget_watch(", "// rule context: ud carries cb's context\n"
     "// rule destroy: release releases cb's closure\n"
     "void widget_watch(widget *w, [scope=notified] widget_watch_cb_fn *cb,\n"
     "    [context=cb] void *ud, [destroy=cb] void (*release)(void *ud));"),
    ("widget_name(", "// REVIEW: dest is a char *: a buffer or a string? "
     "(add [string] for a string, [length=N] for a buffer)\n"
     "int widget_name(widget *w, char *dest);"),
    ("widget_error(", "// rule out-name: out_message\n// REVIEW: *out_message "
     "is a char *: a string? ([out, string]) and who frees it? "
     "([owned(F)])\nint widget_error(widget *w, [out] char **out_message);"),
    ("widget_describe(", "// REVIEW: the result is a char *: a string? (add "
     "[string] after the parameter list) and who frees it?\n"
     "char *widget_describe(const widget *w);"),
])
def test_rule(widget, needle, expected):
    assert unit(widget, needle) == expected


def test_constants_and_enums(widget):
    assert "\nconst int WIDGET_MAX;\nconst unsigned long WIDGET_BITS;\n" \
        in widget
    # not constant expressions: skipped without a comment
    assert "WIDGET_API" not in widget and "WIDGET_UNKNOWN" not in widget
    assert "enum widget_kind {\n  WIDGET_ROUND = 0,\n  WIDGET_SQUARE = 4\n};" \
        in widget


@pytest.mark.parametrize("line", [
    "// left out: WIDGET_NAME: a string constant; the IDL's constants are "
    "integers",
    "// left out: WIDGET_SCALE: a floating-point number constant; the IDL's "
    "constants are integers",
    "// left out: WIDGET_CLAMP(...) is a function-like macro; bind it with a "
    "prototype marked [macro]",
    "// left out: widget_log: variadic: the IDL calls it through "
    "instantiations with fixed parameters ([variadic=widget_log], "
    "docs/IDL.md)",
    "// left out: widget_precise: long double does not fit in a slot",
    "// left out: widget_old: the header marks it deprecated (a call to it "
    "would not compile warning-free)",
    "// left out: 'widget_count' is a variable; the IDL binds functions and "
    "constants",
    "// REVIEW: written as opaque: it has the bit-field 'visible', which the "
    "IDL cannot express\nstruct flags;",
    "// left out: widget_seek: it passes 'fpos_t' by value, a type known "
    "here only by name",
    "// REVIEW: written as opaque: it has the field 'at' (a type known here "
    "only by name), which the IDL cannot express\nstruct mark;",
])
def test_left_out_with_the_reason(widget, line):
    assert line in widget


def test_closure_set_for_user_data_set_apart(parser):
    assert unit(parser, "closures handlers") == (
        "closures handlers(parser) {\n  start_handler start;\n"
        "  end_handler end;\n  text_handler text;\n};")
    assert unit(parser, "parser_set_user_data(") == (
        "// rule closures: user_data carries the user data of handlers\n"
        "void parser_set_user_data(parser p, [context=handlers] "
        "void *user_data);")
    assert unit(parser, "parser_set_text_handler(") == (
        "// rule closures: text (member of handlers, NULL unsets it)\n"
        "void parser_set_text_handler(parser p,\n"
        "    [closures=handlers, nullable] text_handler text);")
    assert "typedef void (*text_handler)([context] void *user_data,\n" \
        "    [length=len] const char *s, int len);" in parser


@pytest.mark.parametrize("name", ["widget", "parser", "events"])
def test_draft_checks_and_compiles_against_its_header(name, tmp_path):
    text = draft(HEADERS / (name + ".h"))
    assert signatures(text)                  # the checker takes it
    base.write_outputs(text, tmp_path, name + ".idl")
    r = base.compile_c([tmp_path / ("%s_nccc.c" % name)], tmp_path / "x.o",
                       "-I", str(HEADERS), "-I", str(tmp_path))
    assert r.returncode == 0, r.stderr


def test_filter_keeps_the_functions_with_the_prefix():
    text = draft(HEADERS / "widget.h", prefix="widget_get")
    assert list(signatures(text)) == ["widget_get_size"]
    assert "widget_new" not in text


def test_module_name_and_flags():
    text = draft(HEADERS / "widget.h", "-DWIDGET_EXTRA=1", module="w2")
    assert "\nmodule w2;\n" in text
    assert build(text).name == "w2"
    assert "int widget_extra(void);" in text
    assert "widget_extra" not in draft(HEADERS / "widget.h")


def test_a_callback_type_without_a_context_at_every_use_stays_plain(
        tmp_path):
    h = tmp_path / "two.h"
    h.write_text("typedef void (*tick_fn)(void *ud, int n);\n"
                 "void two(tick_fn a, void *ud, tick_fn b);\n"
                 "void one(tick_fn a, void *ud);\n")
    text = draft(h)
    assert "typedef void (*tick_fn)(void *ud, int n);" in text
    assert "void two(tick_fn a, void *ud, tick_fn b);" in text
    assert signatures(text)["one"] == "Fp:"
