"""The checker's rules for packed declarations and their slots."""

from stubgen import syntax as S
from stubgen.ctype import (INT_CODE, POINTER_CODE, SCALARS, STRING_CODE,
                           Enum, Pointer, Scalar, Void)
from stubgen.errors import IdlError
from stubgen.model.annotations import (PACKED_ANNS, VALUE_ANNS,
                                       annotation_values)
from stubgen.model.check.common import type_label
from stubgen.model.functions import Function
from stubgen.model.packed import TVM_TYPES, Packed, tvm_code
from stubgen.model.values import Slot, SlotIndex


class PackedRules:
    # ---- packed functions
    def _item_PackedDecl(self, d):
        if d.keyword[0] != "packed":
            raise IdlError(d.keyword[1], 'expected "packed" before the name '
                           'of a packed function')
        if d.name == "":
            raise IdlError(d.pos, "the name of a packed function is empty")
        if "\0" in d.name:
            raise IdlError(d.pos, "the name of a packed function contains "
                           "a NUL character")
        if len(d.name.encode("utf-8")) > 255:
            raise IdlError(d.pos, "the name of a packed function is longer "
                           "than 255 bytes")
        self.m.uses_tvm = True
        base = self._base(d.specifiers, "function")
        fd = d.declarator
        outer, node = [], fd
        while node is not None and not isinstance(node, S.DName):
            outer.append(node)
            node = node.inner
        if node is None:
            raise IdlError(d.specifiers.pos, "a packed function needs a "
                           "name for its wrapper")
        name, pos = node.name, node.pos
        fnode = None
        for n in outer:
            if isinstance(n, S.DFunction):
                fnode = n
        if fnode is None or fnode.inner is not node:
            self._declarator(base, fd, "file")
            raise IdlError(pos, "'%s' is a pointer to a function; a packed "
                           "function is declared with a prototype" % name)
        ret = self._declarator_prefix(base, fd, fnode)
        self._check_return(ret, pos)
        if fnode.variadic:
            raise IdlError(pos, "packed function '%s' cannot be variadic"
                           % name)
        anns = annotation_values(d.annotations, PACKED_ANNS + VALUE_ANNS,
                                  "a packed function")
        where = "global"
        for k in PACKED_ANNS:
            if k in anns and anns[k][0]:
                if where != "global":
                    raise IdlError(anns[k][1], "conflicting annotations "
                                   "'%s' and '%s'" % (where, k))
                where = k
        self._check_name(name, pos)
        if name in self.registry:
            raise IdlError(pos, "function '%s' is already in the registry "
                           "(at %s)" % (name, self.registry[name]))
        self.registry[name] = pos
        params = self._function_params(fnode, name)
        for p in params:
            if p.direction != "in":
                raise IdlError(p.anns[p.direction][1], "[%s] is not allowed "
                               "on a parameter of a packed function: its "
                               "one result is the return value"
                               % p.direction)
            for k in ("context", "scope", "destroy"):
                if k in p.anns:
                    raise IdlError(p.anns[k][1], "'%s' is not allowed on a "
                                   "parameter of a packed function" % k)
        f = Function(pos, name, name, ret, params)
        self._function_values(f, anns, name)
        codes = [self._packed_code(p.type, p.info, "parameter %s of packed "
                                   "function '%s'" % (p.label, name), p.pos)
                 for p in params]
        ret_code = None
        if not isinstance(ret.resolved(), Void):
            ret_code = self._packed_code(ret, f.ret_info, "the return value "
                                         "of packed function '%s'" % name,
                                         pos)
        f.packed = Packed(d.name, where, codes, ret_code)
        self._packed_slots(f)
        f.index = len(self.m.functions)
        self.m.functions.append(f)
        self.m.items.append(f)

    def _packed_code(self, t, info, what, pos):
        code = tvm_code(t)
        if code is not None:
            return code
        r = t.resolved()
        if isinstance(r, Scalar):
            return r.code
        if isinstance(r, Enum):
            return INT_CODE
        if isinstance(r, Pointer) and r.kind == "pointer":
            return STRING_CODE if info.string else POINTER_CODE
        raise IdlError(pos, "%s has type %s, which has no TVM type code"
                       % (what, type_label(t)))

    def _packed_slots(self, f):
        """in[]: the module handle ([module]), then one slot per argument;
        out[]: the status (TVM's error code as int), then the result."""
        idx = SlotIndex()
        ins = []
        if f.packed.where == "module":
            ins.append(Slot("module", "module", None,
                            TVM_TYPES["TVMModuleHandle"], POINTER_CODE, idx,
                            None))
            idx = idx.plus(None)
        for p in f.params:
            s = Slot("arg", p.name, p, p.type, self._code(p.type, p.info),
                     idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(None)
        f.in_slots, f.n_in = ins, idx
        outs = [Slot("status", "status", None, SCALARS["int"], INT_CODE,
                     SlotIndex(), None)]
        idx = SlotIndex(1)
        if f.packed.ret is not None:
            outs.append(Slot("return", "return", None, f.ret,
                             self._code(f.ret, f.ret_info), idx, f.ret_info))
            idx = idx.plus(None)
        f.out_slots, f.n_out = outs, idx
