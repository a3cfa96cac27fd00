"""The generator's own code tables come from the ABI description
(idl/abi.json through stubgen.abi), not from hand-written copies."""

from stubgen import abi, ctype
from stubgen.cli import generate

ABI = abi.load()


def _abi_int(bits, signed):
    [code] = [c for c in ABI.codes
              if c.kind == "int" and c.bits == bits and c.signed == signed]
    return code


def test_scalar_codes_are_the_abis():
    for bits in (8, 16, 32, 64):
        assert ctype.SCALARS["int%d_t" % bits].code == \
            _abi_int(bits, True).code
        assert ctype.SCALARS["uint%d_t" % bits].code == \
            _abi_int(bits, False).code
    assert ctype.TARGET_CODES["NCCC_SIG_LONG"]["LP64"] == \
        _abi_int(64, True).code
    assert ctype.TARGET_CODES["NCCC_SIG_SIZE"]["ILP32"] == \
        _abi_int(32, False).code
    kinds = {c.code: c.kind for c in ABI.codes}
    assert kinds[ctype.POINTER_CODE] == "pointer"
    assert kinds[ctype.STRING_CODE] == "string"
    assert kinds[ctype.FUNCTION_CODE] == "function"
    assert kinds[ctype.CLOSURE_CODE] == "closure"
    assert kinds[ctype.ERRNO_CODE] == "errno"
    assert ctype.VARIADIC == ABI.variadic


def test_scheme_library_spells_no_range():
    """The Scheme binder reads ranges from (nccc abi) when it binds; the
    generated library holds only the records."""
    scm = generate("module r; int16_t f(uint8_t a, int64_t b);", "r.idl",
                   ["scheme"])["r.sls"]
    for code in (_abi_int(8, False), _abi_int(16, True), _abi_int(64, True)):
        assert str(code.max) not in scm
    assert '(signatures . ("Bl:h"))' in scm
