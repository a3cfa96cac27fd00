"""Callbacks and the trace/fault shims in the model and the C emitter
(the generated code runs in test_emit_c.py's test_callbacks_through_the_
runtime and in the Check tests of test/callbacks/)."""

import pytest

from conftest import IDL_DIR, compile_c, model, write_outputs
from stubgen.cli import generate

M = "module m;\n"
CMP = "typedef int cmp_fn(const void *a, const void *b, [context] void *ctx);\n"
TICK = "typedef void tick_fn(int n) [thunks=3];\n"
QSORT = ("void qsort_r(void *base, size_t n, size_t size, cmp_fn *compar, "
         "[context=compar] void *arg);\n")


def c_of(text):
    return generate(text, "t.idl", ["c"])["m_nccc.c"]


def h_of(text):
    return generate(text, "t.idl", ["c"])["m_nccc.h"]


def block(src, head):
    """The text of the C function that starts with head."""
    start = src.index(head)
    return src[start:src.index("\n}\n", start) + 3]


# ---- the model ---------------------------------------------------------------

def test_callback_type_slots_and_signature():
    m = model(M + CMP + TICK)
    cmp, tick = m.callbacks
    assert cmp.name == "cmp_fn" and cmp.context.name == "ctx"
    assert cmp.thunks is None and tick.thunks == 3 and tick.context is None
    assert [s.index.fixed for s in cmp.in_slots] == [1, 2]  # in[0]: env
    assert cmp.signature() == "pp:i"
    assert tick.signature() == "i:"
    assert not cmp.used and not tick.used


def test_callback_out_inout_errno_and_string_slots():
    m = model(M + "typedef long rd_fn([context] void *c, const char *name, "
              "[out] int *v, [inout] double *w) [errno];")
    cb = m.callbacks[0]
    assert cb.signature() == "sd:NCCC_SIG_LONGide".replace(
        "NCCC_SIG_LONG", "l")
    assert [s.role for s in cb.out_slots] == ["return", "out", "inout",
                                              "errno"]


def test_context_slot_has_code_c_and_carries_its_callbacks():
    f = model(M + CMP + QSORT).function("qsort_r")
    assert f.signature() == "pLLc:"
    assert f.signature("ILP32") == "pIIc:"
    closure = f.in_slots[3]
    assert closure.role == "closure" and closure.name == "arg"
    assert [c.name for c in closure.callbacks] == ["compar"]
    compar = f.params[3]
    assert compar.callback.name == "cmp_fn" and compar.scope == "call"
    assert compar.context is f.params[4] and compar.in_slot is None


def test_group_members_follow_parameter_order():
    m = model(M + CMP + "void g(cmp_fn *a, int x, cmp_fn *b, "
              "[context(b, a)] void *d);")
    f = m.function("g")
    a, b = f.params[0], f.params[2]
    assert (a.member, b.member) == (0, 1)
    assert f.signature() == "ic:"
    assert m.callbacks[0].members == {0, 1} and m.callbacks[0].used


def test_thunk_callback_takes_its_own_slot_and_destroy_takes_none():
    m = model(M + CMP + TICK + "int on(int x, [scope=forever] tick_fn *t);\n"
              "int w([scope=notified] cmp_fn *fn, [context=fn] void *d, "
              "[destroy=fn] void (*done)(void *));")
    assert m.function("on").signature() == "ic:i"
    w = m.function("w")
    assert w.signature() == "c:i"
    assert w.params[2].destroys is w.params[1]
    assert w.params[0].destroy is w.params[2]


def test_destroy_notify_through_a_pointer_typedef():
    m = model(M + CMP + "typedef void (*destroy_fn)(void *);\n"
              "int w([scope=notified] cmp_fn *fn, [context=fn] void *d, "
              "[destroy=fn] destroy_fn done);")
    w = m.function("w")
    assert w.signature() == "c:i"
    assert w.params[2].destroys is w.params[1]
    assert "NCCC_CB_DESTROY" in block(c_of(M + CMP + "typedef void "
                                           "(*destroy_fn)(void *);\nint w("
                                           "[scope=notified] cmp_fn *fn, "
                                           "[context=fn] void *d, [destroy=fn] "
                                           "destroy_fn done);"),
                                      "void nccc_m_w(")


