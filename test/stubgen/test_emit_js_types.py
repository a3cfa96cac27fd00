"""M.d.ts, the TypeScript declarations of a generated JavaScript module:
each parameter and constant typed as the support library takes and
gives it on wasm32 (docs/JS.md, "Generate" and "Values")."""

from stubgen.cli import generate

IDL = """module m;
typedef int step_fn(int i, [context] void *ctx);
int fold(int n, step_fn *step, [context=step] void *ctx);
void hook([nullable] step_fn *fn, [context=fn] void *ctx);
int length([nonnull] const char *s);
int maybe_length(const char *s);
const int SMALL = 7;
const long WORD = 8;
const unsigned long long WIDE = 9;
const int64_t EXACT = 10;
"""


def declarations():
    return generate(IDL, "m.idl", ["js"])["m.d.ts"]


def test_a_callback_refused_when_null_is_not_typed_nullable():
    d = declarations()
    assert "fold(n: number, ctx: Closure): number;" in d
    assert "hook(ctx: Closure | null): void;" in d


def test_a_nonnull_string_is_not_typed_nullable():
    d = declarations()
    assert "length(s: string): number;" in d
    assert "maybe_length(s: string | null): number;" in d


def test_constants_are_numbers_unless_64_bits_wide_on_wasm32():
    d = declarations()
    assert "readonly SMALL: number;" in d
    assert "readonly WORD: number;" in d      # long: 32 bits on wasm32
    assert "readonly WIDE: bigint;" in d
    assert "readonly EXACT: bigint;" in d


def test_new_and_view_name_the_structs_and_unions():
    d = generate(IDL + "struct pair { int a; int b; };\nstruct handle;\n",
                 "m.idl", ["js"])["m.d.ts"]
    assert '"new"(type: "pair", value?: Struct | CObject): CObject;' in d
    assert 'view(type: "pair", p: Pointer): CObject;' in d
    assert 'view(type: "pair", p: Pointer, count: number): ' \
        'CArray<CObject>;' in d
    assert "export interface CObject {" in d


def test_a_bytes_argument_takes_a_uint8array():
    d = generate(IDL + "int sum([bytes, length=n] const unsigned char *b,"
                 " size_t n, void *p);\n", "m.idl", ["js"])["m.d.ts"]
    assert "sum(b: Pointer | Uint8Array, n: number, p: Pointer): number;" in d
