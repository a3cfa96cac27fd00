"""The Lua emitter writes data only, and bindings/lua/nccc/binder.lua
turns each function's binding record into its call: the lib:fast
options (non-NULL arguments, owned strings read as pointers, thunks),
owned results, and lib:fast with no options for a plain function (the
primitive's C closure on Lua 5.4). Run under lua5.4 against a stand-in
library that records what bind asks of it; the behaviour against a real
library is checked by test/lua (lua_host, luajit_host)."""

import re
import shutil
import subprocess

import pytest

from conftest import ROOT
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

# Binds the module at arg 1 to a stand-in library and prints, per
# function in record order, what bind asked of lib:fast and of the
# owned-result conversions.
BIND = r'''
local path, bindings = ...
package.path = bindings .. "/?.lua;" .. package.path
local M = dofile(path)
local asked, lib = {}, {}
local function show(t)
  if t == nil then return "nil" end
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local out = {}
  for _, k in ipairs(keys) do
    local v = t[k]
    out[#out + 1] = tostring(k) .. "=" .. (type(v) == "table" and show(v) or tostring(v))
  end
  return "{" .. table.concat(out, ",") .. "}"
end
function lib:lookup(n) return n end
function lib:signature(h)
  for _, e in ipairs(M.functions) do
    if e.error_name == h then return e.signatures[1] end
  end
end
function lib:fast(h, opts)
  asked[#asked + 1] = h .. " fast " .. show(opts)
  return function(...) return ... end
end
function lib:owner(free, t) asked[#asked + 1] = "  owner " .. free .. " " .. t return print end
function lib:owned_string(free) asked[#asked + 1] = "  owned_string " .. free return print end
function lib:owning(convs) asked[#asked + 1] = "  owning " .. show(convs) return print end
function lib:constants() return {} end
M.bind(lib)
print(table.concat(asked, "\n"))
'''


def _lua():
    return generate(IDL, "fx.idl", ["lua"])["fx.lua"]


def _bound(tmp_path):
    lua = shutil.which("lua5.4")
    if not lua:
        pytest.skip("lua5.4 not installed")
    (tmp_path / "fx.lua").write_text(_lua())
    (tmp_path / "bind.lua").write_text(BIND)
    r = subprocess.run([lua, str(tmp_path / "bind.lua"),
                        str(tmp_path / "fx.lua"),
                        str(ROOT / "bindings" / "lua")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out, name = {}, None
    for line in r.stdout.splitlines():
        if not line.startswith("  "):
            name = line.split()[0]
        out.setdefault(name, []).append(line.split(" ", 1)[1].strip()
                                        if not line.startswith("  ")
                                        else line.strip())
    return out


def test_the_module_is_data_only():
    code = "\n".join(line for line in _lua().splitlines()
                     if not line.startswith("--"))
    assert not re.search(r"\bfunction\b", code)
    assert code.startswith('return require("nccc.binder").module({\n'
                           '  module = "fx",\n  functions = {\n')
    assert code.endswith("\n})")
    assert '    {name = "len", error_name = "fx.len", signatures = {"s:i"}, ' \
        'in_count = 1, nonnull = {1}},\n' in code


def test_plain_functions_bind_straight_to_the_fast_path(tmp_path):
    asked = _bound(tmp_path)
    for name in ("add", "u8", "half", "len_or", "obj_free", "str_free",
                 "set_hook"):
        assert asked["fx." + name] == ["fast nil"], name


def test_nonnull_arguments_and_closures(tmp_path):
    asked = _bound(tmp_path)
    assert asked["fx.len"] == ["fast {nonnull={1=true}}"]
    assert asked["fx.obj_value"] == ["fast {nonnull={1=true}}"]
    # a closure slot refuses NULL unless its callbacks are [nullable]
    assert asked["fx.fold"] == ["fast {nonnull={2=true}}"]


def test_owned_results(tmp_path):
    asked = _bound(tmp_path)
    assert asked["fx.obj_new"] == ["fast nil",
                                   "owner fx.obj_free struct fx_obj"]
    assert asked["fx.dup"] == ["fast {nonnull={1=true},outs={1=p}}",
                               "owned_string fx.str_free"]
    # the [out] string (result 2) is read as a pointer, then freed
    assert asked["fx.dup_into"][0] == "fast {nonnull={1=true},outs={2=p}}"
    assert asked["fx.dup_into"][1] == "owned_string fx.str_free"
    assert asked["fx.dup_into"][2].startswith("owning {2=")


def test_thunk_binding_functions_check_the_last_error(tmp_path):
    asked = _bound(tmp_path)
    for name in ("apply", "keep"):
        assert asked["fx." + name] == \
            ["fast {nonnull={1=true},thunks=true}"], name


@pytest.mark.skipif(shutil.which("luac5.4") is None, reason="luac5.4 absent")
def test_output_parses(tmp_path):
    path = tmp_path / "fx.lua"
    path.write_text(_lua())
    subprocess.run(["luac5.4", "-p", str(path)], check=True)