SET = (M + "typedef struct ps *P;\n"
       "typedef void start_fn([context] void *ud, const char *name, "
       "[zero_terminated] const char **atts);\n"
       "typedef void text_fn([context] void *ud, [length=n] const char *s, "
       "int n);\n"
       "closures handlers(P) { start_fn *start; text_fn *text; };\n"
       "P make(void) [owned(done)];\nvoid done(P p);\n"
       "void on_start(P p, [closures=handlers, nullable] start_fn *start);\n"
       "void on_text([closures=handlers] text_fn *text, P p);\n"
       "void set_ud(P p, [context=handlers] void *ud);\n")


def test_closure_set_slots_members_and_destructors():
    m = model(SET)
    cs = m.closure_sets[0]
    assert [(x.name, x.callback.name, x.index) for x in cs.members] == \
        [("start", "start_fn", 0), ("text", "text_fn", 1)]
    assert cs.destructors == ["done"]
    assert m.function("on_start").signature() == "pc:"
    assert m.function("on_text").signature() == "cp:"
    assert m.function("set_ud").signature() == "pc:"
    from stubgen.model import lower
    low = lower(m)
    c = low.function("on_text").closures[0]
    assert (c.closures is cs, c.member, c.scope, c.nullable,
            low.function("on_text").position(c.owner)) == \
        (True, 1, "forever", False, 2)
    assert low.function("set_ud").closures[0].member is None
    assert low.function("done").frees == [cs]
    assert low.function("make").owned_return.frees == [cs]
    def names(stride):
        return [{"arg": 2, "kind": "array", "code": "s", "stride": stride,
                 "count": {"zero_terminated": True}}]
    assert [cb.values for cb in low.callbacks] == [
        [names(8), names(8), names(4), names(4), names(8), names(8)],
        [[{"arg": 1, "kind": "string", "count": {"arg": 2}}]]]


def test_closure_set_wrappers_pass_member_backward_wrappers():
    src = c_of(SET)
    on_start = block(src, "void nccc_m_on_start(")
    assert "NCCC_CB_REQUIRE_OR_NULL(c1, out, 0);" in on_start
    assert "NCCC_CB_FN(c1, nccc_m_start_fn_back)" in on_start
    on_text = block(src, "void nccc_m_on_text(")
    assert "NCCC_CB_REQUIRE(c0, out, 0);" in on_text
    assert "on_text(nccc_m_text_fn_back1, " in on_text
    set_ud = block(src, "void nccc_m_set_ud(")
    assert "set_ud((P)nccc_slot_to_ptr(in[0]), c1);" in set_ud
    assert "nccc_cb_run(ud, 1, in, out, &nccc_m_text_fn_type);" in block(
        src, "static void nccc_m_text_fn_back1(")


def test_pointer_typedef_and_function_typedef_forms():
    m = model(M + "typedef int (*p_fn)(int, [context] void *);\n"
              "typedef int f_fn(int, [context] void *);\n"
              "void a(p_fn cb, [context=cb] void *d);\n"
              "void b(f_fn cb, [context=cb] void *d);\n"
              "void c(f_fn *cb, [context=cb] void *d);\n"
              "void e(int (*plain)(int, void *), void *d);")
    for name in "abc":
        assert m.function(name).signature() == "c:"
    assert m.function("e").signature() == "Fp:"   # not a callback type


def test_trace_and_fault_flags_defaults_and_indices():
    m = model("module m [trace];\nint a(void);\ndefault [fault];\n"
              "int b(void) [trace=false];\nint c(void) [fault=false];\n"
              'packed "x" int p(void);')
    a, b, c, p = m.functions
    assert (a.trace, a.fault) == (True, False)
    assert (b.trace, b.fault) == (False, True)
    assert (c.trace, c.fault) == (True, False)
    assert p.shims == []
    assert [f.index for f in m.functions] == [0, 1, 2, 3]
    assert m.uses_sites


