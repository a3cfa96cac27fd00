"""The C emitter's callbacks: backward wrappers and thunk pools."""

from stubgen.ctype import SCALARS, FuncType, Void
from stubgen.emit_c.convert import (c_string, from_c,
                                    lasterror_needs_windows, section,
                                    signature_literal, to_c)


class CallbacksPart:
    def plan_callbacks(self):
        """Names of the static bodies of trace/fault wrappers and of the
        callback helpers, none of them a wrapper's or a record helper's:
        body_names[f]; cb_names[cb] = {"back": [name per member],
        "thunk", "body", "fns", "pool", "ptr", "accessor", "type"} (a base name
        gets a trailing _ until every derived name is free)."""
        taken = self.taken
        for f in self.m.functions:
            taken.add(f.name + "_body")
        self.body_names = {}
        for f in self.m.functions:
            if f.shims and f.packed is None:
                base = f.name + "_body"
                while base in (g.name for g in self.m.functions):
                    base += "_"
                taken.add(base)
                self.body_names[f] = self.p + base
        self.cb_names = {}
        self.callbacks = self.low.used_callbacks
        for cb in self.callbacks:
            base = cb.name
            while True:
                names = self._cb_derived(cb, base)
                if not any(n in taken for n in names.values()
                           if isinstance(n, str)) and \
                        not any(n in taken for n in names["back"]):
                    break
                base += "_"
            for n in names.values():
                if isinstance(n, str):
                    taken.add(n)
            taken.update(names["back"])
            self.cb_names[cb] = {k: (self.p + v if isinstance(v, str)
                                     else [self.p + b for b in v])
                                 for k, v in names.items()}

    @staticmethod
    def _cb_derived(cb, base):
        members = sorted(cb.members) if cb.context is not None else []
        return {
            "back": [base + ("_back" if k == 0 else "_back%d" % k)
                     for k in members],
            "thunk": base + "_thunk_", "body": base + "_thunk_body",
            "fns": base + "_thunk_fns", "pool": base + "_pool",
            "slots": base + "_pool_slots", "ptr": base + "_t",
            "accessor": base + "_thunk_pool", "type": base + "_type",
        }

    # -- callbacks: backward wrappers and thunk pools
    def callback_helpers(self, src):
        if not self.callbacks:
            return
        section(src, "callbacks: C calls the host through the closure of its "
                "context; in[0] =", "env, in[1..] = the arguments, out[] = "
                "return value, [out]/[inout] values,",
                "errno, lasterror (docs/CALLBACKS.md)")
        for cb in self.callbacks:
            src.blank()
            lasterror_needs_windows(src, cb, self.idl,
                                    "callback type %s" % cb.name)
            # [windows]: only [windows] functions take it
            if cb.windows:
                src.line("#ifdef _WIN32")
            self.callback_type(src, cb)
            if cb.context is not None:
                for k, name in zip(sorted(cb.members),
                                   self.cb_names[cb]["back"]):
                    src.blank()
                    self.backward_wrapper(src, cb, k, name)
            else:
                src.blank()
                self.thunk_pool(src, cb)
            if cb.windows:
                src.line("#endif")

    def callback_type(self, src, cb):
        """The nccc_callback_type whose closures its wrappers call: the
        type of its signature, computed by the lowering (one per target
        where the signature differs by target: NCCC_CB_BY_TARGET)."""
        types = ["0x%08xu" % t for t in self.low.callback(cb).types]
        hash_ = types[0] if len(types) == 1 else \
            "NCCC_CB_BY_TARGET(%s)" % ", ".join(types)
        src.line("static const nccc_callback_type %s = {%s, %s, %s};" % (
            self.cb_names[cb]["type"], hash_, c_string(cb.name),
            signature_literal(cb.sig_in, cb.sig_out)))

    @staticmethod
    def _cb_param_names(cb, avoid=()):
        """C names for the callback's parameters in its backward wrapper:
        the IDL's, or aN when unnamed or taken by a local."""
        locals_ = {"f", "in", "out"} | set(avoid)
        names = []
        for i, p in enumerate(cb.params):
            n = p.name
            if n is None or n in locals_ or n in names:
                n = "a%d" % i
                while n in locals_ or n in names or \
                        n in (q.name for q in cb.params):
                    n += "_"
            names.append(n)
        return names

    def _cb_comment(self, cb, what):
        ins = " ".join(sl.name or "?" for sl in cb.in_slots) or "-"
        outs = " ".join(sl.name or "?" for sl in cb.out_slots) or "-"
        return "/* %s%s: in %s; out %s */" % (cb.name, what, ins, outs)

    def _cb_body(self, src, cb, names, begin, run):
        """The body shared by backward wrappers and thunk bodies. begin:
        the nccc_cb_begin call; run: the nccc_cb_run call, used instead
        when the return value is the only result (nothing to store only
        when the call was made)."""
        n_in = 1 + len(cb.in_slots)
        n_out = max(1, len(cb.out_slots))

        def pack():
            for sl in cb.in_slots:
                n = names[sl.param.index]
                if sl.role == "inout":
                    src.line("in[%d] = %s != NULL ? %s : 0;" % (
                        sl.index.fixed, n, from_c(sl.type, "*" + n)))
                else:
                    src.line("in[%d] = %s;" % (sl.index.fixed,
                                              from_c(sl.type, n)))

        if all(sl.role == "return" for sl in cb.out_slots):
            src.line("uint64_t in[%d], out[%d] = {0};" % (n_in, n_out))
            pack()
            src.line("%s;" % run)
            if not isinstance(cb.ret.resolved(), Void):
                src.line("return %s;" % to_c(cb.ret, "out[0]"))
            return
        src.line("nccc_cb_frame f;")
        src.line("uint64_t in[%d], out[%d] = {0};" % (n_in, n_out))
        with src.block("if (%s) {" % begin, "}"):
            pack()
            src.line("nccc_cb_call(&f, in, out);")
            for sl in cb.out_slots:
                if sl.role == "errno":
                    src.line("NCCC_CB_SET_ERRNO(out[%d]);" % sl.index.fixed)
                elif sl.role == "lasterror":
                    src.line("NCCC_CB_SET_LASTERROR(out[%d]);"
                             % sl.index.fixed)
                elif sl.role in ("out", "inout"):
                    n = names[sl.param.index]
                    src.line("if (%s != NULL) *%s = %s;" % (
                        n, n, to_c(sl.type, "out[%d]" % sl.index.fixed)))
        if not isinstance(cb.ret.resolved(), Void):
            src.line("return %s;" % to_c(cb.ret, "out[0]"))

    def backward_wrapper(self, src, cb, member, name):
        names = self._cb_param_names(cb)
        ft = FuncType(cb.ret, [(n, p.type) for n, p in zip(names,
                                                            cb.params)],
                      False)
        what = " (member %d of its context)" % member if member else ""
        src.line(self._cb_comment(cb, what))
        ctx = names[cb.context.index]
        if cb.context_from is not None:
            ctx = "(void *)%s(%s)" % (cb.context_from, ctx)
        elif cb.context.type.unqualified().spell() != "void *":
            ctx = "(void *)" + ctx
        with src.block("static %s {" % ft.spell(name), "}"):
            t = self.cb_names[cb]["type"]
            self._cb_body(src, cb, names, "nccc_cb_begin(&f, %s, %d, &%s)"
                          % (ctx, member, t), "nccc_cb_run(%s, %d, in, out, "
                          "&%s)" % (ctx, member, t))

    def thunk_pool(self, src, cb):
        n = self.cb_names[cb]
        idx = "i"
        while idx in (q.name for q in cb.params):
            idx += "_"
        names = self._cb_param_names(cb, avoid=(idx,))
        params = [(nm, p.type) for nm, p in zip(names, cb.params)]
        ft = FuncType(cb.ret, params, False)
        body_ft = FuncType(cb.ret, [(idx, SCALARS["unsigned int"])] + params,
                           False)
        ret = "" if isinstance(cb.ret.resolved(), Void) else "return "
        src.line(self._cb_comment(cb, " [thunks=%d]" % cb.thunks))
        src.line("typedef %s;" % FuncType(cb.ret, [(None, p.type) for p in
                                                   cb.params], False)
                 .spell("(*%s)" % n["ptr"]))
        src.line("static %s;" % body_ft.spell(n["body"]))
        for i in range(cb.thunks):
            call = "%s(%s)" % (n["body"], ", ".join([str(i)] + names))
            src.line("static %s { %s%s; }" % (ft.spell("%s%d" % (n["thunk"],
                                                                 i)),
                                               ret, call))
        with src.block("static const nccc_thunk_fn %s[%d] = {"
                       % (n["fns"], cb.thunks), "};"):
            for i in range(cb.thunks):
                src.line("(nccc_thunk_fn)%s%d," % (n["thunk"], i))
        src.line("NCCC_THUNK_POOL(%s, &%s, %d, %s);" % (
            n["pool"], n["type"], cb.thunks, n["fns"]))
        with src.block("static %s {" % body_ft.spell(n["body"]), "}"):
            self._cb_body(src, cb, names, "nccc_cb_begin_thunk(&f, &%s, %s)"
                          % (n["pool"], idx), "nccc_cb_run_thunk(&%s, %s, "
                          "in, out)" % (n["pool"], idx))
        with src.block("const struct nccc_thunk_pool *%s(void) {"
                       % n["accessor"], "}"):
            src.line("return &%s;" % n["pool"])
