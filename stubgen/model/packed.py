"""Packed functions (docs/PACKED.md): what a packed declaration adds to
its Function, and TVM's predefined types with their packed codes."""

from stubgen.ctype import TARGET_CODES, Opaque, Pointer, Typedef, Void
from stubgen.model.decls import OpaqueDecl, TypedefDecl


class Packed:
    """What a packed declaration adds to its Function. name: the function's
    name in TVM's registry; where: "global" (TVMFuncGetGlobal), "module"
    (TVMModGetFunction on the module handle in in[0]) or "system_lib";
    codes / ret: the packed signature (nccc/packed.h), one code per
    argument and the result's code or None."""

    def __init__(self, name, where, codes, ret):
        self.name = name
        self.where = where
        self.codes = codes
        self.ret = ret

    def signature(self, data_model="LP64"):
        """The packed signature for one data model, like
        Function.signature."""
        def letter(c):
            return TARGET_CODES[c][data_model] if c in TARGET_CODES else c
        return "".join(letter(c) for c in self.codes) + ":" + \
            (letter(self.ret) if self.ret else "")

# ---- TVM's types ----------------------------------------------------------
# Predefined, like size_t; the generated C takes them from <nccc/packed.h>.
# In a packed declaration the two handle typedefs and pointers to the two
# structs have packed codes of their own (nccc/packed.h).

def _tvm_types():
    out = {}
    for name in ("TVMModuleHandle", "TVMFunctionHandle"):
        out[name] = Typedef(TypedefDecl(None, name, Pointer(Void())))
    for name in ("TVMByteArray", "DLTensor"):
        out[name] = Opaque(OpaqueDecl(None, name))
    return out


TVM_TYPES = _tvm_types()
_TVM_HANDLE_CODES = {"TVMModuleHandle": "m", "TVMFunctionHandle": "k"}
_TVM_POINTEE_CODES = {"TVMByteArray": "y", "DLTensor": "t"}


def _tvm_name(t):
    """The name of the TVM type t is, looking through the IDL's own
    typedefs, or None."""
    while isinstance(t, (Typedef, Opaque)):
        name = t.decl.name
        if name in TVM_TYPES and t.decl is TVM_TYPES[name].decl:
            return name
        if isinstance(t, Opaque):
            return None
        t = t.decl.type
    return None


def tvm_code(t):
    """The packed code of a TVM type: m or k for TVMModuleHandle and
    TVMFunctionHandle, y or t for a pointer to TVMByteArray or DLTensor;
    None for every other type."""
    name = _tvm_name(t)
    if name in _TVM_HANDLE_CODES:
        return _TVM_HANDLE_CODES[name]
    r = t.resolved()
    if isinstance(r, Pointer):
        return _TVM_POINTEE_CODES.get(_tvm_name(r.target))
    return None
