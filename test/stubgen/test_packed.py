"""Packed declarations (docs/PACKED.md): the model's packed signatures and
slots, TVM's predefined types, the C emitter's wrappers, and the output
compiled and called through the runtime. (Malformed packed declarations
are in test_errors.py.)"""

import subprocess

import pytest

from conftest import (ROOT, RUNTIME_INCLUDE, compile_c, model,
                      write_outputs)
from stubgen.cli import generate
from stubgen.model import TVM_TYPES, tvm_code

M = "module m;\n"
PK_IDL = ROOT / "test" / "packed" / "pk.idl"
EXAMPLE_IDL = ROOT / "idl" / "examples" / "packed.idl"


def packed(text):
    return model(M + text).functions[-1]


def c_of(text):
    return generate(M + text, "t.idl", ["c"])["m_nccc.c"]


# ---- the model -------------------------------------------------------------

@pytest.mark.parametrize("ctype,code", [
    ("bool", "?"), ("int8_t", "b"), ("uint8_t", "B"), ("short", "h"),
    ("unsigned short", "H"), ("int", "i"), ("unsigned", "I"),
    ("int64_t", "l"), ("uint64_t", "L"), ("long", "NCCC_SIG_LONG"),
    ("size_t", "NCCC_SIG_SIZE"), ("char", "NCCC_SIG_CHAR"), ("float", "f"),
    ("double", "d"), ("void *", "p"), ("const void *", "p"),
    ("char *", "p"), ("int *", "p"), ("const char *", "s"),
    ("TVMByteArray *", "y"), ("const TVMByteArray *", "y"),
    ("TVMModuleHandle", "m"), ("TVMFunctionHandle", "k"),
    ("DLTensor *", "t"), ("const DLTensor *", "t"),
    ("TVMModuleHandle *", "p"), ("DLTensor **", "p"),
    ("enum e", "i"),
])
def test_packed_code_of_every_type(ctype, code):
    f = packed("enum e { A };\npacked \"x\" %s f(%s v);" % (ctype, ctype))
    assert f.packed.codes == [code]
    assert f.packed.ret == code


def test_tvm_pointer_kinds_are_plain_pointers_in_slots():
    f = packed('packed "x" void f(TVMByteArray *b, TVMModuleHandle m, '
               'TVMFunctionHandle k, DLTensor *t, const char *s);')
    assert f.packed.codes == ["y", "m", "k", "t", "s"]
    assert f.sig_in == ["p", "p", "p", "p", "s"]
    assert f.signature() == "pppps:i"
    assert f.packed.signature() == "ymkts:"


def test_typedefs_of_tvm_types_keep_their_codes():
    f = packed("typedef DLTensor *tensor_p;\ntypedef tensor_p tensor_q;\n"
               "typedef TVMModuleHandle mod_t;\n"
               'packed "x" mod_t f(tensor_q t, const tensor_p u);')
    assert f.packed.codes == ["t", "t"]
    assert f.packed.ret == "m"


def test_string_annotations():
    f = packed('packed "x" char *f([string] char *a, '
               '[string=false] const char *b) [string];')
    assert f.packed.codes == ["s", "p"]
    assert f.packed.ret == "s"


def test_slots_of_a_global():
    f = packed('packed "tvm.add" int64_t add(int64_t a, int64_t b);')
    assert f.name == "add"
    assert f.packed.name == "tvm.add"
    assert f.packed.where == "global"
    assert [(s.role, s.name, s.code) for s in f.in_slots] == [
        ("arg", "a", "l"), ("arg", "b", "l")]
    assert [(s.role, s.code) for s in f.out_slots] == [
        ("status", "i"), ("return", "l")]
    assert f.n_in.constant == 2 and f.n_out.constant == 2
    assert f.signature() == "ll:il"
    assert f.packed.signature() == "ll:l"


def test_slots_of_a_module_function():
    f = packed('packed "sq" long sq(long x) [module];')
    assert f.packed.where == "module"
    assert [(s.role, s.code) for s in f.in_slots] == [
        ("module", "p"), ("arg", "NCCC_SIG_LONG")]
    assert f.in_slots[1].index.constant == 1
    assert f.signature("LP64") == "pl:il"
    assert f.signature("ILP32") == "pi:ii"
    assert f.packed.signature("ILP32") == "i:i"


