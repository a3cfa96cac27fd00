"""Drafts of real headers: zlib.h against the shipped idl/zlib.idl,
sqlite3.h through --check, expat.h with its patch; each draft compiled,
its wrappers linked against the real library and called."""

import re
from pathlib import Path

import pytest

from conftest import ROOT, build, draft, link_and_run, signatures, stubgen
from edit import edited

ZLIB_H = Path("/usr/include/zlib.h")
SQLITE3_H = Path("/usr/include/sqlite3.h")
EXPAT_H = Path("/usr/include/expat.h")
LEFT_OUT = re.compile(r"^// left out: (\w+): (.*)$", re.M)

MAIN = """#include <stdio.h>
#include <string.h>
#include <nccc/nccc.h>
#include "%(m)s_nccc.h"
int main(void) {
  uint64_t in[4] = {0}, out[4] = {0};
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_%(m)s_register() != NCCC_OK)
    return 1;
%(body)s
  return 0;
}
"""


def _main(module, body):
    return MAIN % {"m": module, "body": body}


@pytest.fixture(scope="module")
def zlib_draft():
    return draft(ZLIB_H)


def test_zlib_signatures_equal_the_shipped_idl(zlib_draft):
    shipped = signatures((ROOT / "idl" / "zlib.idl").read_text())
    drafted = signatures(zlib_draft)
    common = sorted(set(shipped) & set(drafted))
    # every function of the shipped IDL but the two [macro] ones
    assert set(shipped) - set(common) == {"deflateInit", "inflateInit"}
    assert len(common) == 13
    assert {n: drafted[n] for n in common} == {n: shipped[n] for n in common}
    assert drafted["compress2"] == "pLpLi:iL"


def test_zlib_draft_links_and_calls_crc32(zlib_draft, runtime_lib, tmp_path):
    body = """
  in[0] = 0; in[1] = nccc_slot_from_ptr("hello"); in[2] = 5;
  nccc_zlib_crc32(in, out);
  printf("%08llx\\n", (unsigned long long)out[0]);"""
    out = link_and_run(zlib_draft, "zlib", _main("zlib", body), ["-lz"],
                       runtime_lib, tmp_path)
    assert out == "3610a686\n"


@pytest.fixture(scope="module")
def sqlite3_draft():
    return draft(SQLITE3_H)


def _declared_functions(path):
    """The functions the header declares after the preprocessor, as
    clang sees them."""
    from clang.cindex import CursorKind
    from stubgen.importer import front
    tu = front.parse(str(path), [])
    return {c.spelling for c in tu.cursor.get_children()
            if c.kind == CursorKind.FUNCTION_DECL and c.location.file
            and c.location.file.name == str(path)}


def test_sqlite3_draft_passes_check_for_95_percent(sqlite3_draft, tmp_path):
    idl = tmp_path / "sqlite3.idl"
    idl.write_text(sqlite3_draft)
    r = stubgen("--check", idl)
    assert r.returncode == 0, r.stderr
    declared = _declared_functions(SQLITE3_H)
    bound = set(signatures(sqlite3_draft))
    left_out = dict(LEFT_OUT.findall(sqlite3_draft))
    assert bound <= declared
    # every function of the header is bound, or listed with its reason
    assert declared == bound | {n for n in left_out if n in declared}
    assert len(bound) / len(declared) >= 0.95, (len(bound), len(declared))
    for name in declared - bound:
        assert re.match(r"variadic|a va_list", left_out[name]), name


def test_sqlite3_draft_for_the_library_leaves_out_what_it_lacks():
    text = draft(SQLITE3_H, library="libsqlite3.so.0")
    left_out = dict(LEFT_OUT.findall(text))
    lacking = {n for n, why in left_out.items() if "does not export" in why}
    # Debian's build has no snapshots, no scan status, no win32 calls
    assert {"sqlite3_snapshot_get", "sqlite3_stmt_scanstatus",
            "sqlite3_win32_set_directory"} <= lacking
    assert "sqlite3_open" not in left_out


def test_sqlite3_draft_links_and_opens_a_database(runtime_lib, tmp_path):
    sqlite3_draft = draft(SQLITE3_H, library="libsqlite3.so.0")
    body = """
  in[0] = nccc_slot_from_ptr(":memory:");
  nccc_sqlite3_sqlite3_open(in, out);       /* [out, owned] ppDb */
  if (out[0] != 0) return 2;
  in[0] = out[1];
  nccc_sqlite3_sqlite3_close(in, out);
  printf("%d\\n", (int)nccc_slot_to_i32(out[0]));
  nccc_sqlite3_sqlite3_libversion_number(in, out);
  if (nccc_slot_to_i32(out[0]) < 3000000) return 3;"""
    out = link_and_run(sqlite3_draft, "sqlite3", _main("sqlite3", body),
                       ["-lsqlite3"], runtime_lib, tmp_path)
    assert out == "0\n"


@pytest.fixture(scope="module")
def expat_draft():
    return draft(EXPAT_H)


def test_expat_draft_needs_at_most_10_edited_lines(expat_draft, tmp_path):
    text, count = edited(expat_draft)
    assert count <= 10
    build(text)                       # the edited draft passes the checker
    (tmp_path / "expat.idl").write_text(text)


def test_expat_edited_draft_links_and_reports_its_version(
        expat_draft, runtime_lib, tmp_path):
    text, _ = edited(expat_draft)
    body = """
  nccc_expat_XML_ExpatVersion(in, out);
  printf("%.6s\\n", (const char *)nccc_slot_to_ptr(out[0]));"""
    out = link_and_run(text, "expat", _main("expat", body), ["-lexpat"],
                       runtime_lib, tmp_path)
    assert out == "expat_\n"
