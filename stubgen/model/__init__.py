"""The checked model of an IDL module, and its lowering.

check(file) (check/) takes the syntax nodes of parse.py and returns a
Module in which every name is resolved and every rule of docs/IDL.md
holds; the first violation raises IdlError at its position. What the
model holds:

  Module.items      declarations in IDL order (for emitting declarations)
  Module.layouts    the layout table: records and opaque types
  Module.constants  the constants table: enumerators and named constants
  Module.functions  the registry, in IDL order, each with
                    in_slots / out_slots (Slot: role, type, code, index),
                    n_in / n_out and the signature; a packed function
                    (`packed "NAME" prototype;`) also has .packed
  Module.callbacks  the callback types (typedefs with a [context]
                    parameter or [thunks=N]), each with its slots as
                    its backward wrapper packs them for the dispatcher

Slot positions can depend on sizeof (a struct by value takes
NCCC_SLOTS(sizeof) slots), so a position is a SlotIndex: a fixed number
plus the records whose slot counts come before it.

lower(module) (lower.py) then computes, once, every per-function fact
the emitters print; the emitters read the model and its lowering only.
"""

from stubgen.model.callbacks import MAX_THUNKS, SCOPES, CallbackType
from stubgen.model.check import check
from stubgen.model.decls import (C_KEYWORDS, Constant, ConstantDecl, Define,
                                 EnumDecl, Enumerator, Field, Include, Layout,
                                 OpaqueDecl, Prototype, RecordDecl,
                                 TypedefDecl)
from stubgen.model.functions import Function, Module
from stubgen.model.lower import lower
from stubgen.model.packed import TVM_TYPES, Packed, tvm_code
from stubgen.model.values import Param, Slot, SlotIndex, ValueInfo

__all__ = [
    "C_KEYWORDS", "MAX_THUNKS", "SCOPES", "TVM_TYPES", "CallbackType",
    "Constant", "ConstantDecl", "Define", "EnumDecl", "Enumerator", "Field",
    "Function", "Include", "Layout", "Module", "OpaqueDecl", "Packed",
    "Param", "Prototype", "RecordDecl", "Slot", "SlotIndex", "TypedefDecl",
    "ValueInfo", "build", "check", "lower", "tvm_code",
]


def build(text):
    """IDL text -> checked Module (parse and check)."""
    from stubgen.parse import parse
    return check(parse(text))
