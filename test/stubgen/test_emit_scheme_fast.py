"""The Scheme emitter's specialised code (stubgen/emit_scheme.py): one
maker per function; fast functions keep their buffers and convert by
code; others go through nccc-call with the IDL's checks first."""

from stubgen.cli import generate

IDL = """
module fx;
struct fx_obj;
int64_t fx_add(int64_t a, int64_t b) [rename=add];
uint8_t fx_u8(uint8_t v) [rename=u8];
struct fx_obj *fx_new(int64_t v) [rename=obj_new, owned(obj_free), nonnull];
void fx_free([nullable] struct fx_obj *o) [rename=obj_free];
int fx_len([nonnull] const char *s) [rename=len];
"""


def _sls():
    return generate(IDL, "fx.idl", ["scheme"])["fx.sls"]


def _proc(text, name):
    """A function's maker (%makeK): its procedure, made at bind."""
    k = ["add", "u8", "obj_new", "obj_free", "len"].index(name)
    start = text.index("(r:define (%%make%d " % k)
    end = text.index("(r:define ", start + 1)
    return text[start:end]


def test_fast_function_keeps_buffers_and_converts_by_code():
    text = _sls()
    add = _proc(text, "add")
    assert "(slot-s64-set! in 0 x1)\n" in add and "(slot-s64-set! in 8 x2)\n" in add
    assert "(call)\n" in add and "slot-s64-ref out 0" in add
    assert "nccc-call" not in add          # no signature walking
    assert "(arg-int? a1 -9223372036854775808 9223372036854775807)" in add
    assert "%nccc-raise-pending" in add
    assert "[args (%nccc-arity (r:quote fx.add) 2 args)]" in add
    # made once at bind, over its buffers; the exported name reads it
    assert add.startswith("(r:define (%make0 f)\n"
                          "    (r:let-values ([(call in out) (%nccc-bind-call f 2 1)])")
    assert "(r:define-syntax add (r:identifier-syntax (r:vector-ref %procedures 0)))" in text


def test_narrow_ranges_are_checked_inline():
    u8 = _proc(_sls(), "u8")
    assert "(arg-int? a1 0 255)" in u8
    assert "slot-u64-ref out 0" in u8


def test_owned_result_is_wrapped_with_its_destructor():
    text = _sls()
    obj_new = _proc(text, "obj_new")
    assert obj_new.startswith("(r:define (%make2 f d1)")
    assert '(%nccc-owned-result y1 d1 "obj_free")' in obj_new
    # the record make-module reads the destructor from
    assert '((name . "obj_new") (error_name . "fx.obj_new") ' \
        '(signatures . ("l:p")) (in_count . 1) (owned . ((result . 1) ' \
        '(free . "obj_free") (kind . "object") (type . "struct fx_obj"))))' \
        in text


def test_nonnull_string_checked_before_the_call():
    length = _proc(_sls(), "len")
    assert "(r:quote null)" in length and "(nccc-call f a1)" in length


def test_procedure_table_and_bind_exported():
    text = _sls()
    for name in ("fx-bind!", "fx-procedure", "fx-callback-signature"):
        assert name in text.split("(import")[0]


def test_guile_and_racket_entries_name_the_library():
    files = generate(IDL, "fx.idl", ["scheme"])
    assert sorted(files) == ["fx.rkt", "fx.scm", "fx.sls"]
    assert '(include-from-path "nccc/fx.sls")' in files["fx.scm"]
    rkt = files["fx.rkt"]
    assert rkt.startswith("#lang racket/base\n")
    assert '(require "fx.sls")' in rkt and '(provide (all-from-out "fx.sls"))' in rkt
