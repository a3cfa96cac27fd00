"""A 2,000-function IDL generates every wrapper, end to end. How long it
takes is a benchmark (bench/run_gen.py), not a test: a timed test fails
when the machine is busy, not when the generator is slow."""

from conftest import run_stubgen

TEMPLATES = [
    "int64_t f{i}(int64_t a, int64_t b);",
    "double f{i}(const char *s, [out] int *n, size_t len) [errno];",
    "struct p f{i}(struct p a, [inout] struct p *b, float c);",
    "void f{i}([length=n] const int *xs, size_t n, enum e k);",
    "char *f{i}(const char *a, unsigned short b) "
    "[owned(release), rename=g{i}];",
]


def big_idl(n):
    lines = ["module big;", "struct p { int x; double y; char tag[4]; };",
             "enum e { E0, E1 = 4, E2 };", "void release(void *p);"]
    for i in range(n - 1):
        lines.append(TEMPLATES[i % len(TEMPLATES)].format(i=i))
    return "\n".join(lines) + "\n"


def test_two_thousand_functions_generate(tmp_path):
    (tmp_path / "big.idl").write_text(big_idl(2000))
    r = run_stubgen("-o", tmp_path, tmp_path / "big.idl")
    assert (r.returncode, r.stderr) == (0, "")
    text = (tmp_path / "big_nccc.c").read_text()
    # the wrappers and the module's entry point nccc_big_open
    assert text.count("\nvoid nccc_big_") == 2000 + 1
