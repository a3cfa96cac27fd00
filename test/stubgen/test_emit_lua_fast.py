"""The Lua emitter's per-function binders (stubgen/emit_lua.py): which
functions get one and what it asks of the support library (lib:fast
options: non-NULL arguments, owned results, owned strings, thunks), and
that the rest bind straight to lib.fast (the primitive's C closure on
Lua 5.4). The binders' behaviour against a real library is checked by
test/lua (lua_host, luajit_host)."""

import re
import shutil
import subprocess

import pytest

from stubgen.cli import generate

IDL = """
module fx;
struct fx_obj;
typedef int64_t step_fn(int64_t acc, int64_t i, [context] void *ctx);
typedef int plain_fn(int x) [thunks=2];
int64_t fx_add(int64_t a, int64_t b) [rename=add];
uint8_t fx_u8(uint8_t v) [rename=u8];
double fx_half(double x) [rename=half];
int fx_len([nonnull] const char *s) [rename=len];
int fx_len_or([nullable] const char *s) [rename=len_or];
struct fx_obj *fx_new(int64_t v) [rename=obj_new, owned(obj_free), nonnull];
int64_t fx_value([nonnull] struct fx_obj *o) [rename=obj_value];
void fx_free([nullable] struct fx_obj *o) [rename=obj_free];
char *fx_dup([nonnull] const char *s) [rename=dup, string, owned(str_free), nonnull];
void fx_str_free([nullable] char *s) [rename=str_free];
int fx_dup_into([nonnull] const char *s,
                [out, string, nullable, owned(str_free)] char **copy,
                [out] int *len) [rename=dup_into];
int64_t fx_fold(int64_t n, step_fn *fn, [context=fn] void *ctx) [rename=fold];
int fx_apply(plain_fn *fn, int x) [rename=apply];
int fx_keep([scope=forever] plain_fn *fn) [rename=keep];
void fx_set_hook([nullable, scope=forever] step_fn *fn, [context=fn] void *ctx)
    [rename=set_hook];
"""


def _lua():
    return generate(IDL, "fx.idl", ["lua"])["fx.lua"]


def _binder(text, name):
    """The text of B[name] = function(lib, h) ... end, or None."""
    m = re.search(r'^B\["%s"\] = function\(lib, h\)\n(.*?)^end\n' % name,
                  text, re.S | re.M)
    return m.group(1) if m else None


def _comment(text, name):
    m = re.search(r"^-- %s: (.*)$" % name, text, re.M)
    return m.group(1) if m else None


def test_plain_functions_bind_straight_to_the_fast_path():
    text = _lua()
    for name in ("add", "u8", "half", "len_or", "obj_free", "str_free",
                 "set_hook"):
        assert _binder(text, name) is None, name
    assert '  {"add", "ll:l"},\n' in text
    assert '  {"set_hook", "c:"},\n' in text
    assert '  {"fold", "lc:l"},\n' in text
    # bindings/lua/nccc/binder.lua binds lib.fast for functions without
    # a binder
    assert text.endswith('\nreturn require("nccc.binder").module(M)\n')


def test_nonnull_arguments_are_numbered_from_one():
    text = _lua()
    assert _binder(text, "len") == \
        "  local call = lib:fast(h, {nonnull = {[1] = true}})\n" \
        "  return call\n"
    assert _comment(text, "len") == "non-NULL: s"
    assert "nonnull = {[1] = true}" in _binder(text, "obj_value")


def test_closure_slots_refuse_null_unless_nullable():
    text = _lua()
    assert _binder(text, "fold") == \
        "  local call = lib:fast(h, {nonnull = {[2] = true}})\n" \
        "  return call\n"
    assert _comment(text, "fold") == "non-NULL: fn"


def test_owned_pointer_result_becomes_an_owned_object():
    b = _binder(_lua(), "obj_new")
    assert "local call = lib:fast(h, {})" in b
    assert 'local own = lib:owner("fx.obj_free", "struct fx_obj")' in b
    assert "return function(...) return own(call(...)) end" in b
    assert _comment(_lua(), "obj_new") == "owned(obj_free)"


def test_owned_string_is_read_as_a_pointer_then_freed():
    b = _binder(_lua(), "dup")
    assert 'outs = {[1] = "p"}' in b and "nonnull = {[1] = true}" in b
    assert 'local own = lib:owned_string("fx.str_free")' in b
    assert "lib:owner(" not in b
    assert "return function(...) return own(call(...)) end" in b


def test_thunk_binding_functions_check_the_last_error():
    text = _lua()
    for name in ("apply", "keep"):
        b = _binder(text, name)
        assert b == "  local call = lib:fast(h, {nonnull = {[1] = true}, " \
            "thunks = true})\n  return call\n", name
        assert _comment(text, name) == \
            "non-NULL: fn; binds a thunk of plain_fn"
    # a callback with a context slot binds no thunk: nothing to check
    assert "thunks" not in (_binder(text, "fold") or "")
    assert text.count("thunks = true") == 2


def test_options_combine_in_one_call():
    text = generate(IDL + "int fx_both([nonnull] const char *s, plain_fn *fn)"
                    " [rename=both];\n", "fx.idl", ["lua"])["fx.lua"]
    assert _binder(text, "both") == \
        "  local call = lib:fast(h, {nonnull = {[1] = true, [2] = true}, " \
        "thunks = true})\n  return call\n"
    assert _comment(text, "both") == \
        "non-NULL: s, fn; binds a thunk of plain_fn"


def test_callback_types_listed_for_the_helper():
    text = _lua()
    assert '  {"step_fn", "ll:l"},\n' in text
    assert '  {"plain_fn", "i:i"},\n' in text
    assert "M.callbacks = {\n" in text


@pytest.mark.skipif(shutil.which("luac5.4") is None, reason="luac5.4 absent")
def test_output_parses(tmp_path):
    path = tmp_path / "fx.lua"
    path.write_text(_lua())
    subprocess.run(["luac5.4", "-p", str(path)], check=True)


def test_owned_strings_from_out_parameters_are_read_then_freed():
    b = _binder(_lua(), "dup_into")
    assert b is not None
    # the [out] string (result 2) is read as a pointer, then converted
    # (read and freed) by owned_string; the int results stay as they are
    assert 'outs = {[2] = "p"}' in b
    assert 'lib:owning({[2] = lib:owned_string("fx.str_free")})' in b
    assert "[3]" not in b
    assert "owned string result 2 (str_free)" in _comment(_lua(), "dup_into")
