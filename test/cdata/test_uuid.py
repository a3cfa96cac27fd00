"""Debian's uuid/uuid.h (uuid-dev): the draft of --import generates C
that compiles without a warning, -Warray-parameter included, although
the header's functions take `const uuid_t` (typedef unsigned char
uuid_t[16]); linked against libuuid, its wrappers parse, print and
compare uuids."""

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "importer_test_helpers", HERE.parent / "importer" / "conftest.py")
helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(helpers)
runtime_lib = helpers.runtime_lib          # the pytest fixture

UUID_H = Path("/usr/include/uuid/uuid.h")

MAIN = r"""#include <stdio.h>
#include <nccc/nccc.h>
#include "uuid_nccc.h"
static unsigned char a[16], b[16];
static char text[37];
int main(void) {
  uint64_t in[2], out[1];
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_uuid_register() != NCCC_OK)
    return 1;
  in[0] = nccc_slot_from_ptr("1B4E28BA-2FA1-11D2-883F-0016D3CCA427");
  in[1] = nccc_slot_from_ptr(a);
  nccc_uuid_uuid_parse(in, out);
  printf("parse %d\n", nccc_slot_to_i32(out[0]));
  in[0] = nccc_slot_from_ptr("not a uuid");
  in[1] = nccc_slot_from_ptr(b);
  nccc_uuid_uuid_parse(in, out);
  printf("parse %d\n", nccc_slot_to_i32(out[0]));
  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(text);
  nccc_uuid_uuid_unparse(in, out);
  printf("%s\n", text);
  in[0] = nccc_slot_from_ptr(text);
  in[1] = nccc_slot_from_ptr(b);
  nccc_uuid_uuid_parse(in, out);
  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(b);
  nccc_uuid_uuid_compare(in, out);
  printf("equal %d\n", nccc_slot_to_i32(out[0]));
  b[15] = 0x28;
  nccc_uuid_uuid_compare(in, out);
  printf("a < b %d\n", nccc_slot_to_i32(out[0]) < 0);
  return 0;
}
"""


@pytest.fixture(scope="module")
def uuid_draft():
    if not UUID_H.is_file():
        pytest.fail("%s is missing (apt-get install uuid-dev)" % UUID_H)
    return helpers.draft(UUID_H, library="libuuid.so.1")


def test_the_draft_keeps_the_const_array_typedef_parameters(uuid_draft):
    assert "typedef unsigned char uuid_t[16];" in uuid_draft
    assert "int uuid_compare(const uuid_t uu1, const uuid_t uu2);" \
        in uuid_draft


def test_the_wrappers_redeclare_as_the_header_declares(uuid_draft, tmp_path):
    files = helpers.base.write_outputs(uuid_draft, tmp_path, "uuid.idl")
    c = files["uuid_nccc.c"]
    assert "int (uuid_compare)(const uuid_t uu1, const uuid_t uu2);" in c
    assert "uuid_compare((const unsigned char *)nccc_slot_to_ptr(in[0]), " \
        "(const unsigned char *)nccc_slot_to_ptr(in[1]))" in c
    r = helpers.base.compile_c([tmp_path / "uuid_nccc.c"], tmp_path / "u.o",
                               "-Warray-parameter", "-pedantic", std="c11")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_parse_unparse_and_compare_through_the_wrappers(
        uuid_draft, runtime_lib, tmp_path):
    out = helpers.link_and_run(uuid_draft, "uuid", MAIN, ["-luuid"],
                               runtime_lib, tmp_path)
    assert out == ("parse 0\nparse -1\n"
                   "1b4e28ba-2fa1-11d2-883f-0016d3cca427\n"
                   "equal 0\na < b 1\n")
