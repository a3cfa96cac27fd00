"""The binding records (stubgen/model/binding.py, docs/BINDING.md): every
shipped IDL's records validate against idl/binding.schema.json, `--lang
records` writes them, and each fact of a record is the lowering's."""

import json
import subprocess

import jsonschema
import pytest

from conftest import EXAMPLES, ROOT, SHIPPED_IDLS, STUBGEN
from stubgen.cli import generate
from stubgen.model import build
from stubgen.model.binding import records
from test_emit_lua_fast import IDL as LUA_FX

SCHEMA = json.loads((ROOT / "idl" / "binding.schema.json").read_text())

# test_emit_lua_fast's module, with value descriptions
FX = LUA_FX + """
typedef int sum_fn([length=n] const int *xs, int n,
                   [zero_terminated] const char **names, [context] void *ctx);
int fx_sum(sum_fn *fn, [context=fn] void *ctx) [rename=sum];
int fx_crc([length=n] const uint8_t *buf, int n) [rename=crc];
int fx_open_obj([out, owned(obj_free)] struct fx_obj **o) [rename=open_obj];
"""


def _fx():
    return records(build(FX))


def _function(rec, name):
    return next(f for f in rec["functions"] if f["name"] == name)


@pytest.mark.parametrize("path", SHIPPED_IDLS, ids=lambda p: p.name)
def test_every_shipped_idl_has_valid_records(path):
    rec = records(build(path.read_text()))
    jsonschema.Draft202012Validator(SCHEMA).validate(rec)
    assert rec["functions"], path.name


def test_the_schema_refuses_a_record_that_breaks_it():
    rec = _fx()
    validator = jsonschema.Draft202012Validator(SCHEMA)
    validator.validate(rec)
    broken = json.loads(json.dumps(rec))
    broken["functions"][0]["signatures"] = ["ll:l", "ll:l"]  # 2 targets
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(rec))
    _function(broken, "obj_new")["owned"].pop("type")
    assert not validator.is_valid(broken)


def test_plain_function_is_names_signatures_count_and_slots():
    assert _function(_fx(), "add") == {
        "name": "add", "error_name": "fx.add", "signatures": ["ll:l"],
        "in_count": 2, "params": [{"name": "a", "type": "l"}, {"name": "b", "type": "l"}],
        "results": [{"type": "l"}]}


def test_slots_spell_their_c_types_and_roles():
    rec = _fx()
    # a const pointee, its count; an owned [out] pointer to a pointer
    assert _function(rec, "crc")["params"] == [
        {"name": "buf", "type": "*const B"}, {"name": "n", "type": "i"}]
    assert _function(rec, "open_obj")["results"] == [
        {"type": "i"}, {"type": "*{fx_obj}"}]
    # a closure's context slot, its role given; the function pointer
    # parameter's name in the closure; the callback type's own slots
    assert _function(rec, "sum")["params"] == [
        {"name": "ctx", "type": "*void", "role": "closure"}]
    assert _function(rec, "sum")["closures"][0]["names"] == ["fn"]
    cb = next(c for c in rec["callbacks"] if c["name"] == "sum_fn")
    assert cb["params"] == [{"name": "xs", "type": "*const i"}, {"name": "n", "type": "i"},
                            {"name": "names", "type": "**const NCCC_SIG_CHAR"}]
    assert cb["results"] == [{"type": "i"}]


def test_data_modules_leave_the_typed_keys_out():
    from stubgen.model.binding import TYPED_KEYS, data_records
    module = build(FX)
    data = data_records(module)
    full = records(module)
    assert data["functions"] != full["functions"]
    texts = json.dumps(data)
    assert not any('"%s"' % key in texts for key in TYPED_KEYS)
    # only those keys: the rest is the one record
    for f, g in zip(data["functions"], full["functions"]):
        assert f == {k: v for k, v in g.items() if k not in TYPED_KEYS and k != "closures"} \
            | ({"closures": [{k: v for k, v in c.items() if k != "names"} for c in g["closures"]]}
               if "closures" in g else {})


def test_nonnull_and_nullable_positions():
    rec = _fx()
    assert _function(rec, "len")["nonnull"] == [1]
    assert _function(rec, "len_or")["nullable"] == [1]
    assert "nonnull" not in _function(rec, "len_or")


