"""The C emitter: what it writes, that the C compiler accepts it, and that
the wrappers work when called through the runtime."""

import platform
import shutil
import re
import subprocess

import pytest

from conftest import (C_DIR, EXAMPLES, IDL_DIR, RUNTIME_INCLUDE,
                      SHIMS_INCLUDE, cc,
                      compile_c, extra_cflags, write_outputs)
from stubgen.abi import load as load_abi
from stubgen.cli import generate

M = "module m;\n"


def c_of(text):
    return generate(text, "t.idl", ["c"])["m_nccc.c"]


def h_of(text):
    return generate(text, "t.idl", ["c"])["m_nccc.h"]


def wrapper(text, name):
    """The text of one wrapper function."""
    src = c_of(text)
    start = src.index("void nccc_m_%s(const uint64_t *in" % name)
    return src[start:src.index("\n}\n", start) + 3]


# ---- text ------------------------------------------------------------------

def test_header_declares_module_register_and_wrappers():
    h = h_of(M + "int add(int a, int b);\nvoid g(void);")
    assert "#ifndef NCCC_M_NCCC_H" in h
    assert "#include <nccc/module.h>" in h
    assert "extern const nccc_module nccc_m_module;" in h
    assert "nccc_status nccc_m_register(void);" in h
    assert "void nccc_m_add(const uint64_t *in, uint64_t *out);" in h
    assert "void nccc_m_g(const uint64_t *in, uint64_t *out);" in h
    assert 'extern "C" {' in h


def test_simple_wrapper_is_one_statement():
    assert wrapper(M + "int64_t add(int64_t a, int64_t b);", "add") == (
        "void nccc_m_add(const uint64_t *in, uint64_t *out) {\n"
        "  out[0] = nccc_slot_from_i64(add(nccc_slot_to_i64(in[0]), "
        "nccc_slot_to_i64(in[1])));\n"
        "}\n")


def test_void_wrapper_without_arguments_marks_both_buffers_unused():
    assert wrapper(M + "void tick(void);", "tick") == (
        "void nccc_m_tick(const uint64_t *in, uint64_t *out) {\n"
        "  (void)in;\n  (void)out;\n  tick();\n}\n")


def test_errno_is_cleared_right_before_and_read_right_after_the_call():
    w = wrapper(M + "long f(const char *s, [out] int *n) [errno];", "f")
    lines = [ln.strip() for ln in w.splitlines()]
    call = lines.index("r = f((const char *)nccc_slot_to_ptr(in[0]), &o1);")
    assert lines[call - 1] == "NCCC_ERRNO_CLEAR();"
    assert lines[call + 1] == "out[2] = NCCC_ERRNO_SLOT();"
    assert "out[0] = nccc_slot_from_i64((int64_t)r);" in lines
    assert "out[1] = nccc_slot_from_i32(o1);" in lines


def test_inout_scalar_and_records_travel_as_bytes():
    w = wrapper(M + "struct p { int x; double y; };\n"
                "struct p f([inout] struct p *a, [inout] short *s, "
                "struct p b);",
                "f")
    assert "struct p o0;" in w
    assert ("short o1 = nccc_slot_to_i16(in[NCCC_SLOTS(sizeof(struct p))]);"
            in w)
    assert "nccc_slots_to_bytes(&o0, in, sizeof o0);" in w
    assert ("nccc_slots_to_bytes(&a2, in + 1 + NCCC_SLOTS(sizeof(struct p)), "
            "sizeof a2);") in w
    assert "nccc_m_put_p(out, &r);" in w
    assert "nccc_m_put_p(out + NCCC_SLOTS(sizeof(struct p)), &o0);" in w
    assert ("out[NCCC_SLOTS(sizeof(struct p)) + NCCC_SLOTS(sizeof(struct p))]"
            " = nccc_slot_from_i16(o1);") in w


PADDED = (M + "struct in2 { char a; int b; };\n"
          "union u { char c; short s[3]; struct in2 i; };\n"
          "struct rec { char k; struct in2 one; struct in2 two[2][2]; "
          "union u un; volatile int vi; volatile struct in2 vin; };\n"
          "typedef struct { char x; long y; } anon_t;\n"
          "struct rec get_rec(void);\n"
          "void fill([out] struct rec *a, [inout] anon_t *b, "
          "[out] struct rec *c);\n"
          "union u get_u(int put_rec);\n"
          "int put_rec(int x);\n"
          "int64_t take(struct in2 v, anon_t w);\n")