# ---- the C text ---------------------------------------------------------------

def test_no_callback_or_shim_code_without_them():
    src = c_of(M + "int add(int a, int b);")
    for word in ("shim_callback", "shim_site", "NCCC_CB_", "_body"):
        assert word not in src


def test_backward_wrapper_text():
    src = c_of(M + CMP + QSORT)
    assert block(src, "static int nccc_m_cmp_fn_back(") == (
        "static int nccc_m_cmp_fn_back(const void *a, const void *b, "
        "void *ctx) {\n"
        "  uint64_t in[3], out[1] = {0};\n"
        "  in[1] = nccc_slot_from_ptr(a);\n"
        "  in[2] = nccc_slot_from_ptr(b);\n"
        "  nccc_cb_run(ctx, 0, in, out, &nccc_m_cmp_fn_type);\n"
        "  return nccc_slot_to_i32(out[0]);\n"
        "}\n")
    assert "#include <nccc/shim_callback.h>" in src
    # the callback typedef is spelled out, never used by name
    assert "cmp_fn *" not in src and "typedef int cmp_fn" not in src
    assert ("extern void qsort_r(void *base, size_t n, size_t size, "
            "int (*compar)(const void *a, const void *b, void *ctx), "
            "void *arg);") in src


def test_forward_wrapper_text():
    src = c_of(M + CMP + QSORT)
    assert block(src, "void nccc_m_qsort_r(") == (
        "void nccc_m_qsort_r(const uint64_t *in, uint64_t *out) {\n"
        "  void *c4 = nccc_slot_to_ptr(in[3]);\n"
        "  NCCC_CB_REQUIRE(c4, out, 0);\n"
        "  qsort_r((void *)nccc_slot_to_ptr(in[0]), (size_t)in[1], "
        "(size_t)in[2], nccc_m_cmp_fn_back, c4);\n"
        "  NCCC_CB_END_CALL(c4);\n"
        "}\n")
    assert "/* qsort_r: in base n size arg(compar); out - */" in src


def test_callback_types_computed_at_generation():
    """Each callback type's descriptor carries nccc_closure_type of its
    signature (FNV-1a 32, idl/abi.json); one per target where the
    signature differs by target."""
    src = c_of(M + CMP + QSORT)
    assert ('static const nccc_callback_type nccc_m_cmp_fn_type = '
            '{0xc421ea74u, "cmp_fn", "pp:i"};') in src
    src = c_of(M + "typedef int c_fn(char c, [context] void *u);\n"
               "int g(c_fn *cb, [context=cb] void *d);")
    assert ('static const nccc_callback_type nccc_m_c_fn_type = '
            '{NCCC_CB_BY_TARGET(') in src
    assert '"c_fn", NCCC_SIG_CHAR ":i"};' in src


def test_thunk_pool_text_and_accessor():
    text = M + TICK + "int on([scope=forever, nullable] tick_fn *t);"
    src = c_of(text)
    assert "typedef void (*nccc_m_tick_fn_t)(int);" in src
    assert ("static void nccc_m_tick_fn_thunk_2(int n) "
            "{ nccc_m_tick_fn_thunk_body(2, n); }") in src
    assert "nccc_m_tick_fn_thunk_3" not in src
    assert ('NCCC_THUNK_POOL(nccc_m_tick_fn_pool, &nccc_m_tick_fn_type, 3, '
            'nccc_m_tick_fn_thunk_fns);') in src
    assert "nccc_cb_run_thunk(&nccc_m_tick_fn_pool, i, in, out);" in src
    w = block(src, "void nccc_m_on(")
    assert "nccc_m_tick_fn_t t0 = NULL;" in w
    # a full pool refuses the call, which releases its CALL closures
    assert ("if (c0 != NULL) NCCC_CB_THUNK_END(&nccc_m_tick_fn_pool, c0, 0, "
            "nccc_m_tick_fn_t, t0, out, 1, "
            "NCCC_CB_END_CALL(nccc_slot_to_ptr(in[0])));") in w
    assert "r = on(t0);" in w and w.rstrip("}\n").endswith(
        "NCCC_CB_END_CALL(c0);")
    h = h_of(text)
    assert "const struct nccc_thunk_pool *nccc_m_tick_fn_thunk_pool(void);" \
        in h