def test_system_lib_and_void():
    f = packed('packed "run" void run(void) [system_lib];')
    assert f.packed.where == "system_lib"
    assert f.in_slots == []
    assert [s.role for s in f.out_slots] == ["status"]
    assert f.signature() == ":i"
    assert f.packed.signature() == ":"
    f = packed('packed "run" void run(void) [module=false, system_lib=false];')
    assert f.packed.where == "global"


def test_name_escapes_and_duplicates_of_the_packed_name():
    m = model(M + 'packed "a\\"b\\\\c" int f(void);\n'
              'packed "a\\"b\\\\c" long g(void);')
    assert [f.packed.name for f in m.functions] == ['a"b\\c', 'a"b\\c']
    assert 'nccc_packed_forward("a\\"b\\\\c", ' in c_of(
        'packed "a\\"b\\\\c" int f(void);')


def test_tvm_types_are_predefined_for_c_functions_too():
    m = model(M + "int f(DLTensor *t, TVMByteArray *b, TVMModuleHandle h);")
    assert m.uses_tvm
    assert m.functions[0].signature() == "ppp:i"
    assert m.functions[0].packed is None
    assert not model(M + "int f(void *t);").uses_tvm
    assert tvm_code(TVM_TYPES["TVMFunctionHandle"]) == "k"
    assert tvm_code(TVM_TYPES["DLTensor"]) is None


def test_packed_functions_are_listed_apart():
    m = model(M + 'int c(void);\npacked "x" int p(void);')
    assert [f.name for f in m.functions] == ["c", "p"]
    assert [f.name for f in m.packed_functions] == ["p"]


def test_value_annotations_are_recorded():
    f = packed('packed "x" int f([length=n] const int *a, size_t n, '
               '[nullable] void *p);')
    assert f.params[0].info.length == "n"
    assert f.params[2].info.nullable is True


# ---- the C emitter ---------------------------------------------------------

def test_wrapper_is_one_call():
    src = c_of('packed "tvm.add" int64_t add(int64_t a, int64_t b);')
    start = src.index("/* add: packed")
    assert src[start:src.index("}\n", start) + 2] == (
        "/* add: packed, global; in a b; out status return */\n"
        "void nccc_m_add(const uint64_t *in, uint64_t *out) {\n"
        '  nccc_packed_forward("tvm.add", NCCC_PACKED_GLOBAL, "ll:l", in, '
        "out);\n"
        "}\n")


def test_nonnull_argument_is_refused_with_a_status():
    src = c_of('packed "x" int f([nonnull] const char *s, void *p, '
               '[nonnull] void *q) [module];')
    start = src.index("void nccc_m_f(")
    assert src[start:src.index("}\n", start) + 2] == (
        "void nccc_m_f(const uint64_t *in, uint64_t *out) {\n"
        '  NCCC_NONNULL_REQUIRE_STATUS(in[1], "m.f", "s", out, 2);\n'
        '  NCCC_NONNULL_REQUIRE_STATUS(in[3], "m.f", "q", out, 2);\n'
        '  nccc_packed_forward("x", NCCC_PACKED_MODULE, "spp:i", in, out);\n'
        "}\n")
    assert "#include <nccc/shim_nonnull.h>\n" in src


def test_wrapper_where_and_target_codes():
    src = c_of('packed "sq" long sq(long x) [module];\n'
               'packed "run" void run(void) [system_lib];')
    assert ('nccc_packed_forward("sq", NCCC_PACKED_MODULE, NCCC_SIG_LONG ":" '
            "NCCC_SIG_LONG, in, out);") in src
    assert "/* sq: packed, module; in module x; out status return */" in src
    assert ('nccc_packed_forward("run", NCCC_PACKED_SYSTEM_LIB, ":", in, '
            'out);') in src
    assert "/* run: packed, system lib; in -; out status */" in src


def test_registry_include_and_argument_check():
    src = c_of('packed "x" int f(int a, int b, int c);\n'
               'packed "y" int g(int a);')
    assert "#include <nccc/packed.h>\n" in src
    assert '{"iii:ii", 3, 2, 2}, /* f */' in src
    assert ("(3 <= NCCC_PACKED_MAX_ARGS) ? 1 : -1]; /* the most arguments "
            "of a packed function */") in src
    assert "extern int f" not in src   # no C function behind it
    assert "nccc_packed" not in c_of("int f(void);")


