"""The one ABI source (idl/abi.json) and the tables generated from it.

The C header, the Lua table and the Scheme library in the tree must be
exactly what the source gives, and a change to the source must reach
all three: a width changed in a copy of the source is seen by a C
program, by Lua and by Guile reading the regenerated tables.
"""

import json
import os
import re
import subprocess

import pytest

from conftest import ROOT, cc
from stubgen.abi import AbiError, load
from stubgen.abi.__main__ import generate, main
from stubgen.abi import emit_items, emit_rpc


def test_tree_tables_are_current():
    assert main(["--check"]) == 0


def test_builtin_counts_follow_their_signatures():
    abi = load()
    read = abi.builtins[[b.name for b in abi.builtins].index("read")]
    assert (read.n_in, read.n_out) == (2, 1 | abi.slots_variable)
    assert abi.code("e").out_ok and not abi.code("e").in_ok
    assert (abi.code("h").min, abi.code("h").max) == (-32768, 32767)
    assert abi.code("L").max == 2 ** 64 - 1


def test_every_variable_side_says_what_sizes_it():
    abi = load()
    rest = {b.name: b.rest for b in abi.builtins if b.rest}
    assert set(rest) == {b.name for b in abi.builtins
                         if (b.n_in | b.n_out) & abi.slots_variable}
    assert (rest["read"].arg, rest["read"].out) == (1, True)
    assert [rest["read"].slots(n) for n in (0, 1, 8, 9)] == [0, 1, 1, 2]
    assert not rest["write"].out and rest["write"].slots(16) == 2
    assert rest["closure_claim_group"].slots(3) == 6
    assert rest["closure_claim_group_typed"].slots(3) == 9
    assert (rest["fault_arm"].arg, rest["fault_arm"].slots(5)) == (3, 5)
    assert abi.counts(abi.closure_target_signature) == (
        1 | abi.slots_variable, abi.slots_variable)


def _mutated(tmp_path, change):
    data = json.loads((ROOT / "idl" / "abi.json").read_text())
    change(data)
    src = tmp_path / "abi.json"
    src.write_text(json.dumps(data))
    return src


def _regenerate(tmp_path, src):
    out = tmp_path / "tree"
    assert main(["--write", "--source", str(src), "--root", str(out)]) == 0
    return out


def _widen_int16(data):
    for c in data["codes"]:
        if c["code"] == "h":
            c["bytes"] = 4


def test_a_width_change_reaches_c_lua_and_scheme(tmp_path):
    tree = _regenerate(tmp_path, _mutated(tmp_path, _widen_int16))
    probe = tmp_path / "probe.c"
    probe.write_text(
        '#include <stdio.h>\n#include "nccc/abi.h"\n'
        "#define ROW(c, n, k, bytes, s, i, o) "
        "if (c == 'h') printf(\"%d\\n\", bytes);\n"
        "int main(void) { NCCC_ABI_CODES(ROW) return 0; }\n")
    exe = tmp_path / "probe"
    subprocess.run(cc() + ["-o", str(exe), str(probe), "-I",
                           str(tree / "nccc_runtime" / "include")],
                   check=True)
    assert subprocess.run([str(exe)], capture_output=True, text=True,
                          check=True).stdout.strip() == "4"
    lua = subprocess.run(
        ["lua5.4", "-e", 'package.path = "%s/bindings/lua/?.lua"; '
         'print(require("nccc.abi").codes.h.max)' % tree],
        capture_output=True, text=True, check=True)
    assert lua.stdout.strip() == "2147483647"
    guile = subprocess.run(
        ["guile", "-x", ".sls", "-c", '(add-to-load-path "%s/bindings/scheme") '
         "(use-modules (nccc abi)) (display (vector-ref (abi-code #\\h) 6))"
         % tree], capture_output=True, text=True, check=True,
        env=dict(os.environ, GUILE_AUTO_COMPILE="0"))
    assert guile.stdout.strip() == "2147483647"


def test_a_changed_source_makes_the_tree_stale(tmp_path, capsys):
    src = _mutated(tmp_path, _widen_int16)
    assert main(["--check", "--source", str(src)]) == 1
    err = capsys.readouterr().err
    for path in ("nccc/abi.h", "nccc/abi.lua", "nccc/abi.sls"):
        assert path in err