def test_group_destroy_and_nullable_text():
    text = M + CMP + ("int w([scope=notified, nullable] cmp_fn *a, "
                      "[scope=notified, nullable] cmp_fn *b, "
                      "[context(a, b)] void *d, "
                      "[destroy=b] void (*done)(void *));")
    src = c_of(text)
    assert "static int nccc_m_cmp_fn_back1(" in src
    assert "nccc_cb_run(ctx, 1, in, out, &nccc_m_cmp_fn_type);" in src
    w = block(src, "void nccc_m_w(")
    assert "NCCC_CB_REQUIRE_OR_NULL(c2, out, 1);" in w
    assert ("r = w(NCCC_CB_FN(c2, nccc_m_cmp_fn_back), "
            "NCCC_CB_FN(c2, nccc_m_cmp_fn_back1), c2, "
            "NCCC_CB_FN(c2, NCCC_CB_DESTROY));") in w


def test_a_refused_closure_releases_the_other_closures_of_the_call():
    """docs/CALLBACKS.md, "Refused calls": a stale closure slot refuses
    the call, which releases the CALL closures of its other slots; one
    closure slot alone has nothing else to release."""
    text = M + CMP + TICK + ("int two(cmp_fn *a, [context=a] void *ca, "
                             "cmp_fn *b, [context=b] void *cb);\n"
                             "int one(tick_fn *t, cmp_fn *c, "
                             "[context=c] void *cc);")
    src = c_of(text)
    ends = ("(NCCC_CB_END_CALL(nccc_slot_to_ptr(in[0])), "
            "NCCC_CB_END_CALL(nccc_slot_to_ptr(in[1])))")
    w = block(src, "void nccc_m_two(")
    assert "NCCC_CB_REQUIRE_END(c1, out, 1, %s);" % ends in w
    assert "NCCC_CB_REQUIRE_END(c3, out, 1, %s);" % ends in w
    w = block(src, "void nccc_m_one(")
    assert ("NCCC_CB_THUNK_END(&nccc_m_tick_fn_pool, c0, 0, nccc_m_tick_fn_t, "
            "t0, out, 1, %s);" % ends) in w
    assert "NCCC_CB_REQUIRE_END(c2, out, 1, %s);" % ends in w


def test_shims_make_a_body_and_a_site_wrapper():
    text = M + CMP + ("int g(int x) [errno, trace, fault];\n"
                      "int h(cmp_fn *cb, [context=cb] void *d) [fault];\n"
                      "int k(int x) [trace];")
    src = c_of(text)
    assert "#include <nccc/shim_site.h>" in src
    assert block(src, "void nccc_m_g(") == (
        "void nccc_m_g(const uint64_t *in, uint64_t *out) {\n"
        "  NCCC_SITE_WRAP(&nccc_m_module, 0, NCCC_SITE_TRACE | "
        "NCCC_SITE_FAULT | NCCC_SITE_ERRNO, nccc_m_g_body, in, out, 2);\n"
        "}\n")
    assert "static void nccc_m_g_body(const uint64_t *in, uint64_t *out) {" \
        in src
    # the releases follow the site wrapper: a faulted call releases too
    assert block(src, "void nccc_m_h(") == (
        "void nccc_m_h(const uint64_t *in, uint64_t *out) {\n"
        "  NCCC_SITE_WRAP(&nccc_m_module, 1, NCCC_SITE_FAULT, nccc_m_h_body, "
        "in, out, 1);\n"
        "  NCCC_CB_END_CALL(nccc_slot_to_ptr(in[0]));\n"
        "}\n")
    body = block(src, "static void nccc_m_h_body(")
    assert "NCCC_CB_REQUIRE(c1, out, 1);" in body
    assert "END_CALL" not in body
    assert "/* k: in x; out return; shims trace */" in src


