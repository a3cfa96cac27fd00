"""The C emitter's forward wrappers, plain, packed and with call-site shims."""

from stubgen.ctype import Void
from stubgen.emit_c.convert import (c_string, from_c, section,
                                    signature_literal, slot_index, slot_ptr,
                                    to_c)


def nonnull_checks(lf, v_in, v_out, status=False, end_calls=False):
    """One NCCC_NONNULL_REQUIRE per value the LoweredFunction lf refuses
    when NULL (lf.nonnull_values; closure slots have their own check,
    NCCC_CB_REQUIRE, as does a function_pointer target): the _STATUS
    form when out[0] is a status, the _END form when the wrapper itself
    releases CALL-scoped closures (a refused call releases them too)."""
    f = lf.function
    macro, end = "NCCC_NONNULL_REQUIRE", ""
    if status:
        macro += "_STATUS"
    elif end_calls and lf.closures:
        macro += "_END"
        end = ", " + release_calls(lf, v_in)
    return ["%s(%s[%s], %s, %s, %s, %s%s);" % (
        macro, v_in, slot_index(s.index), c_string(f.name),
        c_string(s.name or "argument %d" % (s.param.index + 1)), v_out,
        slot_index(f.n_out), end) for s in lf.nonnull_values]


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
                "[out]/[inout]", 'values, errno (docs/IDL.md, "Slot layout")')
        for lf in self.low.functions:
            src.blank()
            self.wrapper(src, lf)

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
            for line in nonnull_checks(lf, v_in, v_out, status=True):
                src.line(line)
            src.line("nccc_packed_forward(%s, %s, %s, %s, %s);"
                     % (c_string(f.packed.name), where, sig, v_in, v_out))

    def wrapper(self, src, lf):
        f = lf.function
        if f.packed is not None:
            return self.packed_wrapper(src, lf)
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
        if f.errno:
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
        p = self.p
        v_in, v_out, v_r = self.local("in"), self.local("out"), \
            self.local("r")
        ins = " ".join(self._slot_label(s) for s in f.in_slots) or "-"
        outs = " ".join(s.name or "?" for s in f.out_slots) or "-"
        shims = "; shims %s" % " ".join(f.shims) if f.shims else ""
        src.line("/* %s: in %s; out %s%s */" % (f.name, ins, outs, shims))
        callee = f.c_name
        if f.function_pointer:
            fn_t = "%s%s_fn" % (p, f.name)
            src.line("typedef %s;" % f.c_type.spell("(*%s)" % fn_t))
            callee = "NCCC_FP_TARGET(%s, %s[0])" % (fn_t, v_in)
        decls, pre, args = [], [], []
        n_out = slot_index(f.n_out)
        # closure contexts: refused before C sees them when stale
        ctx_var = {}
        # a refusal releases the CALL-scoped closures where the wrapper
        # does (a stale slot itself has nothing to release; a thunk's has)
        end = ", " + release_calls(lf, v_in) if end_calls and lf.closures \
            else ""
        for c in lf.closures:
            sl = c.slot
            var = self.local("c%d" % sl.param.index)
            ctx_var[sl.param] = var
            decls.append("void *%s = nccc_slot_to_ptr(%s[%s]);"
                         % (var, v_in, slot_index(sl.index)))
            nullable = c.nullable
            if c.pool is None:
                others = end if len(lf.closures) > 1 else ""
                pre.append("NCCC_CB_REQUIRE%s%s(%s, %s, %s%s);" % (
                    "_OR_NULL" if nullable else "", "_END" if others else "",
                    var, v_out, n_out, others))
            else:
                names = self.cb_names[c.pool]
                fvar = self.local("t%d" % sl.param.index)
                decls.append("%s %s%s;" % (names["ptr"], fvar,
                                           " = NULL" if nullable else ""))
                bind = "NCCC_CB_THUNK%s(&%s, %s, 0, %s, %s, %s, %s%s);" % (
                    "_END" if end else "", names["pool"], var, names["ptr"],
                    fvar, v_out, n_out, end)
                pre.append(("if (%s != NULL) " % var if nullable else "")
                           + bind)
        # arguments of a variadic call need their exact types
        cast = f.variadic_of is not None
        for prm in f.params:
            if prm.callback is not None:
                cb = prm.callback
                if cb.context is None:
                    args.append(self.local("t%d" % prm.index))
                    continue
                names = self.cb_names[cb]
                back = names["back"][sorted(cb.members).index(prm.member)]
                # a member of a closure set has a slot of its own: the
                # group whose member it is (C gets the context elsewhere)
                holder = prm if prm.closures is not None else prm.context
                if lf.closure(holder).nullable:
                    back = "NCCC_CB_FN(%s, %s)" % (ctx_var[holder], back)
                args.append(back)
                continue
            if prm.carries or prm.closures is not None:
                var = ctx_var[prm]
                if prm.type.unqualified().spell() != "void *":
                    var = "(%s)%s" % (prm.type.unqualified().spell(), var)
                args.append(var)
                continue
            if prm.destroys is not None:
                d = "NCCC_CB_DESTROY"
                if lf.closure(prm.destroys).nullable:
                    d = "NCCC_CB_FN(%s, %s)" % (ctx_var[prm.destroys], d)
                args.append(d)
                continue
            if prm.direction == "in":
                s = prm.in_slot
                if s.record is not None:
                    var = self.local("a%d" % prm.index)
                    decls.append("%s;" % prm.type.unqualified().spell(var))
                    pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                               % (var, slot_ptr(v_in, s.index), var))
                    args.append(var)
                else:
                    args.append(to_c(prm.type, "%s[%s]" % (
                        v_in, slot_index(s.index)), cast))
                continue
            var = self.local("o%d" % prm.index)
            local_t = prm.pointee.unqualified()
            if prm.direction == "inout" and prm.in_slot.record is None:
                slot = "%s[%s]" % (v_in, slot_index(prm.in_slot.index))
                decls.append("%s = %s;" % (local_t.spell(var),
                                           to_c(local_t, slot)))
            else:
                decls.append("%s;" % local_t.spell(var))
                if prm.direction == "out":
                    # a target may leave an [out] unwritten (strtol with a
                    # bad base): its slot must still be defined
                    pre.append("memset(&%s, 0, sizeof %s);" % (var, var))
                if prm.direction == "inout":
                    pre.append("nccc_slots_to_bytes(&%s, %s, sizeof %s);"
                               % (var, slot_ptr(v_in, prm.in_slot.index), var))
            args.append("&" + var)
        call = "%s(%s)" % (callee, ", ".join(args))
        returns = not isinstance(f.ret.resolved(), Void)
        head = "%s(const uint64_t *%s, uint64_t *%s) {" % (
            head_start, v_in, v_out)
        with src.block(head, "}"):
            if not f.in_slots:
                src.line("(void)%s;" % v_in)
            if not f.out_slots and not lf.closures:
                src.line("(void)%s;" % v_out)
            if f.function_pointer:
                src.line("NCCC_FP_REQUIRE(%s[0], %s, %s);"
                         % (v_in, v_out, n_out))
            # [nonnull]: refused before anything else (one compare each)
            for line in nonnull_checks(lf, v_in, v_out,
                                       end_calls=end_calls):
                src.line(line)
            simple = not decls and not f.errno and len(f.out_slots) <= 1 \
                and (not returns or f.out_slots[0].record is None)
            if simple:
                if returns:
                    src.line("%s[0] = %s;" % (v_out, from_c(f.ret, call)))
                else:
                    src.line("%s;" % call)
                return
            if returns:
                src.line("%s;" % f.ret.unqualified().spell(v_r))
            for d in decls:
                src.line(d)
            for s in pre:
                src.line(s)
            if f.errno:
                src.line("NCCC_ERRNO_CLEAR();")
            src.line(("%s = %s;" % (v_r, call)) if returns else "%s;" % call)
            for s in f.out_slots:
                if s.role == "errno":
                    src.line("%s[%s] = NCCC_ERRNO_SLOT();"
                             % (v_out, slot_index(s.index)))
            for s in f.out_slots:
                if s.role == "errno":
                    continue
                var = v_r if s.role == "return" else \
                    self.local("o%d" % s.param.index)
                if s.record is not None:
                    src.line("%s(%s, &%s);" % (
                        self.put_names[s.record.resolved().decl],
                        slot_ptr(v_out, s.index), var))
                else:
                    src.line("%s[%s] = %s;" % (v_out, slot_index(s.index),
                                               from_c(s.type, var)))
            if end_calls:
                for c in lf.closures:
                    src.line("NCCC_CB_END_CALL(%s);" % ctx_var[c.slot.param])