def _read_by_slot(data):
    for b in data["builtins"]:
        if b["name"] == "read":
            b["rest"]["per"] = "slot"


def _another_target_signature(data):
    data["closure_target"]["signature"] = "L*:i*"


@pytest.mark.parametrize("change", [_widen_int16, _read_by_slot,
                                    _another_target_signature])
def test_generated_outputs_differ_for_every_language(tmp_path, change):
    before = generate(load())
    after = generate(load(_mutated(tmp_path, change)))
    assert set(before) == set(after)
    # the remote-call protocol's header carries only the protocol's
    # numbers, the Python core's items header only codes, grammar and items
    narrow = {emit_rpc.HEADER}
    if change is not _widen_int16:
        narrow.add(emit_items.HEADER)
    assert all(before[k] != after[k] for k in before if k not in narrow)


def _helper_key_renumbered(data):
    for k in data["items"]["helper_keys"]:
        if k["name"] == "keywords":
            k["value"] = -4


def test_the_cores_items_follow_the_source(tmp_path):
    """The item marks and helper keys reach both C headers and the Lua,
    Python and JavaScript tables."""
    after = generate(load(_mutated(tmp_path, _helper_key_renumbered)))
    assert "NCCC_HELPER_KEYWORDS = -4" in after["nccc_runtime/include/nccc/abi.h"]
    assert "NCCC_HELPER_KEYWORDS = -4" in after[emit_items.HEADER]
    assert "keywords = -4" in after["bindings/lua/nccc/abi.lua"]
    assert "'keywords': -4," in after["bindings/python/nccc/abi.py"]
    assert '"keywords": -4' in after["bindings/js/nccc/abi.mjs"]


@pytest.mark.parametrize("items, message", [
    ({"nonnull": "!", "helper": "!"}, "two distinct characters"),
    ({"nonnull": "i", "helper": "~"}, "neither a code"),
    ({"nonnull": "!", "helper": "{"}, "neither a code"),
])
def test_bad_item_marks_are_refused(tmp_path, items, message):
    def change(data):
        data["items"].update(items)
    with pytest.raises(AbiError, match=message):
        load(_mutated(tmp_path, change))


def test_a_positive_helper_key_is_refused(tmp_path):
    def change(data):
        data["items"]["helper_keys"][0]["value"] = 1
    with pytest.raises(AbiError, match="not above 0"):
        load(_mutated(tmp_path, change))


def test_the_protocol_header_follows_the_source(tmp_path):
    def _another_log_level(data):
        data["rpc"]["log_levels"].append({"name": "debug", "value": 4})
    before = generate(load())[emit_rpc.HEADER]
    after = generate(load(_mutated(tmp_path, _another_log_level)))
    assert "NCCC_RPC_LOG_DEBUG = 0x04" in after[emit_rpc.HEADER]
    assert "NCCC_RPC_LOG_DEBUG" not in before


def _builtin(data, name):
    return next(b for b in data["builtins"] if b["name"] == name)


def test_the_hash_is_fnv1a_32():
    abi = load()
    # the FNV reference's test vectors
    assert abi.hash("") == 0x811c9dc5
    assert abi.hash("a") == 0xe40c292c
    assert abi.hash("foobar") == 0xbf9cf968
    assert abi.closure_type("ii:i") == abi.hash("ii:i")


def test_a_name_index_places_each_name_at_its_hash_or_after():
    abi = load()
    names = ["n%d" % i for i in range(40)]
    index = abi.name_index(names)
    mask, slots = index[0], index[1:]
    assert len(slots) == 128 and mask == 127      # 2 x 40 -> 128
    assert sorted(s for s in slots if s) == list(range(1, 41))
    moved = 0
    for i, name in enumerate(names):
        k = abi.hash(name) & mask
        while slots[k] != i + 1:                  # never an empty slot first
            assert slots[k] != 0
            k = (k + 1) & mask
            moved += 1
    assert moved > 0                              # some names collided
    # ABI.md's example, "Name index"
    assert abi.name_index(["b", "a", "c"]) == [7, 0, 0, 3, 0, 2, 1, 0, 0]
    assert abi.name_index([]) == [1, 0, 0]
    assert abi.name_index(["a"]) == [1] + (
        [1, 0] if abi.hash("a") & 1 == 0 else [0, 1])


