"""The steps of the case table that Rust states through the registry
(nccc::dynamic): calls by name or handle, calls whose arguments no value
of a generated method's types holds, closures used as values (and which
closures of a case are such values), packed calls, memory, the
registry's own facts, repetition."""

from case_common import KINDS, MODULES, Unsupported, _int, _lit


class RegistrySteps:
    def refuse_foreign_closures(self, name, args):
        """A closure of another callback type than the parameter's is a
        compile error for the generated method, refused by the module's
        call_dynamic; by name through the registry C would refuse it only
        when called: not stated."""
        from stubgen.model.lower import lower
        mod, fn = name.split(".", 1)
        if mod not in MODULES:
            return
        low = lower(MODULES[mod])
        lf = next((f for f in low.functions if f.name == fn), None)
        if lf is None:
            return
        by_position = {lf.position(c.slot): c for c in lf.closures}
        for k, a in enumerate(args):
            cid = a.get("closure") if isinstance(a, dict) else None
            if cid is None or cid in self.groups or k + 1 not in by_position:
                continue
            want = low.callback(by_position[k + 1].params[0].callback).signatures[0]
            if self.made_for(self.callbacks.get(cid, {})) != want:
                raise Unsupported("a closure of another callback type (a compile error)")

    def made_for(self, step):
        """The signature a case's closure is made for (None: a procedure's,
        whichever its parameter has)."""
        if "signature" in step:
            return step["signature"]
        if "type" not in step:
            return None
        from stubgen.model.lower import lower
        m, t = step["type"].split(".")
        if m not in MODULES:
            raise Unsupported("a callback type of another module")
        return next(c for c in lower(MODULES[m]).callbacks if c.name == t).signatures[0]

    def dynamic_call(self, st):
        name = st["call"]
        mod = name.split(".", 1)[0]
        # a generated module's call_dynamic checks the closures' types
        checked = mod in MODULES and not st.get("registry") and not st.get("handle")
        if not checked:
            self.refuse_foreign_closures(name, st.get("args", []))
        args = [self.procedure_arg(name, k, a) if isinstance(a, dict) and "procedure" in a
                else self.dyn_arg(a) for k, a in enumerate(st.get("args", []))]
        r = self.var("r")
        if st.get("handle"):
            self.lines.append("let %s = rt.lookup(%s).and_then(|h| rt.call_handle(h, %s, &[%s]));"
                              % (r, _lit(name), _lit(name), ", ".join(args)))
        else:
            self.lines.append("let %s = %s.call_dynamic(%s, &[%s]);" % (
                r, "%s_m" % mod if checked else "rt", _lit(name), ", ".join(args)))
        if "error" in st:
            self.expect_error(r, st)
            return
        self.lines.append("let %s = %s.expect(\"results\");" % (r, r))
        expect = st.get("expect", [])
        self.lines.append("assert_eq!(%s.len(), %d);" % (r, len(expect)))
        for k, want in enumerate(expect):
            got = "%s[%d]" % (r, k)
            if isinstance(want, dict) and "save" in want:
                self.lines.append("let %s = %s.clone();" % (want["save"], got))
                self.saved[want["save"]] = "dyn"
            elif isinstance(want, dict) and "any" in want:
                pass
            elif isinstance(want, dict) and "nonnull" in want:
                self.lines.append("assert!(!matches!(%s, Dyn::Null | Dyn::Int(0)));" % got)
            else:
                self.lines.append("assert!(same(&%s, &%s), \"{:?}\", %s);" % (got, self.dyn_arg(want), got))

    def procedure_arg(self, name, k, a):
        """A procedure passed through the registry (a call that another
        argument makes a compile error in Rust): a call-scope closure of
        the member's callback type, released when the call is refused."""
        from stubgen.model.lower import lower
        mod, fn = name.split(".", 1)
        lf = lower(MODULES[mod]).function(fn)
        closure = next((c for c in lf.closures if lf.position(c.slot) == k + 1 and c.params), None)
        if closure is None:
            raise Unsupported("a procedure where the function takes no callback")
        cid = a["procedure"]
        return "Dyn::Closure(rt.dynamic_closure(\"call\", %s_m.callback_signature(%s).unwrap(), %s).unwrap())" % (
            mod, _lit(closure.params[0].callback.name), self.dyn_body(cid, self.callbacks[cid]))

    def do_packed(self, st):
        r = self.var("r")
        self.lines.append("let %s = packed(rt, %s, &[%s]);" % (
            r, _lit(st["packed"]), ", ".join(self.dyn_arg(a) for a in st.get("args", []))))
        if "error" in st:
            self.expect_error(r, st)
            return
        self.lines.append("let %s = %s.expect(\"results\");" % (r, r))
        self.lines.append("assert_eq!(%s.len(), %d);" % (r, len(st["expect"])))
        for k, want in enumerate(st["expect"]):
            self.lines.append("assert!(same(&%s[%d], &%s), \"{:?}\", %s);"
                              % (r, k, self.dyn_arg(want), r))

    def do_register_packed(self, st):
        """A Rust closure over Dyn values as a global packed function."""
        name = st["register_packed"]
        cid = "packed_" + name.replace(".", "_")
        self.do_callback({"callback": cid, "do": st["do"]})
        self.lines.append("rt.register_packed(%s, %s, %s).unwrap();"
                          % (_lit(name), _lit(st["psig"]), self.dyn_body(cid, st)))

    def expect_error(self, r, st):
        kind = KINDS.get(st["error"])
        if kind is None:
            raise Unsupported("an error of kind %s" % st["error"])
        self.lines.append("let e = %s.expect_err(\"an error\");" % r)
        self.lines.append("assert_eq!(e.kind, nccc::ErrorKind::%s, \"{}\", e);" % kind)
        if st["error"] == "pool":
            self.lines.append("assert_eq!(e.status, nccc::abi::ERR_POOL_EXHAUSTED);")
        # a closed object is refused by Owned::ptr, before any function
        # is called: its error names no function (docs/RUST.md)
        if "message" in st and st["error"] != "closed":
            self.lines.append("assert!(e.to_string().contains(%s), \"{}\", e);" % _lit(st["message"]))

    def dyn_arg(self, v):
        if isinstance(v, bool):
            return "Dyn::Bool(%s)" % ("true" if v else "false")
        if isinstance(v, int):
            return "Dyn::Int(%d)" % v
        if isinstance(v, float):
            return "Dyn::Float(%r)" % v
        if isinstance(v, str):
            return "Dyn::Str(%s.into())" % _lit(v)
        if isinstance(v, list):
            raise Unsupported("a list through the registry")
        if v.get("null"):
            return "Dyn::Null"
        if "i64" in v or "u64" in v:
            return "Dyn::Int(%d)" % _int(v)
        if "f64" in v:
            return "Dyn::Float(f64::from_bits(%s))" % v["f64"]
        if "saved" in v:
            kind = self.saved.get(v["saved"])
            if kind == "dyn":
                return "%s.clone()" % v["saved"]
            if kind == "owned" or isinstance(kind, tuple):  # a C object
                return "Dyn::Ptr(%s.ptr().unwrap())" % v["saved"]
            if kind == "ptr":
                return "Dyn::Ptr(%s)" % v["saved"]
            raise Unsupported("a saved value of another kind")
        if "constant" in v:
            m, c = v["constant"].split(".")
            return "Dyn::Int(%s_m.constants.%s as i128)" % (m, c)
        if "struct" in v:
            return "Dyn::Struct(vec![%s])" % ", ".join(
                "(%s.into(), %s)" % (_lit(k), self.dyn_arg(x)) for k, x in v["struct"].items())
        if "closure" in v:
            return self.dyn_closure(v["closure"])
        if "bytes" in v:
            return "Dyn::Bytes(vec![%s])" % ", ".join(
                "0x%s" % v["bytes"][k:k + 2] for k in range(0, len(v["bytes"]), 2))
        if "symbol" in v:
            return "Dyn::Ptr(unsafe { nccc::Ptr::from_addr(%s) })" % self.symbol(v["symbol"])
        raise Unsupported("a value %r through the registry" % (v,))

    def dyn_closure(self, cid):
        """The closure cid as a Dyn value, made on its first use: one
        closure, or a group of them."""
        if cid in self.groups:
            return self.dyn_group(cid)
        step = self.callbacks.get(cid)
        if step is None:
            raise Unsupported("a closure made elsewhere")
        if step.get("made"):
            return "Dyn::Closure(%s_closure)" % cid
        step["made"] = True
        self.lines.append("let %s_closure = rt.dynamic_closure(%s, %s, %s).unwrap();"
                          % (cid, _lit(step.get("scope", "call")), self.dyn_signature(step),
                             self.dyn_body(cid, step)))
        if cid in self.released_inside:
            self.lines.append("*%s_cell.lock().unwrap() = Some(%s_closure);" % (cid, cid))
        self.released[cid] = "dyn"
        return "Dyn::Closure(%s_closure)" % cid

    def dyn_group(self, gid):
        g = self.groups[gid]
        if not g.get("made"):
            g["made"] = True
            members = []
            for k, m in enumerate(g["members"]):
                mid = "%s_%d" % (gid, k)
                members.append("(%s, %s)" % (self.dyn_signature(self.callbacks[mid]),
                                             self.dyn_body(mid, self.callbacks[mid])))
            self.lines.append("let %s_closure = rt.dynamic_group(%s, %d, vec![%s]).unwrap();"
                              % (gid, _lit(g.get("scope", "call")), g.get("final", 0),
                                 ", ".join(members)))
            self.released[gid] = "dyn"
        return "Dyn::Closure(%s_closure)" % gid

    def dyn_signature(self, step):
        """The callback's signature: given, or its type's from the module."""
        if "signature" in step:
            return _lit(step["signature"])
        m, t = step["type"].split(".")
        if m not in MODULES:
            raise Unsupported("a callback type of another module")
        return "%s_m.callback_signature(%s).unwrap()" % (m, _lit(t))

    def dyn_body(self, cid, step):
        """A boxed closure over Dyn values doing the step's behaviour."""
        do = step["do"]
        body = {"sum": "vec![sum(args)]", "double": "vec![double(&args[0])]",
                "error": "panic!(\"boom\")", "bad_result": "vec![Dyn::Str(\"bad\".into())]",
                "collect": "%s_seen.lock().unwrap().push(args.iter().map(show).collect()); vec![]" % cid,
                }.get(do) if isinstance(do, str) else None
        if isinstance(do, dict) and "arg" in do:
            body = "vec![args[%d].clone()]" % (do["arg"] - 1)
        captured = ""
        if isinstance(do, dict) and "release" in do:
            # a release inside the callback, its own closure's too: the
            # closure is found in its cell, the runtime by with_runtime
            other = do["release"]
            if other not in self.released_inside or other not in self.callbacks:
                raise Unsupported("a release of a closure made later")
            captured = "let %s_cell = %s_cell.clone(); " % (other, other)
            result = "Dyn::Int(%d)" % _int(do["returns"]) if "returns" in do else ""
            body = ("let c = (*%s_cell.lock().unwrap()).expect(\"the closure is made\"); "
                    "let got = with_runtime(|rt| c.release(rt).unwrap()); "
                    "%s_seen.lock().unwrap().push(vec![got.to_string()]); vec![%s]"
                    % (other, cid, result))
        if body is None:
            raise Unsupported("behaviour %r through the registry" % (do,))
        return ("Box::new({ let %s_calls = %s_calls.clone(); let %s_seen = %s_seen.clone(); %s"
                "move |args: &[Dyn]| { %s_calls.fetch_add(1, SeqCst); let _ = &%s_seen; %s } })"
                % (cid, cid, cid, cid, captured, cid, cid, body))

    def symbol(self, name):
        """The address of an exported C symbol (declared once per test)."""
        if name not in self.symbols:
            self.symbols.add(name)
            self.lines.append('extern "C" { fn %s(); }' % name)
        return "%s as unsafe extern \"C\" fn() as usize" % name

    def expand_groups(self, args, params):
        """A group's members are several closure parameters of the method."""
        out = []
        for a in args:
            if isinstance(a, dict) and a.get("closure") in self.groups:
                g = self.groups[a["closure"]]
                for k, m in enumerate(g["members"]):
                    mid = "%s_%d" % (a["closure"], k)
                    out.append({"closure": mid})
            else:
                out.append(a)
        return out

    def do_group(self, st):
        gid = st["group"]
        self.groups[gid] = st
        for k, m in enumerate(st["members"]):
            member = dict(m, callback="%s_%d" % (gid, k), scope=st.get("scope", "call"))
            self.do_callback(member)
        if gid in self.values:
            self.dyn_group(gid)

    # ---- memory, registry facts, repetition --------------------------------
    def do_alloc(self, st):
        self.lines.append("let %s = rt.call_dynamic(\"nccc.alloc\", &[Dyn::Int(%d)]).unwrap()[1].clone();"
                          % (st["save"], st["alloc"]))
        self.saved[st["save"]] = "dyn"

    def do_free(self, st):
        self.lines.append("assert!(same(&rt.call_dynamic(\"nccc.free\", &[%s]).unwrap()[0], &Dyn::Int(0)));"
                          % self.dyn_arg(st["free"]))

    def do_read_string(self, st):
        self.lines.append("assert_eq!(rt.string_at(dyn_ptr(&%s)).unwrap().as_deref(), Some(%s));"
                          % (self.dyn_arg(st["read_string"]), _lit(st["expect"])))

    def unknown(self, expr):
        """The step expects an error of kind unknown from expr."""
        self.lines.append("assert_eq!(%s.unwrap_err().kind, nccc::ErrorKind::Unknown);" % expr)

    def do_signature(self, st):
        name = st["signature"]
        if "error" in st:
            return self.unknown("rt.lookup(%s)" % _lit(name))
        self.lines.append("assert_eq!(rt.function(rt.lookup(%s).unwrap()).unwrap().1, %s.as_bytes());"
                          % (_lit(name), _lit(st["expect"])))

    def do_functions(self, st):
        mod = st["functions"]
        if "error" in st:
            return self.unknown("rt.module(%s)" % _lit(mod))
        self.lines.append("let info = rt.call_dynamic(\"nccc.module_info\", &[Dyn::Int(rt.module(%s).unwrap() as i128)]).unwrap();"
                          % _lit(mod))
        if "count" in st:
            self.lines.append("assert!(same(&info[2], &Dyn::Int(%d)));" % st["count"])
        for fn, sig in st.get("include", {}).items():
            q = "%s.%s" % (mod, fn)
            self.lines.append("assert_eq!(rt.function(rt.lookup(%s).unwrap()).unwrap().1, %s.as_bytes());"
                              % (_lit(q), _lit(sig)))

    def do_modules(self, st):
        for m in st["modules"]:
            self.lines.append("rt.module(%s).unwrap();" % _lit(m))

    def do_repeat(self, st):
        inner = type(self)(self.name)
        inner.saved, inner.callbacks = dict(self.saved), self.callbacks
        inner.n = self.n + 1000
        inner.step(st["step"])
        self.lines.append("for _ in 0..%d {" % st["repeat"])
        self.lines += ["    " + line for line in inner.lines]
        self.lines.append("}")

    def do_exhaust(self, st):
        want = st.get("error")
        if want != "pool":
            raise Unsupported("exhausting with another error")
        ex = st["exhaust"]
        self.lines.append("let mut made = Vec::new();")
        self.lines.append("let e = loop { match rt.dynamic_closure(%s, %s, Box::new(|_: &[Dyn]| vec![])) "
                          "{ Ok(c) => made.push(c), Err(e) => break e } assert!(made.len() < %d); };"
                          % (_lit(ex.get("scope", "call")), _lit(ex["signature"]), st["max"]))
        self.lines.append("assert_eq!(e.status, nccc::abi::ERR_POOL_EXHAUSTED);")
        self.lines.append("for c in made { c.release(rt).unwrap(); }")


def value_closures(steps):
    """The closures a case uses as values: passed to more than one call,
    released, passed through the registry, or counted before their use. Rust makes these with
    Runtime::dynamic_closure when the case makes them, and the calls that
    take them go through the registry."""
    uses = {}
    ids = set()
    made = set()
    for st in steps:
        inner = st.get("step", st)
        if "callback" in st:
            made.add(st["callback"])
        if "group" in st:
            made.add(st["group"])
        if "counters" in st and "in_use" in st["counters"]:
            # the case counts its closures before using them: they exist
            # from when it makes them
            ids |= made - set(uses)
        for a in inner.get("args", []):
            if isinstance(a, dict) and "closure" in a:
                uses[a["closure"]] = uses.get(a["closure"], 0) + (st.get("repeat", 1))
                if inner.get("registry") or inner.get("handle"):
                    ids.add(a["closure"])
        if "release" in st:
            ids.add(st["release"])
    return ids | released_inside(steps) | {cid for cid, n in uses.items() if n > 1}


def released_inside(steps):
    """The closures a callback of the case releases (behaviour release)."""
    return {st["do"]["release"] for st in steps
            if "callback" in st and isinstance(st.get("do"), dict) and "release" in st["do"]}