def test_owned_results():
    rec = _fx()
    assert _function(rec, "obj_new")["owned"] == {
        "result": 1, "free": "obj_free", "kind": "object",
        "type": "struct fx_obj"}
    assert _function(rec, "dup")["owned"] == {
        "result": 1, "free": "str_free", "kind": "string"}
    f = _function(rec, "dup_into")
    assert "owned" not in f and "owned_pointers" not in f
    assert f["owned_strings"] == [{"result": 2, "free": "str_free"}]
    assert _function(rec, "open_obj")["owned_pointers"] == [
        {"result": 2, "free": "obj_free", "kind": "object",
         "type": "struct fx_obj"}]


def test_closures_scope_pool_and_thunks():
    rec = _fx()
    assert _function(rec, "fold")["closures"] == [
        {"arg": 2, "scope": "call", "callbacks": ["step_fn"], "names": ["fn"]}]
    assert _function(rec, "fold")["nonnull"] == [2]
    assert _function(rec, "set_hook")["closures"] == [
        {"arg": 1, "scope": "forever", "callbacks": ["step_fn"],
         "names": ["fn"], "nullable": True}]
    apply = _function(rec, "apply")
    assert apply["closures"] == [{"arg": 1, "scope": "call",
                                  "callbacks": ["plain_fn"], "names": ["fn"],
                                  "pool": "plain_fn"}]
    assert apply["thunks"] == ["plain_fn"]
    assert _function(rec, "keep")["closures"][0]["scope"] == "forever"


def test_callback_types_carry_types_pools_and_value_descriptions():
    rec = _fx()
    cbs = {c["name"]: c for c in rec["callbacks"]}
    assert cbs["plain_fn"]["thunks"] == 2
    assert cbs["plain_fn"]["signatures"] == ["i:i"]
    assert len(cbs["plain_fn"]["types"]) == 1
    assert cbs["plain_fn"]["types"] != cbs["step_fn"]["types"]
    # xs has [length=n] (argument 2), names is zero-terminated; pointer
    # elements are 8 bytes on LP64 and LLP64, 4 on ILP32
    values = cbs["sum_fn"]["values"]
    assert len(values) == 6
    assert values[0] == [
        {"arg": 1, "kind": "array", "code": "i", "stride": 4,
         "count": {"arg": 2}},
        {"arg": 3, "kind": "array", "code": "s", "stride": 8,
         "count": {"zero_terminated": True}}]
    assert values[2][1]["stride"] == 4


def test_function_value_parameters_have_their_lengths():
    assert _function(_fx(), "crc")["values"] == [[
        {"arg": 1, "kind": "array", "code": "B", "stride": 1,
         "count": {"arg": 2}}]]


def test_closure_sets_name_owner_member_and_context():
    rec = records(build((ROOT / "test" / "hosts" / "fixture" /
                         "hcb.idl").read_text()))
    assert rec["closure_sets"], "hcb declares closure sets"
    cs = rec["closure_sets"][0]
    members = [m["name"] for m in cs["members"]]
    slots = [(f["name"], c) for f in rec["functions"]
             for c in f.get("closures", ()) if c.get("set", {}).get(
                 "name") == cs["name"]]
    assert any("member" not in c["set"] for _, c in slots), "context slot"
    for _, c in slots:
        if "member" in c["set"]:
            assert 0 <= c["set"]["member"] < len(members)
    freeing = [f for f in rec["functions"] if cs["name"] in
               f.get("frees", ()) or cs["name"] in
               f.get("owned", {}).get("frees", ())]
    assert freeing, "a function frees the owner"


def test_layouts_and_constants():
    rec = records(build("module m; const int LIMIT = 7; "
                        "struct pt { int x; int y; }; void f(struct pt p);"))
    assert rec["constants"] == ["LIMIT"]
    assert rec["constant_types"] == ["i"]
    assert rec["layouts"] == [{"name": "pt", "kind": "struct",
                               "field_names": ["x", "y"], "field_types": ["i", "i"]}]


