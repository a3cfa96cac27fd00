"""The C emitter's forward wrappers, plain, packed and with call-site shims."""

from stubgen.ctype import Void
from stubgen.emit_c.convert import (c_string, from_c,
                                    lasterror_needs_windows, section,
                                    signature_literal, slot_index, slot_ptr,
                                    to_c)

# The out slots read right after the call, by role: what they hold.
ERROR_SLOTS = {"errno": "NCCC_ERRNO_SLOT()",
               "lasterror": "NCCC_LASTERROR_SLOT()"}


def nonnull_checks(lf, name, v_in, v_out, status=False, end_calls=False):
    """One NCCC_NONNULL_REQUIRE per value the LoweredFunction lf refuses
    when NULL (lf.nonnull_values; closure slots have their own check,
    NCCC_CB_REQUIRE, as does a function_pointer target), its message
    naming the function by its registry name, 'module.function': the _STATUS
    form when out[0] is a status, the _END form when the wrapper itself
    releases CALL-scoped closures (a refused call releases them too)."""
    macro, end = "NCCC_NONNULL_REQUIRE", ""
    if status:
        macro += "_STATUS"
    elif end_calls and lf.closures:
        macro += "_END"
        end = ", " + release_calls(lf, v_in)
    return ["%s(%s[%s], %s, %s, %s, %s%s);" % (
        macro, v_in, slot_index(s.index), c_string(name),
        c_string(s.name or "argument %d" % (s.param.index + 1)), v_out,
        slot_index(lf.function.n_out), end) for s in lf.nonnull_values]


def release_calls(lf, v_in):
    """What a wrapper that releases CALL-scoped closures itself runs when
    it refuses a call: NCCC_CB_END_CALL of every closure slot of the
    LoweredFunction lf (docs/CALLBACKS.md, "Refused calls")."""
    ends = ["NCCC_CB_END_CALL(nccc_slot_to_ptr(%s[%s]))"
            % (v_in, slot_index(c.slot.index)) for c in lf.closures]
    return ends[0] if len(ends) == 1 else "(%s)" % ", ".join(ends)