def test_records_into_out_go_through_one_helper_per_type():
    src = c_of(PADDED)
    # a copy helper per record written to out[] or held by one, a put
    # helper per record written to out[]; each defined once
    for name in ("copy_in2", "copy_u", "copy_rec", "copy_anon_t",
                 "put_rec_", "put_anon_t", "put_u"):
        assert src.count("static void nccc_m_%s(" % name) == 1, name
    assert "put_in2" not in src       # only ever an argument or a field
    # the wrappers call them; the helper of rec avoids the wrapper put_rec
    assert "  nccc_m_put_rec_(out, &r);\n" in wrapper(PADDED, "get_rec")
    w = wrapper(PADDED, "fill")
    assert "  nccc_m_put_rec_(out, &o0);\n" in w
    assert "  nccc_m_put_anon_t(out + NCCC_SLOTS(sizeof(struct rec)), " \
        "&o1);\n" in w
    assert "nccc_m_put_rec_(out + NCCC_SLOTS(sizeof(struct rec)) + " \
        "NCCC_SLOTS(sizeof(anon_t)), &o2);" in w
    assert "nccc_slots_from_bytes" not in src
    # [inout] in and by-value arguments: one memcpy, padding is don't-care
    assert "nccc_slots_to_bytes(&o1, in, sizeof o1);" in w
    assert "nccc_slots_to_bytes(&a0, in, sizeof a0);" in wrapper(PADDED,
                                                                 "take")
    # helpers come before the wrappers, a record after the ones it holds
    assert src.index("nccc_m_copy_in2(") < src.index("nccc_m_copy_u(") \
        < src.index("nccc_m_copy_rec(") < src.index("nccc_m_put_rec_(") \
        < src.index("void nccc_m_get_rec(")


def test_record_helpers_copy_fields_at_their_offsets():
    src = c_of(PADDED)
    assert (
        "static void nccc_m_put_rec_(uint64_t *slots, const struct rec *v) {\n"
        "  memset(slots, 0, NCCC_SLOTS(sizeof *v) * sizeof *slots);\n"
        "  nccc_m_copy_rec((unsigned char *)slots, v);\n"
        "}\n") in src
    assert (
        "static void nccc_m_copy_rec(unsigned char *b, const struct rec *v) {\n"
        "  memcpy(b + offsetof(struct rec, k), &v->k, sizeof v->k);\n"
        "  nccc_m_copy_in2(b + offsetof(struct rec, one), &v->one);\n"
        "  for (size_t i = 0; i < sizeof v->two / sizeof(struct in2); i++) {\n"
        "    nccc_m_copy_in2(b + offsetof(struct rec, two) + i * "
        "sizeof(struct in2),\n"
        "        (const struct in2 *)((const unsigned char *)&v->two + i * "
        "sizeof(struct in2)));\n"
        "  }\n"
        "  nccc_m_copy_u(b + offsetof(struct rec, un), &v->un);\n"
        "  memcpy(b + offsetof(struct rec, vi), (const void *)&v->vi, "
        "sizeof v->vi);\n"
        "  nccc_m_copy_in2(b + offsetof(struct rec, vin), "
        "(const struct in2 *)&v->vin);\n"
        "}\n") in src
    # a union: the bytes of its largest member, the rest stays 0
    assert (
        "static void nccc_m_copy_u(unsigned char *b, const union u *v) {\n"
        "  size_t n = sizeof v->c;\n"
        "  if (n < sizeof v->s) n = sizeof v->s;\n"
        "  if (n < sizeof v->i) n = sizeof v->i;\n"
        "  memcpy(b, v, n);\n"
        "}\n") in src
    assert "offsetof(anon_t, y)" in src


def test_record_helper_locals_never_shadow_idl_names():
    src = c_of(M + "struct s { char c; int b; };\nconst int v = 1;\n"
               "const int b = 2;\nstruct s f(void);")
    assert "static void nccc_m_copy_s(unsigned char *b_, const struct s *v_)" \
        in src
    assert "memcpy(b_ + offsetof(struct s, b), &v_->b, sizeof v_->b);" in src


def test_no_record_helpers_without_records_in_out():
    src = c_of(M + "struct p { char c; double d; };\n"
               "int64_t f(struct p a, [inout] int *n);\nint g(int x);")
    assert "records into out[]" not in src
    assert "nccc_m_put_" not in src and "nccc_m_copy_" not in src