@pytest.mark.parametrize("change, message", [
    (lambda d: d["codes"].append(dict(d["codes"][0])), "distinct"),
    (lambda d: d["codes"][1].update(bytes=3), "bytes must be"),
    (lambda d: d["codes"][1].update(kind="integer"), "unknown kind"),
    (lambda d: d["status"][2].update(value=256), "duplicate value"),
    (lambda d: d["builtins"][3].update(signature="q:i"), "not allowed"),
    (lambda d: d["handle"].update(module_shift=17), "markers"),
    (lambda d: d.pop("scopes"), "missing key"),
    (lambda d: _builtin(d, "write").pop("rest"), "needs it"),
    (lambda d: _builtin(d, "peek").update(rest={"arg": 1, "per": "byte"}),
     "rest is for"),
    (lambda d: _builtin(d, "read")["rest"].update(per="word"), "per must"),
    (lambda d: _builtin(d, "read")["rest"].update(arg=0), "unsigned"),
    (lambda d: _builtin(d, "read")["rest"].update(arg=2), "unsigned"),
    (lambda d: d["closure_target"].update(signature="Lq:*"), "not allowed"),
    (lambda d: d["name_index"].update(slots_per_name=1), "name_index"),
    (lambda d: d["name_index"].update(empty=65535), "name_index"),
    (lambda d: d["closure_type"].update(hash="FNV-1 32"), "closure_type"),
])
def test_a_broken_source_is_refused_with_its_reason(tmp_path, change,
                                                     message):
    with pytest.raises(AbiError, match=message):
        load(_mutated(tmp_path, change))


def test_the_command_reports_a_broken_source_without_a_traceback(
        tmp_path, capsys):
    src = tmp_path / "abi.json"
    src.write_text("{ not json")
    assert main(["--check", "--source", str(src)]) == 1
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_chez_reads_the_generated_library():
    out = subprocess.run(
        ["chezscheme", "--libdirs", str(ROOT / "bindings" / "scheme"), "-q"],
        input='(import (nccc abi)) (display (abi-status-text #x4007))',
        capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "pool exhausted"


def test_the_docs_list_every_builtin_at_its_index():
    """docs/ABI.md's table of built-ins is prose about the same facts:
    its rows must name every built-in of idl/abi.json at its index."""
    text = (ROOT / "docs" / "ABI.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", text, re.M)
    assert [(int(k), name) for k, name in rows] == \
        [(b.index, b.name) for b in load().builtins]


def test_the_docs_give_every_status_code_with_its_value():
    text = (ROOT / "docs" / "ABI.md").read_text(encoding="utf-8")
    missing = [s.name for s in load().status
               if "| `NCCC_%s` | 0x%04x |" % (s.name, s.value) not in text]
    assert not missing


def test_the_tvm_headers_give_the_packed_type_codes_of_the_source():
    """TVM's headers (tvm-compat) spell TVM's type codes as TVM does; the
    values hosts read from the ABI source are the same numbers."""
    inc = os.path.join(ROOT, "nccc_runtime", "include", "nccc", "tvm-compat")
    text = ""
    for rel in ("dlpack/dlpack.h", "tvm/runtime/c_runtime_api.h"):
        with open(os.path.join(inc, rel), encoding="utf-8") as f:
            text += f.read()
    values = {name: int(v)
              for name, v in re.findall(r"\b(k\w+) = (\d+)U?\b", text)}
    values.update((name, values[alias]) for name, alias in
                  re.findall(r"\b(k\w+) = (k\w+)\b", text))
    codes = load().packed.type_codes
    assert codes and {t.tvm: values.get(t.tvm) for t in codes} == \
        {t.tvm: t.value for t in codes}


def test_the_targets_are_every_data_model_by_every_plain_char():
    abi = load()
    assert [(t.data_model, t.char_signed) for t in abi.targets] == \
        [(m, s) for m in abi.data_models for s in (True, False)]
    sized = abi.sized()
    assert sized["nccc.read"].out and not sized["tvm.call_global"].out
    assert sized["tvm.call_packed"].slots(3) == 6
