"""The Scheme emitter's specialised code (stubgen/emit_scheme.py): fast
functions keep their buffers and convert by code; others go through
(nccc core) with the IDL's checks first."""

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
    start = text.index("(r:define %s\n" % name)
    end = text.index("(r:define ", start + 1)
    return text[start:end]


def test_fast_function_keeps_buffers_and_converts_by_code():
    add = _proc(_sls(), "add")
    assert "slot-s64-set! in 0 x1" in add and "slot-s64-set! in 8 x2" in add
    assert "slot-s64-ref out 0" in add
    assert "nccc-call" not in add          # no signature walking
    assert "(r:set! %i0 #f)" in add        # buffers taken, then given back
    assert "%nccc-raise-pending" in add
    assert "[args (%nccc-arity (r:quote add) 2 args)]" in add


def test_narrow_ranges_are_checked_inline():
    u8 = _proc(_sls(), "u8")
    assert "(r:fx<=? 0 a1) (r:fx<=? a1 255)" in u8
    assert "slot-u64-ref out 0" in u8


def test_owned_result_is_wrapped_with_its_destructor():
    text = _sls()
    assert '(%nccc-owned-result y1 %d2_0 "obj_free")' in _proc(text, "obj_new")
    assert '(r:set! %d2_0 (%destructor rt "obj_free"))' in text


def test_nonnull_string_checked_before_the_call():
    length = _proc(_sls(), "len")
    assert "(r:quote null)" in length and "nccc-call (%fn 4)" in length


def test_procedure_table_and_bind_exported():
    text = _sls()
    for name in ("fx-bind!", "fx-procedure", "fx-callback-signature"):
        assert name in text.split("(import")[0]
