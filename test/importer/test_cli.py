"""nccc-stubgen --import on the command line: the draft file, located
errors for headers that do not compile (never a traceback), usage
errors, and --update keeping the user's work."""

import re
import shutil

import pytest

from conftest import HEADERS, base, signatures, stubgen

ZLIB_H = "/usr/include/zlib.h"


def test_writes_the_draft_and_records_the_options(tmp_path):
    out = tmp_path / "w.idl"
    r = stubgen("--import", HEADERS / "widget.h", "--filter", "widget_",
                "--cflags=-DWIDGET_EXTRA", "-o", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text.split("\n")[1] == (
        "// nccc-stubgen --import %s --cflags=-DWIDGET_EXTRA "
        "--filter=widget_" % (HEADERS / "widget.h"))
    assert "widget_extra" in signatures(text)


def test_cflags_as_the_next_argument():
    r = stubgen("--import", HEADERS / "widget.h", "--cflags",
                "-DWIDGET_EXTRA -I.")
    assert r.returncode == 0, r.stderr
    assert "int widget_extra(void);" in r.stdout
    assert "'--cflags=-DWIDGET_EXTRA -I.'" in r.stdout.split("\n")[1]


def test_without_output_the_draft_goes_to_stdout():
    r = stubgen("--import", HEADERS / "parser.h")
    assert r.returncode == 0 and "\nmodule parser;\n" in r.stdout


def _error(path, *extra):
    r = stubgen("--import", path, *extra)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    return r.stderr


def test_truncated_header_is_a_located_error(tmp_path):
    text = open(ZLIB_H).read()
    cut = tmp_path / "zlib_cut.h"
    cut.write_text(text[:text.index("ZEXTERN int ZEXPORT deflate ") + 20])
    err = _error(cut)
    assert re.match(r"%s:\d+:\d+: error: " % re.escape(str(cut)), err), err
    lines = err.split("\n")
    assert lines[2].strip() == "^"


@pytest.mark.parametrize("text, expected", [
    # truncated inside a comment
    ("int f(int a);\n/* the rest is lost\nint g(void);\n",
     "2:1: error: unterminated /* comment\n/* the rest is lost\n^"),
    # malformed
    ("#include <stddef.h>\nint f(size_t n;\nint g(void);\n",
     "2:15: error: expected ')'\nint f(size_t n;\n              ^"),
    ('#include "nowhere.h"\n', "1:10: error: 'nowhere.h' file not found"),
])
def test_located_errors(tmp_path, text, expected):
    bad = tmp_path / "bad.h"
    bad.write_text(text)
    assert _error(bad).startswith("%s:%s" % (bad, expected))


def test_unreadable_header_and_missing_library_are_usage_errors(tmp_path):
    r = stubgen("--import", tmp_path / "none.h")
    assert r.returncode == 2
    assert "cannot read %s" % (tmp_path / "none.h") in r.stderr
    r = stubgen("--import", HEADERS / "widget.h", "--library",
                "libnccc-none.so")
    assert r.returncode == 2 and "cannot load libnccc-none.so" in r.stderr
    r = stubgen("--import", "--update", tmp_path / "none.idl")
    assert r.returncode == 2


V1 = """typedef struct box box;
box *box_new(int size);
void box_free(box *b);
int box_put(box *b, const void *data, int len);
int box_old(box *b);
struct pt { int x; int *ys; int n; };
int box_at(box *b, struct pt *where);
"""
V2 = """typedef struct box box;
box *box_new(int size);
void box_free(box *b);
int box_put(box *b, const void *data, int len, int flags);
int box_take(box *b, void *data, int len);
struct pt { int x; int *ys; int n; };
int box_at(box *b, struct pt *where);
"""


def test_update_keeps_annotations_adds_and_reports(tmp_path):
    header, idl = tmp_path / "box.h", tmp_path / "box.idl"
    header.write_text(V1)
    assert stubgen("--import", header, "-o", idl).returncode == 0
    user = idl.read_text()
    user = user.replace("box *box_new(int size) [owned(box_free)];",
                        "// a new box holds size items\n"
                        "box *box_new(int size) [owned(box_free), nonnull];")
    user = user.replace("int box_put(box *b,", "int box_put([nonnull] box *b,")
    user = user.replace("  int *ys;", "  [length=n] int *ys;")
    user += "\nint box_count(box *b) [macro];\n"
    idl.write_text(user)
    header.write_text(V2)
    out = tmp_path / "box2.idl"
    r = stubgen("--import", "--update", idl, "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stderr.split("\n") == [
        "nccc-stubgen: added function box_take",
        "nccc-stubgen: changed function box_put",
        "nccc-stubgen: removed function box_old", ""]
    text = out.read_text()
    assert "// a new box holds size items\n" \
        "box *box_new(int size) [owned(box_free), nonnull];" in text
    assert "  [length=n] int *ys;" in text
    assert "int box_count(box *b) [macro];" in text
    assert "box_old" not in text
    assert "// REVIEW: the header changed this declaration; annotations " \
        "carried over from the previous IDL, which had:\n" \
        "//   int box_put(box *b, const void *data, int len);\n" \
        "int box_put([nonnull] box *b, [length=len] const void *data, " \
        "int len, int flags);" in text
    assert "int box_take(box *b, [length=len] void *data, int len);" in text
    assert set(signatures(text)) == {"box_new", "box_free", "box_put",
                                     "box_take", "box_at", "box_count"}


def test_update_of_an_unchanged_header_changes_nothing(tmp_path):
    header = tmp_path / "widget.h"
    shutil.copy(HEADERS / "widget.h", header)
    idl = tmp_path / "w.idl"
    assert stubgen("--import", header, "-o", idl).returncode == 0
    r = stubgen("--import", "--update", idl, "-o", tmp_path / "w2.idl")
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "w2.idl").read_text() == idl.read_text()


def test_headers_cut_anywhere_give_a_draft_or_a_located_error(tmp_path):
    from stubgen.importer import HeaderError, import_header
    for source in (ZLIB_H, "/usr/include/expat.h"):
        text = open(source).read()
        for k in range(1, 13):
            cut = tmp_path / ("cut%d.h" % k)
            cut.write_text(text[:len(text) * k // 13])
            try:
                draft = import_header(str(cut))
            except HeaderError as e:
                assert re.match(r"%s:\d+:\d+: error: " % re.escape(str(cut)),
                                str(e)), str(e)
            else:
                assert draft.startswith("// cut%d: drafted" % k)


def test_without_libclang_the_command_says_what_to_install():
    r = base.run_stubgen("--import", HEADERS / "parser.h",
                         env={"NCCC_LIBCLANG": "/nonexistent/libclang.so"})
    assert r.returncode == 3 and "Traceback" not in r.stderr
    assert r.stderr == "nccc-stubgen: error: libclang cannot be loaded from " \
        "/nonexistent/libclang.so (apt-get install libclang-14-dev, or " \
        "NCCC_LIBCLANG=FILE)\n"