def test_the_body_without_shims_is_the_plain_wrapper():
    plain = c_of(M + "int g(int x) [errno];")
    shimmed = c_of(M + "int g(int x) [errno, trace];")
    w = block(plain, "void nccc_m_g(")
    b = block(shimmed, "static void nccc_m_g_body(")
    assert b == "static " + w.replace("nccc_m_g(", "nccc_m_g_body(", 1)


def test_helper_names_never_collide_with_wrappers():
    text = M + CMP + ("void cmp_fn_back(void);\nvoid g_body(void);\n"
                      "int g(cmp_fn *cb, [context=cb] void *d) [trace];")
    src = c_of(text)
    assert "static int nccc_m_cmp_fn__back(" in src
    assert "static void nccc_m_g_body_(const uint64_t" in src
    assert "void nccc_m_cmp_fn_back(const uint64_t" in src


def test_callback_param_names_never_shadow_the_locals():
    src = c_of(M + "typedef void t_fn(int f, int in, int, [context] void *out);"
               "\nvoid g(t_fn *cb, [context=cb] void *d);")
    assert ("static void nccc_m_t_fn_back(int a0, int a1, int a2, void *a3) {"
            in src)
    assert "nccc_cb_run(a3, 0, in, out, &nccc_m_t_fn_type)" in src


def test_const_context_is_cast():
    src = c_of(M + "typedef int p_fn(char c, [context] const void *u);\n"
               "int g(p_fn *cb, [context=cb] const void *d);")
    assert "nccc_cb_run((void *)u, 0, in, out, &nccc_m_p_fn_type)" in src
    assert "r = g(nccc_m_p_fn_back, (const void *)c1);" in src


def test_context_from_an_accessor():
    text = M + ("typedef ... ctx_t;\n"
                "typedef void fn_t([context=get_ud] ctx_t *c, int x);\n"
                "void set(fn_t *f, [context=f] void *ud);\n"
                "void *get_ud(ctx_t *c);")
    m = model(text)
    cb = m.callbacks[0]
    assert cb.context_from == "get_ud" and cb.signature() == "pi:"
    src = c_of(text)
    assert "static void nccc_m_fn_t_back(ctx_t *c, int x) {" in src
    assert "nccc_cb_run((void *)get_ud(c), 0, in, out, &nccc_m_fn_t_type);" \
        in src
    assert "in[1] = nccc_slot_from_ptr(c);" in src


def test_unused_callback_types_generate_nothing(tmp_path):
    text = M + CMP + TICK + "int add(int a, int b);"
    src = c_of(text)
    assert "cmp_fn" not in src and "tick_fn" not in src
    assert "thunk_pool" not in h_of(text)
    write_outputs(text, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("std", ["c99", "c11"])
def test_cbt_idl_compiles_against_its_headers(tmp_path, std):
    # test/callbacks/cbt.idl: qsort_r, bsearch, pthread_create and
    # cbt_lib.h, each prototype checked against the real header
    idl = IDL_DIR.parents[1] / "callbacks" / "cbt.idl"
    write_outputs(idl.read_text(), tmp_path, idl.name)
    r = compile_c([tmp_path / "cbt_nccc.c"], tmp_path / "cbt.o",
                  "-I", str(idl.parent), "-pedantic", std=std)
    assert r.returncode == 0, r.stderr


REAL = [IDL_DIR.parents[2] / "idl" / n for n in
        ("libc_callbacks.idl", "sqlite3.idl")]


@pytest.mark.parametrize("idl", REAL, ids=[p.stem for p in REAL])
def test_real_callback_idls_compile_against_their_headers(tmp_path, idl):
    files = write_outputs(idl.read_text(), tmp_path, idl.name)
    assert generate(idl.read_text(), idl.name, ["c"]) == files  # stable
    stem = next(n for n in files if n.endswith(".c"))
    r = compile_c([tmp_path / stem], tmp_path / "x.o", "-pedantic",
                  std="c11")
    assert r.returncode == 0, r.stderr
