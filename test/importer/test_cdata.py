"""C data in drafts (headers/events.h): records the header defines are
drafted with their fields, records defined in place and anonymous
members included; a record only the library allocates stays opaque;
unsigned-char buffers are [bytes]; REVIEW markers for a buffer a
callback may fill, an input the library may keep and unsigned-char
text; --update keeps a partial record the user wrote."""

import pytest

from conftest import HEADERS, draft, signatures, stubgen, unit


@pytest.fixture(scope="module")
def events():
    return draft(HEADERS / "events.h")


def test_records_defined_in_place_and_anonymous_members(events):
    assert unit(events, "} ev_event;") == """// rule bytes: value
// rule length: value counted by length
typedef struct {
  int type;
  union {
    struct {
      [bytes, length=length] const unsigned char *value;
      size_t length;
    } scalar;
    struct {
      int first;
      union {
        int tag;
        float weight;
      };
    } mark;
  } data;
  struct {
    short lo;
    short hi;
  } ranges[2];
} ev_event;"""


def test_a_record_the_caller_allocates_has_its_fields(events):
    assert unit(events, "struct ev_parser {") == """// rule bytes: input
// rule length: input counted by length
struct ev_parser {
  [bytes, length=length] const unsigned char *input;
  size_t length;
  size_t at;
};"""


def test_a_record_only_the_library_allocates_stays_opaque(events):
    assert unit(events, "struct ev_cursor;") == (
        "// rule library-allocated: ev_cursor_new makes it, owned, and "
        "nothing holds one by value: opaque\nstruct ev_cursor;")


def test_bytes_and_an_input_the_library_may_keep(events):
    assert unit(events, "ev_parser_set_input(") == (
        "// rule bytes: input\n"
        "// rule length: input counted by size\n"
        "// REVIEW: input: does the library keep this pointer after the "
        "call returns? then add [kept=p]: a host keeps the value alive as "
        "long as p\n"
        "void ev_parser_set_input(ev_parser *p,\n"
        "    [bytes, length=size] const unsigned char *input, size_t size);")


def test_a_buffer_a_callback_may_fill(events):
    assert unit(events, "(*ev_read_fn)") == (
        "// rule context: data, its first void *\n"
        "// rule bytes: buffer\n"
        "// rule length: buffer counted by size\n"
        "// REVIEW: buffer: if the callback fills this buffer, write [out, "
        "bytes, length=size] (a host then hands it a writable view)\n"
        "typedef int (*ev_read_fn)([context] void *data,\n"
        "    [bytes, length=size] unsigned char *buffer, size_t size,\n"
        "    size_t *size_read);")


def test_unsigned_char_text_or_bytes(events):
    assert unit(events, "ev_scalar_is(") == (
        "// REVIEW: text is a const unsigned char *: text ([string]) or "
        "bytes ([bytes, length=N])?\n"
        "int ev_scalar_is(const unsigned char *text, const ev_event *event);")


def test_the_reviewed_annotations_check(events):
    text = events.replace(
        "[bytes, length=size] unsigned char *buffer",
        "[out, bytes, length=size] unsigned char *buffer").replace(
        "[bytes, length=size] const unsigned char *input",
        "[bytes, length=size, kept=p] const unsigned char *input").replace(
        "int ev_scalar_is(const unsigned char *text",
        "int ev_scalar_is([string] const unsigned char *text")
    sigs = signatures(text)
    assert sigs["ev_scalar_is"] == "sp:i"
    assert sigs["ev_parser_set_input"] == "ppL:"


def test_update_keeps_a_partial_record(tmp_path):
    header = tmp_path / "events.h"
    header.write_text((HEADERS / "events.h").read_text())
    idl = tmp_path / "events.idl"
    assert stubgen("--import", header, "-o", idl).returncode == 0
    text = idl.read_text()
    partial = text.replace("""// rule bytes: input
// rule length: input counted by length
struct ev_parser {
  [bytes, length=length] const unsigned char *input;
  size_t length;
  size_t at;
};""", """// only what the program reads
struct ev_parser {
  size_t at;
};""")
    assert partial != text
    idl.write_text(partial)
    r = stubgen("--import", "--update", idl, "-o", tmp_path / "e2.idl")
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "e2.idl").read_text() == partial
    # a field the header no longer has as written: the header's record
    header.write_text(header.read_text().replace("size_t at;", "long at;"))
    r = stubgen("--import", "--update", idl, "-o", tmp_path / "e3.idl")
    assert r.returncode == 0
    assert r.stderr == "nccc-stubgen: changed record ev_parser\n"
    assert "  long at;\n};" in (tmp_path / "e3.idl").read_text()


def test_update_keeps_fields_of_a_record_the_draft_writes_opaque(tmp_path):
    header = tmp_path / "bits.h"
    header.write_text("struct flags { int on : 1; int count; };\n"
                      "int flags_count(struct flags *f);\n")
    idl = tmp_path / "bits.idl"
    assert stubgen("--import", header, "-o", idl).returncode == 0
    text = idl.read_text()
    assert "struct flags;" in text
    edited = text.replace("struct flags;", "struct flags {\n  int count;\n};")
    idl.write_text(edited)
    r = stubgen("--import", "--update", idl, "-o", tmp_path / "b2.idl")
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "b2.idl").read_text() == edited