@pytest.mark.parametrize("std", ["c99", "c11"])
def test_record_helpers_compile_warning_free(tmp_path, std):
    write_outputs(PADDED, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o", "-pedantic",
                  std=std)
    assert r.returncode == 0, r.stderr


def test_function_pointer_wrapper_calls_through_in0():
    src = c_of(M + "int f(int x) [function_pointer];")
    assert "typedef int (*nccc_m_f_fn)(int x);" in src
    assert "NCCC_FP_REQUIRE(in[0], out, 1);" in src
    assert ("out[0] = nccc_slot_from_i32(NCCC_FP_TARGET(nccc_m_f_fn, in[0])"
            "(nccc_slot_to_i32(in[1])));") in src
    assert "extern int f(int x);" not in src


def test_nonnull_slots_are_refused_before_the_call():
    src = c_of(M + "int f([nonnull] const char *s, [nullable] int *a, "
               "int *b, [nonnull] void *p, int n);\n"
               "void g([inout, nonnull] const char **w, [nonnull] int *q) "
               "[function_pointer];\n"
               "int h([out, nonnull] void **r);")
    assert "#include <nccc/shim_nonnull.h>\n" in src
    w = src[src.index("void nccc_m_f("):]
    w = w[:w.index("\n}\n")]
    # one check per [nonnull] slot, first, before C is called
    assert w.split("\n")[1:3] == [
        '  NCCC_NONNULL_REQUIRE(in[0], "m.f", "s", out, 1);',
        '  NCCC_NONNULL_REQUIRE(in[3], "m.f", "p", out, 1);']
    assert w.count("NCCC_NONNULL_REQUIRE") == 2   # not a, b (unannotated)
    g = src[src.index("void nccc_m_g("):]
    g = g[:g.index("\n}\n")]
    # after the target's check; the [inout] value's slot is checked too
    assert g.index("NCCC_FP_REQUIRE(in[0], out, 1);") < g.index(
        'NCCC_NONNULL_REQUIRE(in[1], "m.g", "w", out, 1);') < g.index(
        'NCCC_NONNULL_REQUIRE(in[2], "m.g", "q", out, 1);')
    # an [out] value has no in slot: nothing to check
    assert '"h"' not in src[src.index("void nccc_m_h("):]


def test_nonnull_refusal_releases_call_closures():
    text = (M + "typedef int fn_t(int x, [context] void *c);\n"
            "int f([nonnull] int *p, fn_t *a, [context=a] void *ca, "
            "fn_t *b, [context=b] void *cb);\n"
            "int g([nonnull] int *p, fn_t *a, [context=a] void *ca) "
            "[trace];\n")
    src = c_of(text)
    assert ('  NCCC_NONNULL_REQUIRE_END(in[0], "m.f", "p", out, 1, '
            "(NCCC_CB_END_CALL(nccc_slot_to_ptr(in[1])), "
            "NCCC_CB_END_CALL(nccc_slot_to_ptr(in[2]))));\n") in src
    # under a call-site shim the public wrapper releases after the body
    assert '  NCCC_NONNULL_REQUIRE(in[0], "m.g", "p", out, 1);\n' in src


def test_no_nonnull_shim_without_nonnull():
    src = c_of(M + "int f([nullable] const char *s, int *b);")
    assert "NONNULL" not in src and "shim_nonnull" not in src


def test_variadic_arguments_get_their_exact_types():
    w = wrapper(M + "int printf(const char *fmt, ...);\n"
                "int p(const char *fmt, int a, long b, float c) "
                "[variadic=printf];", "p")
    assert ("printf((const char *)nccc_slot_to_ptr(in[0]), "
            "(int)nccc_slot_to_i32(in[1]), (long)nccc_slot_to_i64(in[2]), "
            "nccc_slot_to_float(in[3]))") in w


def test_conversions_per_type():
    w = wrapper(M + "enum e { A };\n"
                "bool f(char a, unsigned long b, enum e c, int (*d)(void), "
                "double e_, uint8_t f_, size_t g);", "f")
    assert "(char)nccc_slot_to_i64(in[0])" in w
    assert "(unsigned long)in[1]" in w
    assert "(enum e)nccc_slot_to_i32(in[2])" in w
    assert "(int (*)(void))(uintptr_t)in[3]" in w
    assert "nccc_slot_to_double(in[4])" in w
    assert "nccc_slot_to_u8(in[5])" in w
    assert "(size_t)in[6]" in w
    assert w.count("nccc_slot_from_bool(") == 1


