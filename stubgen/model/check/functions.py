"""The checker's rules for functions, their parameters and values."""

from stubgen import syntax as S
from stubgen.ctype import (POINTER_CODE, Array, FuncType, Pointer, Scalar,
                           Void)
from stubgen.errors import IdlError
from stubgen.model.annotations import (FUNCTION_ANNS, PARAM_ANNS, VALUE_ANNS,
                                       annotation_values)
from stubgen.model.check.common import is_byte, is_integer, type_label
from stubgen.model.decls import Prototype
from stubgen.model.functions import Function
from stubgen.model.values import Param, ValueInfo

# The flag annotations of a function: each one an attribute of its
# Function, false unless the IDL (or its defaults) sets it.
_FLAGS = ("errno", "lasterror", "windows", "function_pointer", "macro",
          "trace", "fault")


class FunctionRules:
    # ---- functions
    def _function(self, d):
        base = self._base(d.specifiers, "function")
        fd = d.declarator
        # the declared function is the innermost parameter list
        outer = []
        node = fd
        while node is not None and not isinstance(node, S.DName):
            outer.append(node)
            node = node.inner
        if node is None:
            raise IdlError(d.pos, "a declaration needs a name")
        name, pos = node.name, node.pos
        fnode = None
        for n in outer:
            if isinstance(n, S.DFunction):
                fnode = n
        if fnode is None or not (fnode.inner is node):
            # a pointer to a function, or worse; the declarator's own
            # errors (an array of functions, ...) come first
            self._declarator(base, fd, "file")
            raise IdlError(pos, "'%s' is a variable; only functions and "
                           "constants (const T NAME;) can be declared" % name)
        ret = self._declarator_prefix(base, fd, fnode)
        if d.storage is not None and d.storage[0] == "static":
            raise IdlError(d.storage[1], "a static function is not visible "
                           "to the generated C")
        self._check_return(ret, pos)
        if fnode.variadic:
            return self._prototype(d, base, fd, name, pos)
        anns = annotation_values(d.annotations,
                                  FUNCTION_ANNS + VALUE_ANNS, "a function")
        flags = dict(self.defaults, macro=False, windows=False)
        for k in _FLAGS:
            if k in anns:
                flags[k] = anns[k][0]
        reg_name = anns["rename"][0] if "rename" in anns else name
        if "rename" in anns:
            self._check_name(reg_name, anns["rename"][1])
        c_name = name
        if "rename" in anns and "variadic" in anns:
            raise IdlError(anns["rename"][1], "a variadic instantiation is "
                           "already named by its declaration; drop 'rename'")
        if "variadic" in anns:
            c_name = anns["variadic"][0]
            self._check_name(c_name, anns["variadic"][1])
        if flags["function_pointer"] and "variadic" in anns:
            raise IdlError(anns["variadic"][1], "'variadic' and "
                           "'function_pointer' cannot be combined")
        if flags["macro"] and (flags["function_pointer"]
                               or "variadic" in anns):
            raise IdlError(anns["macro"][1] if "macro" in anns else pos,
                           "'macro' cannot be combined with '%s'"
                           % ("variadic" if "variadic" in anns
                              else "function_pointer"))
        if flags["macro"] and not self.m.has_includes:
            raise IdlError(anns["macro"][1] if "macro" in anns else pos,
                           "[macro] needs an #include that defines the macro")
        if not flags["function_pointer"] and "variadic" not in anns:
            self._declare(name, pos)
        else:
            self._check_name(name, pos)
        if reg_name in self.registry:
            raise IdlError(anns["rename"][1] if "rename" in anns else pos,
                           "function '%s' is already in the registry (at %s)"
                           % (reg_name, self.registry[reg_name]))
        if len(reg_name) > 255:
            raise IdlError(pos, "the registry name '%s...' is longer than "
                           "255 bytes" % reg_name[:20])
        self.registry[reg_name] = pos

        params = self._function_params(fnode, name)
        f = Function(pos, reg_name, c_name, ret, params)
        for k in _FLAGS:
            setattr(f, k, flags[k])
        if "variadic" in anns:
            f.variadic_of = c_name
        self._function_values(f, anns, name)
        if "variadic" in anns:
            self._instantiation(f, anns["variadic"][1])
        self._callbacks(f)
        self._slots(f)
        f.index = len(self.m.functions)
        self.m.functions.append(f)
        self.m.items.append(f)
        if f.errno:
            self.m.uses_errno = True
        if f.lasterror:
            self.m.uses_lasterror = True

    def _function_values(self, f, anns, name):
        """The return value's type and annotations, and every [length]
        of f (a C or packed function declared as name)."""
        self._check_value_type(f.ret, "the return value of '%s'" % name,
                               f.pos, allow_void=True)
        f.ret_info = self._value_info(anns, f.ret, "the return value")
        f.ret_anns = anns
        self._check_lengths(f, anns, f.ret_info, None)
        for p in f.params:
            self._check_lengths(f, p.anns, p.info, p)
            self._check_kept(f, p)

    def _check_kept(self, f, param):
        """[kept=OWNER]: the library keeps the pointer after the call, for
        as long as the pointer parameter OWNER lives."""
        if "kept" not in param.anns:
            return
        owner, pos = param.anns["kept"]
        if param.direction != "in" or param.type.kind != "pointer":
            raise IdlError(pos, "[kept] needs a data pointer or string "
                           "parameter, but '%s' is %s"
                           % (param.name, type_label(param.type)))
        target = [p for p in f.params if p.name == owner]
        if not target or target[0] is param:
            raise IdlError(pos, "[kept] names '%s', which is not another "
                           "parameter of '%s'" % (owner, f.name))
        if target[0].direction != "in" or target[0].type.kind != "pointer":
            raise IdlError(pos, "[kept] owner '%s' is not a pointer"
                           % owner)
        param.info.kept = owner

    def _check_return(self, ret, pos):
        r = ret.resolved()
        if isinstance(r, (FuncType, Array)):
            raise IdlError(pos, "a function cannot return %s"
                           % ("a function" if isinstance(r, FuncType)
                              else "an array"))

    def _declarator_prefix(self, base, fd, fnode):
        """The return type: base with every declarator level outside the
        function's own parameter list applied."""
        t = base
        node = fd
        while node is not fnode:
            if isinstance(node, S.DPointer):
                quals = set(q for q, _ in node.quals)
                t = Pointer(t).qualified(quals)
            elif isinstance(node, S.DArray):
                t = Array(t, node.size.text if node.size else None)
            elif isinstance(node, S.DFunction):
                self._note_return(t)
                t = self._func_type(t, node, "file")
            node = node.inner
        self._note_return(t)
        return t

    def _prototype(self, d, base, fd, name, pos):
        if d.annotations:
            raise IdlError(d.annotations[0].pos, "a variadic prototype takes "
                           "no annotations; annotate its instantiations")
        t, _, _ = self._declarator(base, fd, "file")
        self._declare(name, pos)
        proto = Prototype(pos, name, t)
        self.prototypes[name] = proto
        self.m.prototypes.append(proto)
        self.m.items.append(proto)

    def _instantiation(self, f, apos):
        proto = self.prototypes.get(f.c_name)
        if proto is None:
            if not self.m.has_includes:
                raise IdlError(apos, "variadic '%s' needs its prototype: "
                               "declare it (for example int %s(const char *, "
                               "...);) or #include its header"
                               % (f.c_name, f.c_name))
            return
        f.prototype = proto
        ft = proto.type
        if ft.ret.canon() != f.ret.canon():
            raise IdlError(f.pos, "the return type of '%s' does not match "
                           "'%s'" % (f.name, f.c_name))
        if len(f.params) < len(ft.params):
            raise IdlError(f.pos, "'%s' has fewer parameters than the %d "
                           "fixed ones of '%s'" % (f.name, len(ft.params),
                                                   f.c_name))
        for i, (p, (_, pt)) in enumerate(zip(f.params, ft.params)):
            if p.type.unqualified().canon() != pt.unqualified().canon():
                raise IdlError(p.pos, "parameter %d of '%s' does not match "
                               "'%s'" % (i + 1, f.name, f.c_name))

    def _function_params(self, fnode, fname):
        params = []
        for i, (p, t, name, pos) in enumerate(self._param_types(fnode)):
            anns = annotation_values(p.annotations, PARAM_ANNS,
                                      "a parameter")
            label = "'%s'" % name if name else "parameter %d" % (i + 1)
            direction, value_t = self._direction(anns, t, label, pos)
            if "owned" in anns and direction == "in":
                raise IdlError(anns["owned"][1], "[owned] applies to return "
                               "values and [out]/[inout] parameters")
            param = Param(pos, i, name, t, direction, None)
            param.anns = anns
            param.info = self._value_info(anns, value_t, "parameter %s"
                                          % label)
            if getattr(t, "array_size", None) and param.info.size is None \
                    and param.info.length is None and direction == "in":
                size = t.array_size
                param.info.size = int(size) if size.isdigit() else size
            self._use(value_t.resolved())
            params.append(param)
        return params

    def _direction(self, anns, t, label, pos):
        """(direction, value type) of a parameter from its in / out /
        inout annotation; the value of [out]/[inout] is the pointee."""
        dirs = [k for k in ("in", "out", "inout") if k in anns]
        if len(dirs) > 1:
            raise IdlError(anns[dirs[1]][1], "conflicting annotations "
                           "'%s' and '%s'" % (dirs[0], dirs[1]))
        direction = dirs[0] if dirs else "in"
        value_t = t
        if direction != "in":
            apos = anns[direction][1]
            r = t.resolved()
            if not isinstance(r, Pointer):
                raise IdlError(apos, "[%s] parameter %s is not a pointer"
                               % (direction, label))
            target = r.target.resolved()
            if target.is_const:
                raise IdlError(apos, "[%s] parameter %s points to const"
                               % (direction, label))
            if isinstance(target, Void):
                raise IdlError(apos, "[%s] parameter %s points to void"
                               % (direction, label))
            if isinstance(target, FuncType):
                raise IdlError(apos, "[%s] parameter %s points to a "
                               "function" % (direction, label))
            if isinstance(target, Array):
                raise IdlError(apos, "[%s] parameter %s points to an "
                               "array" % (direction, label))
            if target.kind == "opaque":
                raise IdlError(apos, "[%s] parameter %s points to an "
                               "opaque type" % (direction, label))
            value_t = r.target
        else:
            self._check_value_type(t, "parameter %s" % label, pos)
        return direction, value_t
    def _check_value_type(self, t, what, pos, allow_void=False):
        r = t.resolved()
        if isinstance(r, Void):
            if allow_void:
                return
            raise IdlError(pos, "%s has type void" % what)
        if r.kind == "opaque":
            raise IdlError(pos, "%s has opaque type %s; it cannot be passed "
                           "by value" % (what, type_label(t)))
        self._use(r)

    def _value_info(self, anns, t, what):
        """ValueInfo from the value annotations, checked against the value
        type t."""
        info = ValueInfo()
        r = t.resolved()
        is_ptr = isinstance(r, Pointer)

        def need_pointer(key):
            if not is_ptr:
                raise IdlError(anns[key][1], "[%s] needs a pointer, but %s "
                               "is %s" % (key, what, type_label(t)))

        for key in ("nullable", "nonnull"):
            if key in anns and anns[key][0]:
                need_pointer(key)
        if anns.get("nullable", (False,))[0] and \
                anns.get("nonnull", (False,))[0]:
            raise IdlError(anns["nonnull"][1], "conflicting annotations "
                           "'nullable' and 'nonnull'")
        if "nullable" in anns and anns["nullable"][0]:
            info.nullable = True
        elif "nonnull" in anns and anns["nonnull"][0]:
            info.nullable = False
        if "length" in anns and "size" in anns:
            raise IdlError(anns["size"][1], "conflicting annotations "
                           "'length' and 'size'")
        for key in ("length", "size", "zero_terminated", "owned"):
            if key in anns and anns[key][0] is not False:
                need_pointer(key)
        if "length" in anns:
            info.length = anns["length"][0]
        if "size" in anns:
            v = anns["size"][0]
            if isinstance(v, str) and not self.m.has_includes \
                    and v not in self.consts:
                raise IdlError(anns["size"][1], "unknown constant '%s'" % v)
            info.size = v
        if "zero_terminated" in anns:
            info.zero_terminated = anns["zero_terminated"][0]
        if "owned" in anns:
            info.owned = anns["owned"][0]
            info.owned_pos = anns["owned"][1]
        is_char_ptr = is_ptr and isinstance(r.target.resolved(), Scalar) \
            and r.target.resolved().name == "char"
        is_byte_ptr = is_ptr and is_byte(r.target)
        if anns.get("bytes", (False,))[0]:
            self._check_bytes(anns, info, is_byte_ptr, what, t)
        if "string" in anns:
            if anns["string"][0]:
                if not is_byte_ptr:
                    raise IdlError(anns["string"][1], "[string] needs a "
                                   "pointer to char, signed char or "
                                   "unsigned char, but %s is %s"
                                   % (what, type_label(t)))
                info.string = True
        elif is_char_ptr and r.target.is_const and info.length is None \
                and info.size is None and not info.zero_terminated \
                and not info.bytes:
            info.string = True   # const char * is a string by default
        return info

    def _check_bytes(self, anns, info, is_byte_ptr, what, t):
        """[bytes]: a buffer of bytes, as many as a [length] or a numeric
        [size] says; a host hands it as its byte type."""
        pos = anns["bytes"][1]
        if not is_byte_ptr:
            raise IdlError(pos, "[bytes] needs a pointer to char, signed "
                           "char or unsigned char, but %s is %s"
                           % (what, type_label(t)))
        for other in ("string", "zero_terminated"):
            if anns.get(other, (False,))[0]:
                raise IdlError(anns[other][1], "conflicting annotations "
                               "'bytes' and '%s'" % other)
        if info.length is None and not isinstance(info.size, int):
            raise IdlError(pos, "[bytes] needs a count: [length=NAME] or "
                           "[size=N]")
        info.bytes = True

    def _check_lengths(self, f, anns, info, param):
        if info.length is None:
            return
        pos = anns["length"][1]
        target = None
        for p in f.params:
            if p.name == info.length:
                target = p
        if target is None or target is param:
            raise IdlError(pos, "[length] names '%s', which is not another "
                           "parameter of '%s'" % (info.length, f.name))
        t = target.type if target.direction == "in" else target.pointee
        if not is_integer(t):
            raise IdlError(pos, "[length] parameter '%s' is not an integer"
                           % info.length)
    def _resolve_owned(self):
        names = {}
        for f in self.m.functions:
            if f.packed is not None:
                continue   # a destructor is a C function
            names.setdefault(f.name, f)
            if not f.function_pointer:
                names.setdefault(f.c_name, f)
        for f in self.m.functions:
            for info in [f.ret_info] + [p.info for p in f.params]:
                if info.owned is None:
                    continue
                d = self._named_function(names, info.owned, info.owned_pos,
                                         "owned")
                if len(d.in_slots) != 1 or d.in_slots[0].code != POINTER_CODE:
                    raise IdlError(info.owned_pos, "destructor '%s' must take "
                                   "exactly one pointer" % info.owned)
                info.owned = d.name

    def _named_function(self, table, name, pos, annotation):
        """The function that [annotation=name] names, from table (name ->
        Function)."""
        f = table.get(name)
        if f is None:
            raise IdlError(pos, "[%s] names '%s', which is not a function of "
                           "module '%s'" % (annotation, name, self.m.name))
        return f