def test_layouts_of_records_defined_in_place():
    """A record defined inside another is a layout named by its member's
    path; an anonymous member's fields are its record's; a field holding
    a record names its layout, array fields are listed."""
    rec = records(build("""module m;
        typedef struct {
            int type;
            union {
                struct { const char *text; int n; } scalar;
                struct { int tag; union { int i; float f; }; } shape;
            } data;
            struct { short lo; } ranges[2];
            double stamps[3];
        } ev;
        int next(ev *e);"""))
    assert rec["layouts"] == [
        {"name": "ev__data__scalar", "kind": "struct",
         "field_names": ["text", "n"], "field_types": ["*const NCCC_SIG_CHAR", "i"]},
        {"name": "ev__data__shape", "kind": "struct",
         "field_names": ["tag", "i", "f"], "field_types": ["i", "i", "f"]},
        {"name": "ev__data", "kind": "union", "field_names": ["scalar", "shape"],
         "field_types": ["{ev__data__scalar}", "{ev__data__shape}"],
         "records": {"scalar": "ev__data__scalar", "shape": "ev__data__shape"}},
        {"name": "ev__ranges", "kind": "struct", "field_names": ["lo"], "field_types": ["h"]},
        {"name": "ev", "kind": "struct",
         "field_names": ["type", "data", "ranges", "stamps"],
         "field_types": ["i", "{ev__data}", "[{ev__ranges}; 2]", "[d; 3]"],
         "records": {"data": "ev__data", "ranges": "ev__ranges"},
         "arrays": ["ranges", "stamps"]}]
    jsonschema.validate(rec, SCHEMA)


BYTES = """module b;
typedef int read_fn([context] void *ctx,
                    [out, bytes, length=size] unsigned char *buffer,
                    size_t size);
struct parser;
void set_input(struct parser *p,
               [bytes, length=n, kept=p] const unsigned char *s, size_t n);
void set_name(struct parser *p, [string, kept=p] const unsigned char *name);
void set_reader(struct parser *p, read_fn *fn, [context=fn] void *ctx);
size_t sum([length=n] const uint8_t *xs, size_t n);
int scan([string, length=n] const signed char *text, int n);
"""


def test_texts_of_fields_with_a_count():
    rec = records(build("""module m;
        struct ev {
            [string, length=n] const unsigned char *value;
            size_t n;
            [bytes, size=4] unsigned char *tag;
            [length=n] const char *name;
            [length=n] const int *xs;
            const char *plain;
        };
        int f(struct ev *e);"""))
    assert rec["layouts"][0]["texts"] == [
        {"field": "value", "kind": "string", "count": {"field": "n"}},
        {"field": "tag", "kind": "bytes", "count": {"fixed": 4}},
        {"field": "name", "kind": "string", "count": {"field": "n"}}]
    jsonschema.validate(rec, SCHEMA)


def test_bytes_kept_inputs_and_buffers_a_callback_fills():
    rec = records(build(BYTES))
    fns = {f["name"]: f for f in rec["functions"]}
    assert fns["set_input"]["values"] == [[
        {"arg": 2, "kind": "bytes", "count": {"arg": 3}}]]
    assert fns["set_input"]["kept"] == [{"arg": 2, "owner": 1}]
    assert fns["set_name"]["signatures"] == ["ps:"]
    assert fns["set_name"]["kept"] == [{"arg": 2, "owner": 1}]
    # without [bytes], bytes are an array of integers, as before
    assert fns["sum"]["values"][0] == [
        {"arg": 1, "kind": "array", "code": "B", "stride": 1,
         "count": {"arg": 2}}]
    assert fns["scan"]["signatures"] == ["si:i"]
    assert fns["set_reader"]["closures"][0]["scope"] == "call"
    assert rec["callbacks"][0]["values"][0] == [
        {"arg": 1, "kind": "bytes", "count": {"arg": 2}, "fill": True}]
    # the buffer is an in slot (a pointer), not a value the callback returns
    assert rec["callbacks"][0]["signatures"][0] == "pL:i"
    jsonschema.validate(rec, SCHEMA)


def test_lang_records_writes_the_json(tmp_path):
    subprocess.run([str(STUBGEN), "--lang", "records", "-o", str(tmp_path),
                    str(EXAMPLES / "tour.idl")], check=True)
    text = (tmp_path / "tour.records.json").read_text()
    assert json.loads(text) == records(build(
        (EXAMPLES / "tour.idl").read_text()))
    # one function a line
    assert '\n    {"name": "add", "error_name": "tour.add", ' in text
    assert generate((EXAMPLES / "tour.idl").read_text(), "tour.idl",
                    ["records"]) == {"tour.records.json": text}