def test_registry_tables():
    src = c_of(M + "long b(long x);\nint a(void);\nvoid c(size_t n) [errno];")
    assert ('NCCC_NAMES_BLOB(nccc_m_names, 3,\n  "b\\0"\n  "a\\0"\n  "c\\0");'
            in src)
    assert "{NCCC_SIG_LONG \":\" NCCC_SIG_LONG, 1, 1, 2}, /* b */" in src
    assert '{":i", 0, 1, 4}, /* a */' in src
    assert '{NCCC_SIG_SIZE ":e", 1, 1, 6}, /* c */' in src
    assert "static const uint16_t nccc_m_sorted[] = {1, 0, 2};" in src
    index = load_abi().name_index(["b", "a", "c"])
    assert ("static const uint16_t nccc_m_hash_index[] = {%s};"
            % ", ".join(map(str, index))) in src
    assert ("(const char *)&nccc_m_names, nccc_m_funcs, nccc_m_info, "
            "nccc_m_sorted, nccc_m_hash_index") in src


def test_layout_and_constant_tables_use_the_compiler():
    src = c_of(M + "struct s { char c; double d[3]; };\ntypedef ... H;\n"
               "enum { K = 3 };\nconst unsigned short U = 7;")
    assert "struct nccc_m_align0 { char c; struct s v; };" in src
    assert ('{"d", "d", offsetof(struct s, d), sizeof(((struct s *)0)->d), '
            "sizeof(((struct s *)0)->d) / sizeof(((struct s *)0)->d[0])},") \
        in src
    assert ('{"s", sizeof(struct s), offsetof(struct nccc_m_align0, v), '
            "NCCC_TYPE_STRUCT, 2, nccc_m_fields0},") in src
    assert '{"H", 0, 0, NCCC_TYPE_OPAQUE, 0, NULL},' in src
    assert '{"K", "i", (uint64_t)(int64_t)(K)},' in src
    assert '{"U", "H", (uint64_t)(unsigned short)(U)},' in src
    assert "#define U ((unsigned short)(7))" in src
    assert "nccc_m_types, 2," in src and "2, nccc_m_constants" in src


def test_declarations_without_includes():
    src = c_of(M + "struct node;\ntypedef struct node node_t;\n"
               "typedef struct { int a; } pair;\nenum e { X = 2 };\n"
               "node_t *make(pair p, enum e k);")
    decls = src[src.index("/* ---- declarations"):src.index("/* ---- wrap")]
    assert "struct node;\n" in decls
    assert "typedef struct node node_t;\n" in decls
    assert "typedef struct {\n  int a;\n} pair;\n" in decls
    assert "enum e {\n  X = 2\n};\n" in decls
    assert "extern node_t *make(pair p, enum e k);\n" in decls


def test_include_mode_checks_instead_of_declaring():
    src = c_of(M + "#include <stdlib.h>\ntypedef unsigned long u_t;\n"
               "struct s { int x; };\nenum e { A, B };\n"
               "const int BUFSZ = 10;\nint abs(int x);\n"
               "int m(int x) [macro];\nint printf_i(const char *f, int x) "
               "[variadic=printf];")
    assert "/* ---- declarations" not in src
    assert "#include <stdlib.h>" in src
    assert "extern u_t *nccc_m_typedef_u_t;" in src
    assert "extern unsigned long *nccc_m_typedef_u_t;" in src
    assert "int (abs)(int x);" in src
    assert "(m)(" not in src and "(printf)(" not in src
    assert "char c0[(sizeof(int) == 4) ? 1 : -1];" in src
    assert "sizeof(((struct s *)0)->x) == sizeof(int)" in src
    assert "((A) == 0)" in src and "((B) == (A) + 1)" in src
    assert "((int)(BUFSZ) == (int)(10))" in src


def test_empty_module():
    src = c_of(M)
    assert 'NCCC_NAMES_BLOB(nccc_m_names, 0, "");' in src
    assert "(const char *)&nccc_m_names, NULL, nccc_m_info, NULL" in src
    assert '"m", &nccc_m_registry,\n  NULL, 0,\n  0, NULL\n' in src


