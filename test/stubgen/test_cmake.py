"""cmake/NcccBindings.cmake: finding the generator in a checkout and in an
installed layout, and nccc_add_bindings building a working program."""

import os
import shutil
import subprocess

import pytest

from conftest import C_DIR, EXAMPLES, ROOT, RUNTIME_INCLUDE, SHIMS_INCLUDE, cc, \
    extra_cflags
from test_cli import _install

CMAKE = shutil.which("cmake")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="cmake not installed")


def _find_stubgen(bindings_cmake, tmp_path):
    script = tmp_path / "find.cmake"
    script.write_text('include("%s")\n_nccc_find_stubgen()\n'
                      'message("STUBGEN=${NCCC_STUBGEN}")\n'
                      'message("SOURCES=${NCCC_STUBGEN_SOURCES}")\n'
                      % bindings_cmake)
    r = subprocess.run([CMAKE, "-P", str(script)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    lines = dict(ln.split("=", 1) for ln in r.stderr.splitlines()
                 if "=" in ln)
    return lines["STUBGEN"], lines["SOURCES"].split(";")


def test_finds_the_generator_in_the_checkout(tmp_path):
    stubgen, sources = _find_stubgen(ROOT / "cmake" / "NcccBindings.cmake",
                                     tmp_path)
    assert os.path.samefile(stubgen, ROOT / "bin" / "nccc-stubgen")
    names = [os.path.basename(s) for s in sources]
    assert "nccc.lark" in names and "lower.py" in names


@pytest.mark.parametrize("cmake_dir", ["lib/cmake/nccc",
                                       "lib/x86_64-linux-gnu/cmake/nccc",
                                       "share/nccc/cmake"])
def test_finds_the_generator_in_an_installation(tmp_path, cmake_dir):
    prefix = tmp_path / "prefix"
    _install(prefix)
    (prefix / cmake_dir).mkdir(parents=True)
    shutil.copy2(ROOT / "cmake" / "NcccBindings.cmake", prefix / cmake_dir)
    stubgen, sources = _find_stubgen(prefix / cmake_dir /
                                     "NcccBindings.cmake", tmp_path)
    assert os.path.samefile(stubgen, prefix / "bin" / "nccc-stubgen")
    assert any(s.endswith("share/nccc/idl/nccc.lark") for s in sources)
    assert any(s.endswith("share/nccc/stubgen/cli.py") for s in sources)


def test_add_bindings_from_an_installation_builds_and_runs(tmp_path,
                                                           runtime_lib):
    prefix = tmp_path / "prefix"
    _install(prefix)
    cmake_dir = prefix / "lib" / "cmake" / "nccc"
    cmake_dir.mkdir(parents=True)
    shutil.copy2(ROOT / "cmake" / "NcccBindings.cmake", cmake_dir)
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy2(EXAMPLES / "tour.idl", proj / "tour.idl")
    flags = " ".join(extra_cflags())
    (proj / "CMakeLists.txt").write_text("""
cmake_minimum_required(VERSION 3.16)
project(user C)
set(CMAKE_C_FLAGS "${CMAKE_C_FLAGS} %(flags)s")
set(CMAKE_EXE_LINKER_FLAGS "${CMAKE_EXE_LINKER_FLAGS} %(flags)s")
# stands in for the imported target of an installed ncccConfig.cmake
add_library(nccc::runtime INTERFACE IMPORTED)
set_target_properties(nccc::runtime PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "%(include)s"
  INTERFACE_LINK_LIBRARIES "%(lib)s;-pthread")
include("%(bindings)s")
nccc_add_bindings(tour_nccc tour.idl)
add_executable(prog "%(main)s" "%(impl)s" "%(harness)s")
target_link_libraries(prog PRIVATE tour_nccc m)
""" % {"flags": flags, "include": "%s;%s" % (RUNTIME_INCLUDE, SHIMS_INCLUDE),
       "lib": runtime_lib,
       "bindings": cmake_dir / "NcccBindings.cmake",
       "main": C_DIR / "tour_main.c", "impl": C_DIR / "tour_impl.c",
       "harness": C_DIR / "harness.c"})
    build = tmp_path / "build"
    env = dict(os.environ, CC=cc()[0])
    r = subprocess.run([CMAKE, "-S", str(proj), "-B", str(build)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nccc-stubgen tour" in r.stdout
    assert (build / "nccc" / "tour_nccc" / "tour_nccc.c").is_file()
    run = subprocess.run([str(build / "prog")], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout
    assert run.stdout.endswith(" failed: 0\n")
    # a changed IDL is generated again by the next build
    idl = proj / "tour.idl"
    text = idl.read_text()
    assert "int64_t add(int64_t a, int64_t b);" in text
    idl.write_text(text.replace("int64_t add(int64_t a, int64_t b);",
                                "int64_t add(int64_t a, int64_t b) "
                                "[rename=plus];"))
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nccc-stubgen tour" in r.stdout
    assert "void nccc_tour_plus(" in (build / "nccc" / "tour_nccc" /
                                      "tour_nccc.c").read_text()


_BUILD_TIME_PROJECT = """
cmake_minimum_required(VERSION 3.16)
project(user C)
set(CMAKE_C_FLAGS "${CMAKE_C_FLAGS} %(flags)s")
set(CMAKE_EXE_LINKER_FLAGS "${CMAKE_EXE_LINKER_FLAGS} %(flags)s")
add_library(nccc::runtime INTERFACE IMPORTED)
set_target_properties(nccc::runtime PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "%(include)s"
  INTERFACE_LINK_LIBRARIES "%(lib)s;-pthread")
include("%(bindings)s")
# the IDL is made at build time, from a template of the source tree
set(idl "${CMAKE_CURRENT_BINARY_DIR}/made/tour.idl")
add_custom_command(
  OUTPUT "${idl}"
  COMMAND "${CMAKE_COMMAND}" -E copy "${CMAKE_CURRENT_SOURCE_DIR}/tour.idl.in"
          "${idl}"
  DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/tour.idl.in"
  COMMENT "making tour.idl"
  VERBATIM)
nccc_add_bindings(tour_nccc "${idl}" %(module)s)
add_executable(prog "%(main)s" "%(impl)s" "%(harness)s")
target_link_libraries(prog PRIVATE tour_nccc m)
"""


def _build_time_project(tmp_path, runtime_lib, module):
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy2(EXAMPLES / "tour.idl", proj / "tour.idl.in")
    (proj / "CMakeLists.txt").write_text(_BUILD_TIME_PROJECT % {
        "flags": " ".join(extra_cflags()),
        "include": "%s;%s" % (RUNTIME_INCLUDE, SHIMS_INCLUDE),
        "lib": runtime_lib,
        "bindings": ROOT / "cmake" / "NcccBindings.cmake",
        "module": module,
        "main": C_DIR / "tour_main.c", "impl": C_DIR / "tour_impl.c",
        "harness": C_DIR / "harness.c"})
    build = tmp_path / "build"
    env = dict(os.environ, CC=cc()[0])
    r = subprocess.run([CMAKE, "-S", str(proj), "-B", str(build)],
                       capture_output=True, text=True, env=env)
    return proj, build, r


def test_add_bindings_with_an_idl_made_at_build_time(tmp_path, runtime_lib):
    proj, build, r = _build_time_project(tmp_path, runtime_lib,
                                         "MODULE tour")
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (build / "made" / "tour.idl").exists()
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    # the IDL is made first, then the wrappers from it
    assert r.stdout.index("making tour.idl") < \
        r.stdout.index("nccc-stubgen tour")
    run = subprocess.run([str(build / "prog")], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout
    assert run.stdout.endswith(" failed: 0\n")
    # a change of the template makes the IDL, then the wrappers, again
    template = proj / "tour.idl.in"
    text = template.read_text()
    assert "int64_t add(int64_t a, int64_t b);" in text
    template.write_text(text.replace(
        "int64_t add(int64_t a, int64_t b);",
        "int64_t add(int64_t a, int64_t b) [rename=plus];"))
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "making tour.idl" in r.stdout and "nccc-stubgen tour" in r.stdout
    assert "void nccc_tour_plus(" in (build / "nccc" / "tour_nccc" /
                                      "tour_nccc.c").read_text()
    # nothing changed: nothing is made
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "making tour.idl" not in r.stdout
    assert "nccc-stubgen" not in r.stdout


def test_add_bindings_with_an_idl_made_at_build_time_needs_module(
        tmp_path, runtime_lib):
    _, _, r = _build_time_project(tmp_path, runtime_lib, "")
    assert r.returncode != 0
    # (CMake wraps the message at spaces)
    assert "made/tour.idl does not exist (an IDL made at build time needs " \
        "MODULE <name>)" in " ".join(r.stderr.split())


_LANGS_PROJECT = """
cmake_minimum_required(VERSION 3.16)
project(user C)
add_library(nccc::runtime INTERFACE IMPORTED)
set_target_properties(nccc::runtime PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "%(include)s")
include("%(bindings)s")
nccc_add_bindings(tour_nccc "%(idl)s" LANGS %(langs)s)
"""


def _langs_project(tmp_path, langs):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "CMakeLists.txt").write_text(_LANGS_PROJECT % {
        "include": "%s;%s" % (RUNTIME_INCLUDE, SHIMS_INCLUDE),
        "bindings": ROOT / "cmake" / "NcccBindings.cmake",
        "idl": EXAMPLES / "tour.idl", "langs": langs})
    build = tmp_path / "build"
    env = dict(os.environ, CC=cc()[0])
    r = subprocess.run([CMAKE, "-S", str(proj), "-B", str(build)],
                       capture_output=True, text=True, env=env)
    return build, r


def test_add_bindings_langs_lua_and_scheme(tmp_path):
    build, r = _langs_project(tmp_path, "lua scheme")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    out = build / "nccc" / "tour_nccc"
    assert sorted(p.name for p in out.iterdir()) == \
        ["tour.lua", "tour.rkt", "tour.scm", "tour.sls", "tour_nccc.c",
         "tour_nccc.h"]
    lua = (out / "tour.lua").read_text()
    assert lua.endswith("})\n")
    assert 'return require("nccc.binder").module({\n' in lua
    assert "(library (nccc tour)" in (out / "tour.sls").read_text()


def test_add_bindings_unknown_language(tmp_path):
    _, r = _langs_project(tmp_path, "c cobol")
    assert r.returncode != 0
    assert "nccc_add_bindings: unknown language 'cobol' (known: c, js, " \
        "lua, python, rust, scheme)" in " ".join(r.stderr.split())


def test_add_bindings_langs_python(tmp_path):
    build, r = _langs_project(tmp_path, "python")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([CMAKE, "--build", str(build)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    out = build / "nccc" / "tour_nccc"
    assert sorted(p.name for p in out.iterdir()) == \
        ["tour.py", "tour.pyi", "tour_nccc.c", "tour_nccc.h"]
    assert (out / "tour.py").read_text().rstrip().endswith(
        "bind = MODULE.bind")
    assert "def add(self, a: int, b: int) -> int: ..." in \
        (out / "tour.pyi").read_text()