class WrappersPart:
    def wrappers(self, src):
        if not self.m.functions:
            return
        section(src, "wrappers: in[] = arguments, out[] = return value, "
                "[out]/[inout]", 'values, errno, lasterror (docs/IDL.md, "Slot '
                'layout")')
        for lf in self.low.functions:
            src.blank()
            self.wrapper(src, lf)

    def registry_name(self, f):
        """The name a wrapper's errors give its function: 'module.function',
        as the registry and every host's messages name it."""
        return "%s.%s" % (self.m.name, f.name)

    def local(self, name):
        """A local name of the wrappers that no IDL identifier shadows."""
        while name in self.m.identifiers:
            name += "_"
        return name

    def packed_wrapper(self, src, lf):
        f = lf.function
        v_in, v_out = self.local("in"), self.local("out")
        ins = " ".join(s.name or "?" for s in f.in_slots) or "-"
        outs = " ".join(s.name or "?" for s in f.out_slots)
        src.line("/* %s: packed, %s; in %s; out %s */"
                 % (f.name, f.packed.where.replace("_", " "), ins, outs))
        head = "void %s%s(const uint64_t *%s, uint64_t *%s) {" % (
            self.p, f.name, v_in, v_out)
        where = "NCCC_PACKED_" + f.packed.where.upper()
        sig = signature_literal(f.packed.codes,
                                [f.packed.ret] if f.packed.ret else [])
        with src.block(head, "}"):
            for line in nonnull_checks(lf, self.registry_name(f), v_in, v_out,
                                       status=True):
                src.line(line)
            src.line("nccc_packed_forward(%s, %s, %s, %s, %s);"
                     % (c_string(f.packed.name), where, sig, v_in, v_out))

    def wrapper(self, src, lf):
        f = lf.function
        if f.packed is not None:
            return self.packed_wrapper(src, lf)
        lasterror_needs_windows(src, f, self.idl, f.name)
        if not f.windows:
            return self.native_wrapper(src, lf)
        # [windows]: the C function exists on Windows only; elsewhere the
        # wrapper refuses every call
        src.line("#ifdef _WIN32")
        self.native_wrapper(src, lf)
        src.line("#else")
        v_in, v_out = self.local("in"), self.local("out")
        head = "void %s%s(const uint64_t *%s, uint64_t *%s) {" % (
            self.p, f.name, v_in, v_out)
        with src.block(head, "}"):
            src.line("NCCC_WINDOWS_ONLY(%s, %s, %s, %s);" % (
                c_string(self.registry_name(f)), v_in, v_out,
                slot_index(f.n_out)))
        src.line("#endif")

    def native_wrapper(self, src, lf):
        """The wrapper that calls the C function (with call-site shims
        around its body when it has them)."""
        f = lf.function
        p = self.p
        v_in, v_out = self.local("in"), self.local("out")
        if not f.shims:
            self.wrapper_body(src, lf, "void %s%s" % (p, f.name), True)
            return
        # the call-site shims: a static body, then the public wrapper
        body = self.body_names[f]
        self.wrapper_body(src, lf, "static void " + body, False)
        flags = ["NCCC_SITE_" + k.upper() for k in ("trace", "fault")
                 if getattr(f, k)]
        if f.errno or f.lasterror:
            flags.append("NCCC_SITE_ERRNO")
        head = "void %s%s(const uint64_t *%s, uint64_t *%s) {" % (
            p, f.name, v_in, v_out)
        with src.block(head, "}"):
            src.line("NCCC_SITE_WRAP(&%smodule, %d, %s, %s, %s, %s, %s);" % (
                p, f.index, " | ".join(flags), body, v_in, v_out,
                slot_index(f.n_out)))
            for c in lf.closures:
                src.line("NCCC_CB_END_CALL(nccc_slot_to_ptr(%s[%s]));"
                         % (v_in, slot_index(c.slot.index)))

    def _slot_label(self, sl):
        if sl.role == "closure" and sl.param.carries:
            return "%s(%s)" % (sl.name or "?", ",".join(
                c.name or "?" for c in sl.callbacks))
        if sl.role == "closure" and sl.param.closures is not None:
            return "%s(%s)" % (sl.name or "?", sl.param.closures.name)
        return sl.name or "?"

    def wrapper_body(self, src, lf, head_start, end_calls):
        """The wrapper without call-site shims, as head_start(in, out);
        end_calls: it releases CALL-scoped closures itself."""
        f = lf.function
        ins = " ".join(self._slot_label(s) for s in f.in_slots) or "-"
        outs = " ".join(s.name or "?" for s in f.out_slots) or "-"
        shims = "; shims %s" % " ".join(f.shims) if f.shims else ""
        src.line("/* %s: in %s; out %s%s */" % (f.name, ins, outs, shims))
        w = _Body(self.local("in"), self.local("out"), self.local("r"),
                  slot_index(f.n_out))
        callee = self._callee(src, f, w)
        self._closure_contexts(lf, w, end_calls)
        # arguments of a variadic call need their exact types
        cast = f.variadic_of is not None
        args = [self._argument(lf, prm, w, cast) for prm in f.params]
        call = "%s(%s)" % (callee, ", ".join(args))
        returns = not isinstance(f.ret.resolved(), Void)
        head = "%s(const uint64_t *%s, uint64_t *%s) {" % (
            head_start, w.v_in, w.v_out)
        with src.block(head, "}"):
            self._refusals(src, lf, w, end_calls)
            simple = not w.decls and not f.errno and not f.lasterror \
                and len(f.out_slots) <= 1 \
                and (not returns or f.out_slots[0].record is None)
            if simple:
                if returns:
                    src.line("%s[0] = %s;" % (w.v_out, from_c(f.ret, call)))
                else:
                    src.line("%s;" % call)
                return
            if returns:
                src.line("%s;" % f.ret.unqualified().spell(w.v_r))
            for line in w.decls + w.pre:
                src.line(line)
            if f.errno:
                src.line("NCCC_ERRNO_CLEAR();")
            if f.lasterror:
                src.line("NCCC_LASTERROR_CLEAR();")
            src.line(("%s = %s;" % (w.v_r, call)) if returns
                     else "%s;" % call)
            self._results(src, lf, w)
            if end_calls:
                for c in lf.closures:
                    src.line("NCCC_CB_END_CALL(%s);"
                             % w.ctx_var[c.slot.param])

    def _callee(self, src, f, w):
        """What the wrapper calls: the C function, or for function_pointer
        the target in in[0] (its type printed first)."""
        if not f.function_pointer:
            return f.c_name
        fn_t = "%s%s_fn" % (self.p, f.name)
        src.line("typedef %s;" % f.c_type.spell("(*%s)" % fn_t))
        return "NCCC_FP_TARGET(%s, %s[0])" % (fn_t, w.v_in)

    def _closure_contexts(self, lf, w, end_calls):
        """Each closure slot's context, refused before C sees it when
        stale; a callback type without a context binds a thunk of its
        pool instead. With end_calls, a refusal releases the CALL-scoped
        closures (a stale slot itself has nothing to release; a thunk's
        has)."""
        end = ", " + release_calls(lf, w.v_in) if end_calls and lf.closures \
            else ""
        for c in lf.closures:
            sl = c.slot
            var = self.local("c%d" % sl.param.index)
            w.ctx_var[sl.param] = var
            w.decls.append("void *%s = nccc_slot_to_ptr(%s[%s]);"
                           % (var, w.v_in, slot_index(sl.index)))
            nullable = c.nullable
            if c.pool is None:
                others = end if len(lf.closures) > 1 else ""
                w.pre.append("NCCC_CB_REQUIRE%s%s(%s, %s, %s%s);" % (
                    "_OR_NULL" if nullable else "", "_END" if others else "",
                    var, w.v_out, w.n_out, others))
                continue
            names = self.cb_names[c.pool]
            fvar = self.local("t%d" % sl.param.index)
            w.decls.append("%s %s%s;" % (names["ptr"], fvar,
                                         " = NULL" if nullable else ""))
            bind = "NCCC_CB_THUNK%s(&%s, %s, 0, %s, %s, %s, %s%s);" % (
                "_END" if end else "", names["pool"], var, names["ptr"],
                fvar, w.v_out, w.n_out, end)
            w.pre.append(("if (%s != NULL) " % var if nullable else "")
                         + bind)

    def _argument(self, lf, prm, w, cast):
        """The C argument of parameter prm."""
        if prm.callback is not None:
            return self._callback_argument(lf, prm, w)
        if prm.carries or prm.closures is not None:
            var = w.ctx_var[prm]
            if prm.type.unqualified().spell() != "void *":
                var = "(%s)%s" % (prm.type.unqualified().spell(), var)
            return var
        if prm.destroys is not None:
            d = "NCCC_CB_DESTROY"
            if lf.closure(prm.destroys).nullable:
                d = "NCCC_CB_FN(%s, %s)" % (w.ctx_var[prm.destroys], d)
            return d
        if prm.direction == "in":
            return self._in_argument(prm, w, cast)
        return self._out_argument(prm, w)

    def _callback_argument(self, lf, prm, w):
        """A callback parameter: its thunk, or the backward wrapper of its
        member (NULL with a NULL context where that may be NULL)."""
        cb = prm.callback
        if cb.context is None:
            return self.local("t%d" % prm.index)
        names = self.cb_names[cb]
        back = names["back"][sorted(cb.members).index(prm.member)]
        # a member of a closure set has a slot of its own: the group whose
        # member it is (C gets the context elsewhere)
        holder = prm if prm.closures is not None else prm.context
        if lf.closure(holder).nullable:
            back = "NCCC_CB_FN(%s, %s)" % (w.ctx_var[holder], back)
        return back

    def _in_argument(self, prm, w, cast):
        """An in value from its slot; a record by value from its bytes."""
        s = prm.in_slot
        if s.record is None:
            return to_c(prm.type, "%s[%s]" % (w.v_in, slot_index(s.index)),
                        cast)
        var = self.local("a%d" % prm.index)
        w.decls.append("%s;" % prm.type.unqualified().spell(var))
        w.pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                     % (var, slot_ptr(w.v_in, s.index), var))
        return var

    def _out_argument(self, prm, w):
        """An [out] or [inout] pointer: the address of a local the
        results are read from."""
        var = self.local("o%d" % prm.index)
        local_t = prm.pointee.unqualified()
        if prm.direction == "inout" and prm.in_slot.record is None:
            slot = "%s[%s]" % (w.v_in, slot_index(prm.in_slot.index))
            w.decls.append("%s = %s;" % (local_t.spell(var),
                                         to_c(local_t, slot)))
            return "&" + var
        w.decls.append("%s;" % local_t.spell(var))
        if prm.direction == "out":
            # a target may leave an [out] unwritten (strtol with a bad
            # base): its slot must still be defined
            w.pre.append("memset(&%s, 0, sizeof %s);" % (var, var))
        else:
            w.pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                         % (var, slot_ptr(w.v_in, prm.in_slot.index), var))
        return "&" + var

    def _refusals(self, src, lf, w, end_calls):
        """What the body checks before anything else: unused buffers
        marked, a function_pointer target, [nonnull] values."""
        f = lf.function
        if not f.in_slots:
            src.line("(void)%s;" % w.v_in)
        if not f.out_slots and not lf.closures:
            src.line("(void)%s;" % w.v_out)
        if f.function_pointer:
            src.line("NCCC_FP_REQUIRE(%s[0], %s, %s);"
                     % (w.v_in, w.v_out, w.n_out))
        # [nonnull]: refused before anything else (one compare each)
        for line in nonnull_checks(lf, self.registry_name(lf.function),
                                   w.v_in, w.v_out, end_calls=end_calls):
            src.line(line)

    def _results(self, src, lf, w):
        """errno and the last error first (before anything can change
        them), then the return value and each [out]/[inout] into out[]."""
        f = lf.function
        for s in f.out_slots:
            if s.role in ERROR_SLOTS:
                src.line("%s[%s] = %s;" % (w.v_out, slot_index(s.index),
                                           ERROR_SLOTS[s.role]))
        for s in f.out_slots:
            if s.role in ERROR_SLOTS:
                continue
            var = w.v_r if s.role == "return" else \
                self.local("o%d" % s.param.index)
            if s.record is not None:
                src.line("%s(%s, &%s);" % (
                    self.put_names[s.record.resolved().decl],
                    slot_ptr(w.v_out, s.index), var))
            else:
                src.line("%s[%s] = %s;" % (w.v_out, slot_index(s.index),
                                           from_c(s.type, var)))


class _Body:
    """What one wrapper body is made of while it is printed: the local
    names of in, out and the result, out's slot count, each closure
    slot's context variable, the declarations and the statements that
    run before the call."""

    def __init__(self, v_in, v_out, v_r, n_out):
        self.v_in, self.v_out, self.v_r, self.n_out = v_in, v_out, v_r, n_out
        self.ctx_var = {}
        self.decls, self.pre = [], []