def test_output_is_stable():
    text = (EXAMPLES / "tour.idl").read_text()
    a = generate(text, "tour.idl", ["c"])
    b = generate(text, "tour.idl", ["c"])
    assert a == b
    assert sorted(a) == ["tour_nccc.c", "tour_nccc.h"]


# ---- the C compiler -------------------------------------------------------

IDLS = [EXAMPLES / "tour.idl", IDL_DIR / "corners.idl", IDL_DIR / "cmini.idl",
        IDL_DIR / "cbk.idl"]


@pytest.mark.parametrize("std", ["c99", "c11"])
@pytest.mark.parametrize("idl", IDLS, ids=[p.stem for p in IDLS])
def test_compiles_warning_free(tmp_path, std, idl):
    write_outputs(idl.read_text(), tmp_path, idl.name)
    r = compile_c([tmp_path / (idl.stem + "_nccc.c")], tmp_path / "t.o",
                  "-pedantic", std=std)
    assert r.returncode == 0, r.stderr


DECL_IDLS = IDLS[:2] + IDLS[3:]


@pytest.mark.parametrize("idl", DECL_IDLS, ids=[p.stem for p in DECL_IDLS])
def test_declarations_pass_their_own_header_checks(tmp_path, idl):
    """The declarations generated without #include, used as the header of
    the same IDL with #include, satisfy every check of include mode."""
    text = idl.read_text()
    src = write_outputs(text, tmp_path / "plain", idl.name)[
        idl.stem + "_nccc.c"]
    decls = src[src.index("/* ---- declarations"):]
    decls = decls[:decls.index("\n/* ---- ", 10)]
    # (a header of our own is not a system header: its qualified return
    # types would warn)
    (tmp_path / "lib.h").write_text(
        '#pragma GCC diagnostic ignored "-Wignored-qualifiers"\n'
        "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
        "#include <sys/types.h>\n" + decls + "\n")
    lines = text.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("module "))
    lines.insert(at + 1, '#include "lib.h"')
    write_outputs("\n".join(lines), tmp_path, idl.name)
    out = (tmp_path / (idl.stem + "_nccc.c")).read_text()
    assert "/* ---- the IDL checked against the headers" in out
    r = compile_c([tmp_path / (idl.stem + "_nccc.c")], tmp_path / "t.o",
                  "-I", str(tmp_path))
    assert r.returncode == 0, r.stderr


def test_empty_module_compiles(tmp_path):
    write_outputs(M, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o")
    assert r.returncode == 0, r.stderr


def test_header_only_use_compiles_as_c_and_includes_nothing_else(tmp_path):
    write_outputs(M + "int f(int);", tmp_path)
    user = tmp_path / "user.c"
    user.write_text('#include "m_nccc.h"\n'
                    "nccc_fn pick(void) { return nccc_m_f; }\n")
    r = compile_c([user], tmp_path / "u.o", "-I", str(tmp_path))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("edit,diagnostic", [
    (("long strtol(", "int strtol("), "conflicting types for .strtol."),
    (("int quot;", "long quot;"), "size of array .c2. is negative"),
    (("const int EOF = -1;", "const int EOF = 1;"),
     "size of array .c5. is negative"),
    (("typedef struct { int quot; int rem; } div_t;",
      "typedef struct { int quot; int remainder; } div_t;"),
     "has no member named .remainder."),
])
def test_mismatch_with_the_headers_is_a_compile_error(tmp_path, edit,
                                                     diagnostic):
    text = (IDL_DIR / "cmini.idl").read_text()
    assert edit[0] in text
    write_outputs(text.replace(edit[0], edit[1]), tmp_path, "cmini.idl")
    r = compile_c([tmp_path / "cmini_nccc.c"], tmp_path / "c.o")
    assert r.returncode != 0
    assert re.search(diagnostic, r.stderr), r.stderr


def test_add_wrapper_is_straight_line_code(tmp_path):
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("instruction check written for x86-64")
    write_outputs(M + "int64_t add(int64_t a, int64_t b);", tmp_path)
    r = subprocess.run(cc() + ["-std=c99", "-O2", "-S", "-o", "-",
                               "-I", str(RUNTIME_INCLUDE),
                               str(tmp_path / "m_nccc.c")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("nccc_m_add:"):]
    body = body[:body.index(".size\tnccc_m_add")]
    insns = [ln.split()[0] for ln in body.splitlines()[1:]
             if ln.strip() and not ln.strip().startswith(".")
             and not ln.strip().endswith(":")]
    assert insns.count("call") + insns.count("jmp") == 1, insns
    assert not any(i.startswith("j") and i != "jmp" for i in insns), insns
    # gcc 12: push, 3 moves, call, store, pop, ret
    assert len(insns) <= 8, insns


# ---- through the runtime ---------------------------------------------------

def _build_and_run(tmp_path, idl, idl_name, sources, runtime_lib):
    """Generates idl's wrappers, builds them with the test program's
    sources and the shared runner (c/harness.c), runs the program."""
    write_outputs(idl.read_text(), tmp_path, idl_name)
    module = idl.stem
    exe = tmp_path / "prog"
    r = compile_c([tmp_path / ("%s_nccc.c" % module), C_DIR / "harness.c"]
                  + sources, exe, "-I", str(tmp_path), "-I", str(C_DIR),
                  link=True, libs=[runtime_lib])
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    return run


def test_tour_through_the_runtime(tmp_path, runtime_lib):
    run = _build_and_run(tmp_path, EXAMPLES / "tour.idl", "tour.idl",
                         [C_DIR / "tour_main.c", C_DIR / "tour_impl.c"],
                         runtime_lib)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"checks: \d+ failed: 0\n", run.stdout), run.stdout
    assert int(run.stdout.split()[1]) > 300


def test_libc_through_the_runtime(tmp_path, runtime_lib):
    run = _build_and_run(tmp_path, IDL_DIR / "cmini.idl", "cmini.idl",
                         [C_DIR / "cmini_main.c"], runtime_lib)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"checks: \d+ failed: 0\n", run.stdout), run.stdout


