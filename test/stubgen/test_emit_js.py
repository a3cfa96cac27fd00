"""The JavaScript emitter's module is the binding records only (data:
the one function is bind), and
bindings/js/nccc/binder.mjs binds every shipped IDL's module from its
records (node, against a stand-in runtime that records what bind asks of
it). Calls against a real wasm runtime are test/js's."""

import json
import shutil
import subprocess

import pytest

from conftest import ROOT, SHIPPED_IDLS
from stubgen.cli import generate
from stubgen.model import build
from test_emit_lua_fast import IDL as FX


# node BIND.mjs MODULE.mjs SIGS.json: binds the module to a stand-in
# runtime and prints, per function, what bind asked of it.
BIND = r'''
import { methods } from "%(root)s/bindings/js/nccc/binder.mjs";
const [, , path, sigsPath] = process.argv;
const sigs = JSON.parse((await import("node:fs")).readFileSync(sigsPath, "utf8"));
const asked = {};
const note = (h, what) => (asked[h] = asked[h] || []).push(what);
const rt = {
  exports: {},
  bindModule: methods.bindModule,
  lookup: (name) => name,
  signature: (h) => sigs[h],
  fast(h, opts) { note(h, "fast " + JSON.stringify(opts === undefined ? null : opts)); return (...a) => [h, a]; },
  special(h, sig, make, opts) { note(h, "special " + sig); return (...a) => [h, a]; },
  owner(free, type) { note("owned", `owner ${free} ${type}`); return (p) => p; },
  ownedString(free) { note("owned", `ownedString ${typeof free === "string" ? free : "freeing"}`); return (p) => p; },
  owning(call, convs) { return call; },
  callback: (sig) => sig,
  constants: (m) => Object.fromEntries(sigs.constants.map((c, k) => [c, k])),
  layout: (name) => name,
};
const m = (await import(path)).bind(rt);
console.log(JSON.stringify(asked));
'''


def _bind(tmp_path, text, idl_name):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.skip("node not installed")
    model = build(text)
    name = model.name
    files = generate(text, idl_name, ["js"])
    (tmp_path / (name + ".mjs")).write_text(files[name + ".mjs"])
    sigs = {"%s.%s" % (name, f.name): f.signature() for f in model.functions}
    sigs["constants"] = [c.name for c in model.constants]
    (tmp_path / "sigs.json").write_text(json.dumps(sigs))
    (tmp_path / "bind.mjs").write_text(BIND % {"root": ROOT})
    r = subprocess.run([node, str(tmp_path / "bind.mjs"),
                        str(tmp_path / (name + ".mjs")),
                        str(tmp_path / "sigs.json")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return model, files[name + ".mjs"], json.loads(r.stdout)


@pytest.mark.parametrize("idl", SHIPPED_IDLS, ids=[p.name for p in SHIPPED_IDLS])
def test_every_idl_binds_from_its_records(idl, tmp_path):
    model, _, asked = _bind(tmp_path, idl.read_text(), idl.name)
    for f in model.functions:
        assert len(asked["%s.%s" % (model.name, f.name)]) == 1, f.name


def test_the_module_is_records_and_the_binder_chooses_callers(tmp_path):
    _, text, asked = _bind(tmp_path, FX, "fx.idl")
    assert text.count("function ") == 1  # bind
    assert "=>" not in text
    assert '\n    {name: "len", error_name: "fx.len", signatures: ["s:i"], ' \
        'in_count: 1, nonnull: [1]},\n' in text
    assert asked["fx.add"] == ["special ll:l"]
    assert asked["fx.len"] == ['fast {"nonnull":{"1":true}}']
    assert asked["fx.len_or"] == ["fast null"]
    assert asked["fx.fold"] == ['fast {"nonnull":{"2":true}}']
    assert asked["fx.dup"] == ['fast {"nonnull":{"1":true},"outs":{"1":"p"}}']
    assert asked["fx.apply"] == ['fast {"nonnull":{"1":true},"thunks":true}']
    assert asked["owned"] == ["owner fx.obj_free struct fx_obj",
                              "ownedString fx.str_free",
                              "ownedString fx.str_free"]