def test_header_checks_leave_packed_functions_out():
    src = c_of('#include <stdio.h>\npacked "x" int f(int a);\nint g(int a);')
    assert "int (g)(int a);" in src
    assert "(f)" not in src


def test_output_is_stable():
    text = PK_IDL.read_text()
    assert generate(text, "pk.idl", ["c"]) == generate(text, "pk.idl", ["c"])


@pytest.mark.parametrize("std", ["c99", "c11"])
@pytest.mark.parametrize("idl,module", [(PK_IDL, "pk"), (EXAMPLE_IDL, "ops")],
                         ids=["pk", "example"])
def test_compiles_warning_free(tmp_path, std, idl, module):
    write_outputs(idl.read_text(), tmp_path, idl.name)
    r = compile_c([tmp_path / (module + "_nccc.c")], tmp_path / "t.o",
                  "-pedantic", std=std)
    assert r.returncode == 0, r.stderr


def test_too_many_arguments_for_the_runtime_is_a_compile_error(tmp_path):
    write_outputs(M + 'packed "x" void f(int a, int b, int c);', tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o",
                  "-DNCCC_PACKED_MAX_ARGS=2")
    assert r.returncode != 0
    assert "negative" in r.stderr, r.stderr


MAIN = r"""
#include <stdio.h>
#include <string.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include "m_nccc.h"

static int add(TVMValue *args, int *codes, int n, TVMValue *ret,
               int *ret_code, void *resource) {
  (void)resource;
  if (n != 2 || codes[0] != kDLInt || codes[1] != kDLFloat) return 0x801;
  ret->v_float64 = (double)args[0].v_int64 + args[1].v_float64;
  *ret_code = kDLFloat;
  return 0;
}

int main(void) {
  TVMBackendPackedCFunc fn = add;
  void *h;
  uint64_t in[2], out[2];
  double d = 0.25;
  TVMInitializeRuntime();
  memcpy(&h, &fn, sizeof h);
  TVMFuncRegisterGlobal("demo.add", h, 0);
  in[0] = (uint64_t)-2;
  memcpy(&in[1], &d, sizeof d);
  nccc_m_add(in, out);
  memcpy(&d, &out[1], sizeof d);
  printf("%d %g\n", (int)out[0], d);
  nccc_m_missing(in, out);
  printf("%#x %s\n", (unsigned)out[0], TVMGetLastError());
  return 0;
}
"""


NONNULL_MAIN = r"""
#include <stdio.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include "m_nccc.h"

int main(void) {
  uint64_t in[1], out[2];
  TVMInitializeRuntime();
  in[0] = 0;
  out[0] = out[1] = 7;
  nccc_m_len(in, out);
  printf("%#x %u %s\n", (unsigned)out[0], (unsigned)out[1],
         TVMGetLastError());
  in[0] = (uint64_t)(uintptr_t)"abc";
  nccc_m_len(in, out);
  printf("%#x %s\n", (unsigned)out[0], TVMGetLastError());
  return 0;
}
"""


def _run_with_runtime(idl, main_c, tmp_path, runtime_lib):
    """Generates idl's wrappers, builds them with main_c against the
    runtime, runs the program; returns its standard output."""
    write_outputs(idl, tmp_path)
    (tmp_path / "main.c").write_text(main_c)
    exe = tmp_path / "prog"
    r = compile_c([tmp_path / "m_nccc.c", tmp_path / "main.c"], exe,
                  "-I", str(tmp_path),
                  "-I", str(RUNTIME_INCLUDE / "nccc" / "tvm-compat"),
                  link=True, libs=[runtime_lib])
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_nonnull_refused_through_the_runtime(tmp_path, runtime_lib):
    # NULL: the status slot says why and nothing is looked up; a string:
    # the lookup runs (and finds nothing)
    out = _run_with_runtime(
        M + 'packed "demo.len" int len([nonnull] const char *s);',
        NONNULL_MAIN, tmp_path, runtime_lib)
    assert out == ("0x4004 0 m.len: s is NULL ([nonnull])\n"
                          "0x100 packed function not registered: "
                          "demo.len\n")


def test_called_through_the_runtime(tmp_path, runtime_lib):
    out = _run_with_runtime(
        M + 'packed "demo.add" double add(int a, double b);\n'
        'packed "demo.missing" void missing(void);', MAIN, tmp_path,
        runtime_lib)
    assert out == ("0 -1.75\n"
                          "0x100 packed function not registered: "
                          "demo.missing\n")
