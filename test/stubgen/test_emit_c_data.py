"""The C emitter on C data: records defined in place and anonymous
members (declared in place without #include, their layout entries),
array typedef parameters as declared, unsigned-char strings and byte
buffers; each generated file compiled warning-free."""

from conftest import compile_c, write_outputs
from test_emit_c import M, c_of


NESTED = M + """
struct pt { int x; int y; };
typedef struct {
    int type;
    union {
        struct { const unsigned char *value; size_t length; } scalar;
        struct { struct pt corners[2]; union { int tag; float w; }; } shape;
    } data;
    struct { short lo; short hi; } ranges[2];
} ev;
int next(ev *e);
"""


def test_records_defined_in_place_are_declared_in_place():
    src = c_of(NESTED)
    assert """typedef struct {
  int type;
  union {
    struct {
      const unsigned char *value;
      size_t length;
    } scalar;
    struct {
      struct pt corners[2];
      union {
        int tag;
        float w;
      };
    } shape;
  } data;
  struct {
    short lo;
    short hi;
  } ranges[2];
} ev;""" in src
    assert ('{"ev__data__shape", sizeof(((ev *)0)->data.shape), '
            'offsetof(struct nccc_m_align2, v), NCCC_TYPE_STRUCT, 3, '
            'nccc_m_fields2},') in src
    assert ('{"tag", "i", offsetof(ev, data.shape.tag) - offsetof(ev, '
            'data.shape), sizeof(((ev *)0)->data.shape.tag), 1},') in src
    assert ('{"ranges", "{ev__ranges}", offsetof(ev, ranges), sizeof(((ev *)0)'
            '->ranges), sizeof(((ev *)0)->ranges) / sizeof(((ev *)0)->'
            'ranges[0])},') in src


def test_records_defined_in_place_compile_warning_free(tmp_path):
    """Anonymous members are C11's."""
    write_outputs(NESTED, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o", "-pedantic",
                  std="c11")
    assert r.returncode == 0, r.stderr


def test_const_array_typedef_parameters_as_declared(tmp_path):
    text = M + """typedef unsigned char id[16];
int cmp(const id a, const id b);
void set(id out);
"""
    src = c_of(text)
    assert "extern int cmp(const id a, const id b);" in src
    assert "cmp((const unsigned char *)nccc_slot_to_ptr(in[0]), " \
        "(const unsigned char *)nccc_slot_to_ptr(in[1]))" in src
    write_outputs(text, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o", "-pedantic",
                  "-Warray-parameter", std="c99")
    assert r.returncode == 0, r.stderr


BYTES = M + """typedef unsigned char xchar;
const xchar *version(void) [string];
int get_name([out, string] const xchar **name);
xchar *dup([string] const xchar *s) [string, owned(release)];
void release(void *p);
int scan([string] const signed char *t);
int put([bytes, size=4] const unsigned char *tag);
typedef int fill_fn([context] void *ctx, [out, bytes, length=n] xchar *buf,
                    int n);
int pull(fill_fn *fn, [context=fn] void *ctx);
"""


def test_unsigned_char_strings_and_bytes_compile_warning_free(tmp_path):
    src = c_of(BYTES)
    assert "scan((const signed char *)nccc_slot_to_ptr(in[0]))" in src
    # the buffer the callback fills is its in slot's pointer
    assert "in[1] = nccc_slot_from_ptr(buf);" in src
    write_outputs(BYTES, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o", "-pedantic",
                  std="c99")
    assert r.returncode == 0, r.stderr