def test_callbacks_through_the_runtime(tmp_path, runtime_lib):
    run = _build_and_run(tmp_path, IDL_DIR / "cbk.idl",
                         "cbk.idl", [C_DIR / "callbacks_main.c",
                                           C_DIR / "callbacks_impl.c"],
                         runtime_lib)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"checks: \d+ failed: 0\n", run.stdout), run.stdout
    assert int(run.stdout.split()[1]) >= 90


def test_record_padding_is_zero_in_out_slots(tmp_path, runtime_lib):
    # padding_impl.c leaves 0xAA in the padding of every record it returns
    # or fills; padding_main.c checks each padding byte in out[] is 0
    run = _build_and_run(tmp_path, IDL_DIR / "padding.idl", "padding.idl",
                         [C_DIR / "padding_main.c",
                          C_DIR / "padding_impl.c"], runtime_lib)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"checks: \d+ failed: 0\n", run.stdout), run.stdout
    assert int(run.stdout.split()[1]) >= 14


def test_extra_cflags_are_passed_on():
    # the sanitizer flags of an NCCC_SANITIZE build must reach every test
    # program, or linking against that runtime fails
    assert isinstance(extra_cflags(), list)


def test_wrapper_locals_never_shadow_idl_names(tmp_path):
    text = (M + "int in(int out);\nint r(int a0, [out] int *o1);\n"
            "struct s { int x; };\nstruct s a1(struct s x, struct s y);\n"
            "void out(void);\n")
    w = wrapper(text, "in")
    assert w.startswith("void nccc_m_in(const uint64_t *in_, uint64_t *out_)")
    assert "in(nccc_slot_to_i32(in_[0]))" in w
    assert "r_ = r(" in wrapper(text, "r")
    assert "struct s a1_;" in wrapper(text, "a1")
    write_outputs(text, tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o")
    assert r.returncode == 0, r.stderr


ARM_GCC = shutil.which("arm-none-eabi-gcc")


@pytest.mark.skipif(ARM_GCC is None, reason="arm-none-eabi-gcc not installed")
@pytest.mark.parametrize("idl", IDLS, ids=[p.stem for p in IDLS])
def test_compiles_for_a_32_bit_target(tmp_path, idl):
    # 32-bit long, size_t and pointers; int32_t is long there
    write_outputs(idl.read_text(), tmp_path, idl.name)
    r = subprocess.run([ARM_GCC, "-mcpu=cortex-m3", "-mthumb", "-std=c99",
                        "-Wall", "-Wextra", "-Werror", "-I",
                        str(RUNTIME_INCLUDE), "-I", str(SHIMS_INCLUDE), "-c",
                        str(tmp_path / (idl.stem + "_nccc.c")), "-o",
                        str(tmp_path / "arm.o")], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
