"""bin/nccc-stubgen and stubgen.cli: exit codes, messages, files, layouts."""

import os
import random
import shutil
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT, STUBGEN, run_stubgen
from stubgen import __version__, cli
from test_errors import CASES

GOOD = "module m;\nint add(int a, int b);\n"


def _no_traceback(r):
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout


def test_version():
    # the package's version, a copy of the project's (tools/version.py)
    r = run_stubgen("--version")
    assert (r.returncode, r.stdout) == (0, "nccc-stubgen %s\n" % __version__)


def test_help():
    r = run_stubgen("--help")
    assert r.returncode == 0
    assert r.stdout.startswith("Usage: nccc-stubgen ")
    for opt in ("--check", "--lang", "-o DIR", "--version"):
        assert opt in r.stdout


@pytest.mark.parametrize("args,message", [
    ((), "the following arguments are required: FILE.idl"),
    (("--frobnicate", "x.idl"), "unrecognized arguments: --frobnicate"),
    (("--lang", "cobol", "x.idl"),
     "unknown language 'cobol' (known: c, js, lua, python, records, rust, scheme)"),
    (("--lang", ",", "x.idl"), "--lang needs at least one language"),
    (("-o",), "argument -o/--output: expected one argument"),
])
def test_usage_errors_exit_2(tmp_path, args, message):
    r = run_stubgen(*args, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith("Usage: nccc-stubgen")
    assert "nccc-stubgen: error: " + message in r.stderr
    _no_traceback(r)


def test_missing_input_file_exits_2(tmp_path):
    r = run_stubgen("nope.idl", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == ("nccc-stubgen: error: cannot read nope.idl: No such "
                        "file or directory\n")


def test_bad_idl_exits_1_with_the_diagnostic_and_writes_nothing(tmp_path):
    (tmp_path / "bad.idl").write_text("module m;\nint f(uint33_t x);\n")
    r = run_stubgen("-o", "out", "bad.idl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == ("bad.idl:2:7: error: unknown type 'uint33_t'\n"
                        "int f(uint33_t x);\n"
                        "      ^\n")
    assert not (tmp_path / "out").exists()


def test_generates_both_files_into_a_new_directory(tmp_path):
    (tmp_path / "m.idl").write_text(GOOD)
    r = run_stubgen("--lang", "c", "-o", "a/b", "m.idl", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    files = cli.generate(GOOD, "m.idl", ["c"])
    for name, text in files.items():
        assert (tmp_path / "a" / "b" / name).read_text() == text


def test_default_output_directory_is_the_current_one(tmp_path):
    (tmp_path / "m.idl").write_text(GOOD)
    assert run_stubgen("m.idl", cwd=tmp_path).returncode == 0
    assert (tmp_path / "m_nccc.c").is_file()
    assert (tmp_path / "m_nccc.h").is_file()


def test_check_writes_nothing(tmp_path):
    (tmp_path / "m.idl").write_text(GOOD)
    r = run_stubgen("--check", "-o", "out", "m.idl", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (0, "")
    assert not (tmp_path / "out").exists()
    (tmp_path / "b.idl").write_text("module m;\nint f(void) [fast];\n")
    assert run_stubgen("--check", "b.idl", cwd=tmp_path).returncode == 1


def test_two_runs_give_byte_identical_files(tmp_path):
    idl = EXAMPLES / "tour.idl"
    for d in ("one", "two"):
        assert run_stubgen("-o", tmp_path / d, idl).returncode == 0
    for name in ("tour_nccc.c", "tour_nccc.h"):
        assert (tmp_path / "one" / name).read_bytes() == \
            (tmp_path / "two" / name).read_bytes()


def test_not_utf8_is_an_idl_error(tmp_path):
    (tmp_path / "x.idl").write_bytes(b"module m;\nint f\xff(void);\n")
    r = run_stubgen("x.idl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == "x.idl:2:6: error: the file is not UTF-8 text\n"


def test_crlf_line_ends_are_accepted(tmp_path):
    (tmp_path / "m.idl").write_bytes(GOOD.replace("\n", "\r\n").encode())
    assert run_stubgen("--check", "m.idl", cwd=tmp_path).returncode == 0


def test_unwritable_output_exits_1(tmp_path):
    (tmp_path / "m.idl").write_text(GOOD)
    (tmp_path / "file").write_text("")
    r = run_stubgen("-o", "file", "m.idl", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith("nccc-stubgen: error: cannot write ")
    _no_traceback(r)


def test_internal_errors_exit_3_without_traceback(tmp_path, monkeypatch,
                                                  capsys):
    def broken(module, name):
        raise ZeroDivisionError("boom")
    monkeypatch.setitem(cli.EMITTERS, "c", broken)
    (tmp_path / "m.idl").write_text(GOOD)
    assert cli.main([str(tmp_path / "m.idl")]) == 3
    err = capsys.readouterr().err
    assert err.startswith("nccc-stubgen: internal error: ZeroDivisionError: "
                          "boom")
    assert "Traceback" not in err


def test_every_error_case_exits_1_through_main(tmp_path, capsys):
    path = tmp_path / "t.idl"
    for src, line, col, message in CASES:
        path.write_text(src)
        assert cli.main(["--check", str(path)]) == 1, src
        err = capsys.readouterr().err
        assert err.startswith("%s:%d:%d: error: %s\n" % (path, line, col,
                                                         message))


def test_mangled_inputs_never_crash(tmp_path, capsys):
    """Truncations and token deletions of the tour: each gives 0 or 1,
    never an internal error."""
    text = (EXAMPLES / "tour.idl").read_text()
    rng = random.Random(1234)
    words = text.split(" ")
    variants = [text[:n] for n in range(0, len(text), 37)]
    for _ in range(100):
        w = list(words)
        del w[rng.randrange(len(w))]
        variants.append(" ".join(w))
    for _ in range(100):
        i = rng.randrange(len(text))
        variants.append(text[:i] + rng.choice("*;,()[]{}=x1") + text[i:])
    path = tmp_path / "t.idl"
    for v in variants:
        path.write_text(v)
        assert cli.main(["--check", str(path)]) in (0, 1), v
    assert "internal error" not in capsys.readouterr().err


def _install(prefix):
    """The installed layout: bin/, share/nccc/stubgen, share/nccc/idl (the
    grammar and the ABI description)."""
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(STUBGEN, prefix / "bin" / "nccc-stubgen")
    share = prefix / "share" / "nccc"
    shutil.copytree(ROOT / "stubgen", share / "stubgen",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (share / "idl").mkdir()
    for name in ("nccc.lark", "abi.json"):
        shutil.copy2(ROOT / "idl" / name, share / "idl" / name)


def test_runs_from_an_installed_layout_and_through_a_symlink(tmp_path):
    prefix = tmp_path / "prefix"
    _install(prefix)
    (tmp_path / "m.idl").write_text(GOOD)
    exe = prefix / "bin" / "nccc-stubgen"
    r = subprocess.run([str(exe), "-o", "out", "m.idl"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
    assert (tmp_path / "out" / "m_nccc.c").is_file()
    link_dir = tmp_path / "elsewhere"
    link_dir.mkdir()
    os.symlink(exe, link_dir / "nccc-stubgen")
    r = subprocess.run([str(link_dir / "nccc-stubgen"), "--check", "m.idl"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")


def test_skips_a_python_without_lark(tmp_path):
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    r = run_stubgen("--version", env={"NCCC_PYTHON": str(fake)})
    assert (r.returncode, r.stdout) == (0, "nccc-stubgen %s\n" % __version__)


def test_python_module_entry_point(tmp_path):
    (tmp_path / "m.idl").write_text(GOOD)
    r = subprocess.run([sys.executable, "-m", "stubgen", "--check",
                        str(tmp_path / "m.idl")], cwd=ROOT,
                       capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
