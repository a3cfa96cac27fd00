"""The Scheme emitter (stubgen/emit_scheme.py) writes data only: the
module's binding records as one quoted literal and one call of
make-module; every rule of a procedure lives in the binder
(bindings/scheme/nccc/private/binder.sls), which the host tests run."""

import re

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


def _definitions(text):
    """The names the library defines, in order."""
    return re.findall(r"^  \(r:define(?:-syntax)? \(?([^ )\n]+)", text, re.M)


def test_library_is_the_records_and_one_call():
    text = _sls()
    assert _definitions(text) == [
        "%records", "%module", "%procedures", "fx-bind!", "fx-runtime",
        "fx-layout", "fx-callback", "fx-callback-signature", "fx-procedure",
        "fx-new", "fx-view", "add", "u8", "obj_new", "obj_free", "len"]
    assert "  (r:define %module (make-module %records))\n" in text
    # no procedure is written out: no lambda, no maker, no slot access
    for code in ("lambda", "%make", "slot-", "arg-int?", "nccc-call"):
        assert code not in text


def test_exported_names_read_the_bound_procedures():
    text = _sls()
    for k, name in enumerate(["add", "u8", "obj_new", "obj_free", "len"]):
        assert ("(r:define-syntax %s (r:identifier-syntax (r:vector-ref "
                "%%procedures %d)))" % (name, k)) in text


def test_records_carry_what_the_binder_needs():
    text = _sls()
    # the owned result and its destructor
    assert '((name . "obj_new") (error_name . "fx.obj_new") ' \
        '(signatures . ("l:p")) (in_count . 1) (owned . ((result . 1) ' \
        '(free . "obj_free") (kind . "object") (type . "struct fx_obj"))))' \
        in text
    # the nonnull string, refused before the call
    assert '((name . "len") (error_name . "fx.len") (signatures . ("s:i")) ' \
        '(in_count . 1) (nonnull . (1)))' in text
    assert '((name . "obj_free") (error_name . "fx.obj_free") ' \
        '(signatures . ("p:")) (in_count . 1) (nullable . (1)))' in text


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
