"""[lasterror] (Windows' GetLastError, docs/SHIMS.md "lasterror") and the
Windows-only marker [windows]: the slot, the generated C, and what the C
does on a target without GetLastError (here: this Linux machine)."""

import subprocess

from conftest import compile_c, error, model, write_outputs
from stubgen.abi import load

M = "module m;\n"
REFUSE = """#include <stdint.h>
#include <stdio.h>
#include <nccc/nccc.h>
#include "m_nccc.h"

int main(void) {
  const char *path = "x";
  uint64_t in[1], out[2] = {7, 7};
  in[0] = (uint64_t)(uintptr_t)path;
  nccc_m_attributes(in, out);
  printf("%llu %llu %d %s\\n", (unsigned long long)out[0],
         (unsigned long long)out[1], (int)nccc_last_status(), nccc_last_error());
  return 0;
}
"""


def test_the_slot_follows_errno_with_its_own_code():
    m = model(M + "long f(const char *s, [out] int *n) [errno, lasterror];")
    f = m.functions[0]
    assert [s.role for s in f.out_slots] == ["return", "out", "errno",
                                             "lasterror"]
    assert f.out_slots[-1].code == "W"
    assert m.uses_lasterror


def test_default_and_callback_type_take_it():
    m = model(M + "default [lasterror];\n"
              "typedef int step_fn(int x, [context] void *ctx) [lasterror];\n"
              "int g(step_fn *f, [context=f] void *ctx);\n")
    assert m.functions[0].lasterror
    cb = m.callbacks[0]
    assert [s.role for s in cb.out_slots] == ["return", "lasterror"]


def test_cleared_before_and_read_after_the_call(tmp_path):
    files = write_outputs(M + "unsigned f(int x) [errno, lasterror];", tmp_path)
    lines = [ln.strip() for ln in files["m_nccc.c"].splitlines()]
    call = lines.index("r = f(nccc_slot_to_i32(in[0]));")
    assert lines[call - 2:call] == ["NCCC_ERRNO_CLEAR();",
                                    "NCCC_LASTERROR_CLEAR();"]
    assert lines[call + 1:call + 3] == ["out[1] = NCCC_ERRNO_SLOT();",
                                        "out[2] = NCCC_LASTERROR_SLOT();"]
    assert "#include <nccc/shim_lasterror.h>" in lines


def test_callback_sets_it_from_the_hosts_slot(tmp_path):
    files = write_outputs(M + "typedef int step_fn(int x, [context] void *ctx)"
                          " [lasterror, windows];\n"
                          "int g(step_fn *f, [context=f] void *ctx) [windows];\n",
                          tmp_path)
    c = files["m_nccc.c"]
    assert "NCCC_CB_SET_LASTERROR(out[1]);" in c
    # the backward wrapper, taken by [windows] functions only, is Windows's
    assert c.index("#ifdef _WIN32") < c.index("static int nccc_m_step_fn_back")


def test_windows_callback_type_needs_windows_functions():
    assert error(M + "typedef int step_fn(int x, [context] void *ctx) [windows];\n"
                 "int g(step_fn *f, [context=f] void *ctx);\n") == (
        "t.idl:3:16: error: callback type 'step_fn' is [windows] and 'g' is "
        "not: a callback type of a [windows] function is [windows], and only "
        "[windows] functions take one\n"
        "int g(step_fn *f, [context=f] void *ctx);\n"
        "               ^")


def test_elsewhere_a_compile_error_at_the_declaration(tmp_path):
    write_outputs(M + "int plain(int x);\nint f(int x) [lasterror];\n", tmp_path)
    r = compile_c([tmp_path / "m_nccc.c"], tmp_path / "m.o", "-I", str(tmp_path))
    assert r.returncode != 0
    assert ('t.idl:3:2: error: #error "f: [lasterror] needs Windows '
            '(GetLastError); mark the declaration [windows] if it exists only '
            'there"') in r.stderr


def test_windows_only_declaration_refuses_elsewhere(tmp_path, runtime_lib):
    write_outputs(M + "unsigned long attributes(const char *path) "
                  "[lasterror, windows];\n", tmp_path)
    (tmp_path / "main.c").write_text(REFUSE)
    exe = tmp_path / "refuse"
    r = compile_c([tmp_path / "main.c", tmp_path / "m_nccc.c"], exe,
                  "-I", str(tmp_path), link=True, libs=[runtime_lib])
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    out0, out1, status, message = run.stdout.split(" ", 3)
    assert (out0, out1) == ("0", "0")
    assert int(status) == next(e.value for e in load().status
                               if e.name == "ERR_NOT_IMPLEMENTED")
    assert message.strip() == "m.attributes: on Windows only ([windows])"
