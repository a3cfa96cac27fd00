"""The lowering (stubgen/model/lower.py): every per-function fact is
computed once, by one rule, and the C, Lua and Scheme outputs print that
same fact."""

import re

from conftest import model
from stubgen.cli import generate
from stubgen.model import lower
from stubgen.model.lower import TARGETS, signatures

IDL = """
module lw;
struct lw_obj;
typedef int64_t step_fn(int64_t acc, [context] void *ctx);
typedef int plain_fn(int x) [thunks=2];
typedef void (*raw_fn)(int);
struct lw_obj *lw_new(int64_t v) [rename=obj_new, owned(obj_free), nonnull];
void lw_free([nullable] struct lw_obj *o) [rename=obj_free];
void lw_str_free([nullable] char *s) [rename=str_free];
int64_t lw_every([nonnull] int32_t *p, [nonnull] const char *s,
                 step_fn *fn, [context=fn] void *ctx, [nonnull] raw_fn raw,
                 [nonnull] struct lw_obj *o, int32_t *plain)
    [rename=every];
int64_t lw_maybe([nullable] int32_t *p, [nullable] const char *s,
                 [nullable] step_fn *fn, [context=fn] void *ctx,
                 raw_fn raw) [rename=maybe];
int lw_apply(plain_fn *fn, int x) [rename=apply];
char *lw_dup([nonnull] const char *s,
             [out, string, nullable, owned(str_free)] char **copy)
    [rename=dup, string, owned(str_free)];
int64_t lw_fp(int64_t x, [nonnull] const char *s) [rename=fp, function_pointer];
"""


def _lowered(name):
    return lower(model(IDL)).function(name)


def _names(slots):
    return [s.name for s in slots]


def test_nonnull_is_one_rule_for_every_kind_of_parameter():
    lf = _lowered("every")
    # pointer, string, callback (its context slot), function pointer,
    # owned object; the unannotated pointer is not refused
    assert _names(lf.nonnull) == ["p", "s", "ctx", "raw", "o"]
    assert _names(lf.nonnull_values) == ["p", "s", "raw", "o"]
    assert [lf.position(s) for s in lf.nonnull] == [1, 2, 3, 4, 5]
    assert lf.nullable == []
    maybe = _lowered("maybe")
    assert maybe.nonnull == []
    assert _names(maybe.nullable) == ["p", "s", "ctx"]


def test_the_outputs_print_the_lowered_nonnull_set():
    files = generate(IDL, "lw.idl", ["c", "lua", "scheme"])
    lf = _lowered("every")
    # C: one NCCC_NONNULL_REQUIRE per value, the closure by NCCC_CB_REQUIRE
    c = files["lw_nccc.c"]
    body = c[c.index("void nccc_lw_every("):]
    body = body[:body.index("\n}\n")]
    assert re.findall(r'NCCC_NONNULL_REQUIRE\w*\(in\[\d+\], "lw\.every", '
                      r'"(\w+)"', body) == _names(lf.nonnull_values)
    assert "NCCC_CB_REQUIRE(" in body
    # Lua: the positions of the function record's nonnull list
    lua = files["lw.lua"]
    record = lua[lua.index('{name = "every", '):]
    record = record[:record.index("\n")]
    assert re.search(r"nonnull = \{([\d, ]+)\}", record).group(1) == \
        ", ".join(str(lf.position(s)) for s in lf.nonnull)
    # Scheme: the same positions in the function's record, which the
    # binder (bindings/scheme/nccc/private/binder.sls) checks
    scm = files["lw.sls"]
    record = scm[scm.index('((name . "every") '):]
    record = record[:record.index("\n")]
    assert re.search(r"\(nonnull \. \(([\d ]+)\)\)", record).group(1) == \
        " ".join(str(lf.position(s)) for s in lf.nonnull)


def test_a_nonnull_function_pointer_is_refused_by_scheme_too():
    """Position 4, the function pointer, is nonnull in the record the
    Scheme binder reads (it refuses NULL there like a pointer's)."""
    scm = generate(IDL, "lw.idl", ["scheme"])["lw.sls"]
    record = scm[scm.index('((name . "every") '):]
    assert record[:record.index("\n")].count("(nonnull . (1 2 3 4 5))") == 1


def test_function_pointer_targets_shift_positions():
    lf = _lowered("fp")
    assert lf.in_slots[0].role == "target"
    assert [lf.position(s) for s in lf.nonnull] == [3]


def test_closures_carry_scope_nullability_and_pool():
    every = _lowered("every")
    [c] = every.closures
    assert (c.slot.name, c.scope, c.nullable, c.pool) == \
        ("ctx", "call", False, None)
    assert _names(c.params) == ["fn"]
    assert every.closure(c.slot.param) is c
    assert _lowered("maybe").closures[0].nullable
    apply = _lowered("apply")
    assert apply.closures[0].pool.name == "plain_fn"
    assert [cb.name for cb in apply.thunks] == ["plain_fn"]
    assert every.thunks == []


def test_owned_results_and_owned_out_strings():
    new = _lowered("obj_new")
    assert (new.owned_return.index, new.owned_return.destructor,
            new.owned_return.string) == (0, "obj_free", False)
    assert new.owned_out_strings == []
    dup = _lowered("dup")
    assert dup.owned_return.string
    assert [(o.index, o.destructor) for o in dup.owned_out_strings] == \
        [(1, "str_free")]
    assert [o.index for o in dup.owned] == [0, 1]
    assert _lowered("every").owned == []


def test_signatures_per_target_and_record_order():
    m = model("""
        module r;
        struct in_ { int a; };
        struct out_ { struct in_ x[2]; long n; };
        struct out_ get(char c);
    """)
    low = lower(m)
    assert low.function("get").signatures == \
        signatures(m.function("get").sig_in, m.function("get").sig_out)
    assert len(low.function("get").signatures) == len(TARGETS)
    assert [d.name for d in low.records_put] == ["out_"]
    assert [d.name for d in low.records_copy] == ["in_", "out_"]
    assert lower(m) is low


def test_callbacks_and_module_facts():
    low = lower(model(IDL))
    assert [c.name for c in low.callbacks] == ["step_fn", "plain_fn"]
    assert [c.name for c in low.used_callbacks] == ["step_fn", "plain_fn"]
    assert low.callbacks[0].signatures == ["l:l"]
    assert low.uses_nonnull
