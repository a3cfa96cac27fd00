"""cases_to_rust.py CASES.json OUT.rs: the shared case table as Rust tests.

Each case whose every step Rust can state becomes one #[test] over the
generated modules tour.rs and hcb.rs (each method's parameter and result
types come from the generator, stubgen.emit_rust.rust_signature). A call
whose arguments no value of the method's types can hold (a wrong type,
count or range: a compile error in Rust), a call by name or handle, and
closures used as values go through the registry with nccc::dynamic,
whose checks refuse the bad values at run time (case_registry.py). A
case Rust cannot state is listed at the end of OUT.rs with the reason,
and not run. A call the table refuses because an argument is the host's
nothing (a name never saved) is refused in Rust before it runs: Rust's
nothing, (), fits no parameter, so the call does not compile; so is a
closure refused for its scope (error scope): a method claims its
closures itself with its parameter's scope, and an nccc::Closure fits
no closure parameter. Such a case becomes a compile_fail doctest requiring the type error E0308,
written to refusals.rs beside OUT.rs (the test crate's library includes
it, so `cargo test` runs it). The C object steps (needs "cdata") are
case_cdata.py's (the typed C objects), and again case_named.py's (the
same case over the C objects by name, a second test NAME_by_name). A case whose "needs" this converter does not implement
becomes an ignored #[test] named NOT_RUN_..., which `cargo test` counts
as ignored, never passed.
"""

import json
import os
import re
import sys

from case_cdata import CdataSteps, byte_array, field_types
from case_named import OBJECT_STEPS, NamedSteps
from case_common import (IDLS, KINDS, MODULES, RANGES, Unsupported,
                         _debug, _int, _lit)
from case_registry import RegistrySteps, released_inside, value_closures
from stubgen.emit_rust import rust_signature


# The "needs" of the case table the Rust tests implement.
HAS = {"cdata"}


class CompileTimeRefusal(Exception):
    """A case whose call does not compile in Rust: the call's text."""


class Case(CdataSteps, RegistrySteps):
    def __init__(self, name):
        self.name = name
        self.lines = []
        self.saved = {}        # name -> kind (owned, value, string)
        self.callbacks = {}    # id -> step
        self.released = {}     # id -> "typed" or "dyn": a closure value to release
        self.groups = {}       # id -> group step
        self.forever_ids = []
        self.symbols = set()   # C symbols declared in the test
        self.calling, self.closure_index, self.heap = None, 0, False
        self.values = set()    # ids of closures used as values
        self.released_inside = set()  # ids a callback releases: kept in X_cell
        self.n = 0

    def var(self, stem):
        self.n += 1
        return "%s%d" % (stem, self.n)

    # ---- values ------------------------------------------------------------
    def nothing(self, v):
        """Is v the host's nothing (a name never saved)?"""
        return isinstance(v, dict) and "saved" in v and v["saved"] not in self.saved

    def arg(self, v, ty, mod):
        if isinstance(v, dict) and "saved" in v:
            kind = self.saved.get(v["saved"])
            if kind is None:
                raise Unsupported("a value never saved")
            if (kind == "owned" or isinstance(kind, tuple)) and ty == "nccc::Ptr":
                return "%s.ptr()?" % v["saved"]
            if kind == "dyn":
                if ty != "nccc::Ptr":
                    raise Unsupported("a registry value for a %s" % ty)
                return "dyn_ptr(&%s)" % v["saved"]
            return v["saved"]
        if isinstance(v, dict) and "constant" in v:
            m, c = v["constant"].split(".")
            return "%s_m.constants.%s" % (m, c)
        if isinstance(v, dict) and "closure" in v:
            return self.closure_arg(v["closure"], ty, mod)
        if isinstance(v, dict) and "procedure" in v:
            return self.closure_arg(v["procedure"], ty, mod)
        if isinstance(v, dict) and v.get("null") and ty.startswith("Option<nccc::Box<") \
                and self.idl_callback(mod, peek=True)[2]:
            self.idl_callback(mod)  # no member registered: C gets NULL
            return "None"
        if ty in RANGES:
            n = _int(v)
            lo, hi = RANGES[ty]
            if not lo <= n <= hi:
                raise Unsupported("out of the range of %s" % ty)
            return "(%d as %s)" % (n, ty) if n < 0 else "%d as %s" % (n, ty)
        if ty in ("f64", "f32"):
            if isinstance(v, dict) and "f64" in v:
                return "%s::from_bits(%s)" % (ty, v["f64"]) if ty == "f64" else \
                    "(f64::from_bits(%s) as f32)" % v["f64"]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise Unsupported("not a number")
            if ty == "f32" and abs(v) > 3.4028234663852886e38:
                raise Unsupported("out of float's range")
            return "(%r as %s)" % (float(v), ty)
        if ty == "bool":
            if not isinstance(v, bool):
                raise Unsupported("not a boolean")
            return "true" if v else "false"
        if ty in ("&str", "Option<&str>"):
            if isinstance(v, dict) and v.get("null"):
                if ty == "&str":
                    raise Unsupported("NULL for a string Rust requires")
                return "None"
            if not isinstance(v, str):
                raise Unsupported("not a string")
            lit = _lit(v)
            return "Some(%s)" % lit if ty.startswith("Option") else lit
        if ty in ("nccc::Ptr", "nccc::FnPtr"):
            if isinstance(v, dict) and v.get("null"):
                return "%s::NULL" % ty
            if isinstance(v, dict) and "symbol" in v:
                return "unsafe { %s::from_addr(%s) }" % (ty, self.symbol(v["symbol"]))
            raise Unsupported("an address")
        if ty.startswith("&[") or ty.startswith("&mut ["):
            elem = ty[ty.index("[") + 1:-1]
            if isinstance(v, dict) and "c_buffer" in v:
                # C memory (an alloc step's) as the slice: its length given
                return "unsafe { std::slice::from_raw_parts%s(dyn_ptr(&%s).addr() as *%s %s, %d) }" % (
                    "_mut" if "mut" in ty else "", v["c_buffer"], "mut" if "mut" in ty else "const",
                    elem, _int(v["length"]))
            if isinstance(v, dict) and "bytes" in v and elem == "u8":
                return "&%s%s" % ("mut " if "mut" in ty else "", byte_array(v["bytes"]))
            if not isinstance(v, list):
                raise Unsupported("not a list")
            elem = ty[ty.index("[") + 1:-1]
            return "&%s[%s]" % ("mut " if "mut" in ty else "",
                                ", ".join(self.arg(x, elem, mod) for x in v))
        if isinstance(v, dict) and "struct" in v:
            return self.record(v["struct"], ty, mod)
        if isinstance(v, dict) and "bytes" in v and ty == "nccc::Vec<u8>":
            # a vector the method takes over: C keeps it ([kept])
            return "vec!%s" % byte_array(v["bytes"])
        raise Unsupported("a %s argument" % ty)

    def closure_arg(self, cid, ty, mod):
        step = self.callbacks.get(cid)
        if step is None:
            raise Unsupported("a closure made elsewhere")
        if cid in self.values:
            raise Unsupported("a closure used as a value")
        heap = "Box<" in ty
        idl_scope, cb, _ = self.idl_callback(mod)
        # a procedure is a plain function: the module keeps its closure
        scope = idl_scope if step.get("procedure") else step.get("scope", "call")
        if scope != idl_scope:
            raise Unsupported("a %s closure where the IDL has another scope" % scope)
        if cb is not None and self.made_for(step) not in (None, callback_signature(mod, cb)):
            # no closure of the method's type: the module's call_dynamic
            raise Unsupported("a closure of another callback type")
        m = re.search(r"FnMut\((.*?)\) -> (.*?)( \+ Send|>*$)", ty)
        args = [a.strip() for a in m.group(1).split(",") if a.strip()]
        ret = m.group(2).strip()
        if ret.endswith(">") and ret.count("<") < ret.count(">"):
            ret = ret[:ret.rindex(">")]
        names = ["a%d" % k for k in range(len(args))]
        self.heap = heap
        body = self.behaviour(cid, step["do"], names, args, ret, shown_values(cb, names, args))
        params = ", ".join("%s: %s" % (n, self.qualify(t, mod)) for n, t in zip(names, args))
        closure = "{ let %s_calls = %s_calls.clone(); let %s_seen = %s_seen.clone(); " \
            "move |%s| -> %s { %s_calls.fetch_add(1, SeqCst); let _ = &%s_seen; %s } }" % (
                cid, cid, cid, cid, params, self.qualify(ret, mod), cid, cid, body)
        if heap:
            if scope == "forever" and not ty.startswith("Option") and not step.get("procedure"):
                self.forever_ids.append(cid)
            value = "Box::new(%s)" % closure
            return "Some(%s)" % value if ty.startswith("Option") else value
        var = self.var("f")
        self.lines.append("let mut %s = %s;" % (var, closure))
        return "Some(&mut %s)" % var if ty.startswith("Option") else "&mut %s" % var

    def idl_callback(self, mod, peek=False):
        """The IDL's scope and callback type of the callback parameter
        being converted, and whether it is a closure set's member."""
        from stubgen.model.lower import lower
        lf = lower(MODULES[mod]).function(self.calling)
        params = [(c.scope, p.callback, c.closures is not None)
                  for c in lf.closures for p in c.params]
        k = self.closure_index
        self.closure_index += 0 if peek else 1
        return params[k] if k < len(params) else ("call", None, False)

    def qualify(self, t, mod):
        if t in ("hcb_obj", "point", "counter"):
            return "%s::%s" % (mod, t)
        return t

    def behaviour(self, cid, do, names, args, ret, shown):
        ints = all(a in RANGES for a in args)
        if do == "sum":
            if ints and ret in RANGES:
                return "(%s) as %s" % (" + ".join("%s as i64" % n for n in names) or "0", ret)
            if ret in ("f64", "f32"):
                return "(%s) as %s" % (" + ".join("%s as f64" % n for n in names) or "0.0", ret)
        elif do == "double" and len(names) == 1:
            if ret in RANGES:
                return "(%s as i64 * 2) as %s" % (names[0], ret)
            if ret in ("f64", "f32"):
                return "%s * 2.0" % names[0]
        elif do == "error":
            return "panic!(\"boom\")"
        elif do == "divmod" and len(names) == 2:
            return "(%s / %s, %s %% %s)" % (names[0], names[1], names[0], names[1])
        elif do == "collect":
            rec = ", ".join(text for _, text in shown)
            tail = "" if ret == "()" else " Default::default()"
            return "%s_seen.lock().unwrap().push(vec![%s]);%s" % (cid, rec, tail)
        elif do == "reenter" and len(names) == 2 and ret in RANGES and not self.heap:
            return "tour_m.add(%s as i64, %s as i64).unwrap() as %s" % (names[0], names[1], ret)
        elif isinstance(do, dict) and "call" in do:
            call = "rt.call_dynamic(%s, &[%s]).unwrap()" % (
                _lit(do["call"]), ", ".join(self.dyn_arg(a) for a in do.get("args", [])))
            if self.heap:  # a boxed closure borrows no runtime
                call = "with_runtime(|rt| %s)" % call
            tail = "" if ret == "()" else " Default::default()"
            if "returns" in do:
                if ret not in RANGES:
                    raise Unsupported("a result of type %s" % ret)
                tail = " %d as %s" % (_int(do["returns"]), ret)
            return "let r = %s; %s_seen.lock().unwrap().push(r.iter().map(show).collect());%s" % (
                call, cid, tail)
        elif isinstance(do, dict) and "arg" in do and do["arg"] <= len(names):
            return names[do["arg"] - 1]
        elif isinstance(do, dict) and "fill" in do and args and args[0] == "&mut [u8]" and ret in RANGES:
            # the bytes into the buffer to fill, as many as fit
            data = ", ".join("0x%s" % do["fill"][k:k + 2] for k in range(0, len(do["fill"]), 2))
            return "{ let d: &[u8] = &[%s]; let k = d.len().min(%s.len()); %s[..k].copy_from_slice(&d[..k]); k as %s }" % (
                data, names[0], names[0], ret)
        elif isinstance(do, dict) and "error_at" in do and ints and ret in RANGES:
            return "if %s_calls.load(SeqCst) == %d { panic!(\"boom\") } (%s) as %s" % (
                cid, do["error_at"], " + ".join("%s as i64" % n for n in names), ret)
        raise Unsupported("behaviour %r" % (do,))

    # ---- steps ---------------------------------------------------------------
    def step(self, st):
        for key in ("call", "packed", "register_packed", "callback", "procedure", "group", "check", "counters", "close", "forget",
                    "collect", "constant", "layout", "release", "alloc", "free",
                    "read_string", "signature", "functions", "modules", "repeat",
                    "exhaust", "new", "view", "field", "record", "assign", "read_bytes", "write_bytes"):
            if key in st:
                return getattr(self, "do_" + key)(st)
        raise Unsupported("a step of kind %s" % next(k for k in st if k != "name"))

    def do_call(self, st):
        mod, fn = st["call"].split(".", 1)
        if mod not in MODULES or st.get("registry") or st.get("handle"):
            return self.dynamic_call(st)
        sig = rust_signature(MODULES[mod], IDLS[mod], fn)
        if sig is None:
            return self.dynamic_call(st)
        params, types = sig
        args = st.get("args", [])
        if any(isinstance(a, dict) and a.get("closure") in self.values for a in args):
            return self.dynamic_call(st)
        args = self.expand_groups(args, params)
        if len(args) != len(params):
            args = self.c_buffers(mod, fn, args)
        if len(args) != len(params):
            return self.dynamic_call(st)
        if st.get("error") == "scope" and all(isinstance(a, dict) and "closure" in a for a in args):
            # a closure of another scope: the method takes Rust closures
            # and claims them with its parameter's scope, so an
            # nccc::Closure (any scope) does not fit its parameter
            raise CompileTimeRefusal("{ let c: nccc::Closure = todo!(); %s_m.%s(%s) }" % (
                mod, fn, ", ".join("c" for _ in args)))
        if st.get("error") == "type" and any(self.nothing(a) for a in args):
            raise CompileTimeRefusal("%s_m.%s(%s)" % (mod, fn, ", ".join(
                "()" if self.nothing(a) else self.arg(a, p.split(": ", 1)[1], mod)
                for a, p in zip(args, params))))
        mark = len(self.lines)
        self.forever_ids = []
        self.calling, self.closure_index = fn, 0
        try:
            values = [self.arg(a, p.split(": ", 1)[1], mod) for a, p in zip(args, params)]
        except Unsupported:
            # no Rust value of the method's types holds these arguments:
            # the same call through the registry, where the crate checks them
            del self.lines[mark:]
            return self.dynamic_call(st)
        r = self.var("r")
        self.lines.append("let %s = (|| Ok::<_, nccc::Error>(%s_m.%s(%s)?))();"
                          % (r, mod, fn, ", ".join(values)))
        if "error" in st:
            self.expect_error(r, st)
            return
        expect = list(st.get("expect", []))
        f = next(x for x in MODULES[mod].functions if x.name == fn)
        if f.errno:
            errno = expect.pop()
            if isinstance(errno, dict) and "constant" in errno:
                m, c = errno["constant"].split(".")
                errno = "%s_m.constants.%s" % (m, c)
            if errno != 0:
                self.lines.append("let e = %s.expect_err(\"errno\");" % r)
                self.lines.append("assert_eq!((e.kind, e.errno), (nccc::ErrorKind::Errno, %s));"
                                  % errno)
                return
        if f.packed is not None:
            status = expect.pop(0)
            if status != 0:
                self.lines.append("assert_eq!(%s.expect_err(\"a status\").status, %d);" % (r, status))
                return
        if len(expect) + len(self.forever_ids) != len(types):
            raise Unsupported("results Rust gives otherwise")
        names = [self.var("v") for _ in types]
        pattern = names[0] if len(names) == 1 else "(%s)" % ", ".join(names)
        self.lines.append("let %s = %s.expect(\"a result\");" % (pattern, r))
        for name, ty, want in zip(names, types, expect):
            self.expect(name, ty, want, mod)
        for name, cid in zip(names[len(expect):], self.forever_ids):
            self.lines.append("let %s_closure = %s;" % (cid, name))
            self.released[cid] = "typed"

    def expect(self, name, ty, want, mod):
        if isinstance(want, dict) and "save" in want:
            self.lines.append("let %s = %s;" % (want["save"], name))
            self.saved[want["save"]] = "owned" if ty.startswith("nccc::Owned") else \
                "ptr" if ty == "nccc::Ptr" else "value"
            return
        if isinstance(want, dict) and "any" in want:
            self.lines.append("let _ = %s;" % name)
            return
        if isinstance(want, dict) and "nonnull" in want:
            self.lines.append("assert!(!%s.is_null());" % name)
            return
        if ty == "Option<nccc::String>":
            if isinstance(want, dict) and want.get("null"):
                self.lines.append("assert_eq!(%s, None);" % name)
            else:
                self.lines.append("assert_eq!(%s.as_deref(), Some(%s));" % (name, _lit(want)))
            return
        if ty == "nccc::String":
            self.lines.append("assert_eq!(%s, %s);" % (name, _lit(want)))
            return
        if isinstance(want, dict) and "struct" in want:
            kind, types = field_types(mod, ty)
            union = kind == "union"
            for field, v in want["struct"].items():
                got = "%s.%s%s" % (name, field, "()" if union else "")
                self.check_value(got, types[field], v, mod)
            return
        self.check_value(name, ty, want, mod)

    def check_value(self, got, ty, want, mod):
        if ty in ("f64", "f32"):
            self.lines.append("assert_eq!((%s as f64).to_bits(), (%s as f64).to_bits());"
                              % (got, self.arg(want, ty, mod)))
        elif ty in ("nccc::Ptr", "nccc::FnPtr") and isinstance(want, dict) and want.get("null"):
            self.lines.append("assert!(%s.is_null());" % got)
        else:
            self.lines.append("assert_eq!(%s, %s);" % (got, self.arg(want, ty, mod)))

    def do_procedure(self, st):
        """A plain function for a closure set's member: its closure is
        made for each call that registers it, sharing the records."""
        self.do_callback(dict(st, callback=st["procedure"], procedure=True))

    def do_callback(self, st):
        cid = st["callback"]
        if "error" in st:
            # a closure Rust cannot make: a type or scope it does not know
            if "type" in st:
                m, t = st["type"].split(".")
                if m not in MODULES:
                    raise Unsupported("a callback type of another module")
                return self.lines.append("assert_eq!(%s_m.callback_signature(%s).unwrap_err().kind, "
                                         "nccc::ErrorKind::%s);" % (m, _lit(t), KINDS[st["error"]]))
            return self.lines.append("assert_eq!(rt.dynamic_closure(%s, %s, Box::new(|_: &[Dyn]| vec![]))"
                                     ".unwrap_err().kind, nccc::ErrorKind::%s);"
                                     % (_lit(st.get("scope", "call")), _lit(st["signature"]),
                                        KINDS[st["error"]]))
        self.callbacks[cid] = dict(st)
        if cid in self.released_inside:
            self.lines.append("let %s_cell = Arc::new(Mutex::new(None::<nccc::Closure>));" % cid)
        self.lines.append("let %s_calls = Arc::new(AtomicUsize::new(0));" % cid)
        self.lines.append("let %s_seen = Arc::new(Mutex::new(Vec::<Vec<String>>::new()));" % cid)
        if cid in self.values:
            self.dyn_closure(cid)

    def do_check(self, st):
        cid = st["check"]
        if cid in self.groups:
            if "member" not in st:
                if "calls" in st or "collected" in st:
                    raise Unsupported("a check of a whole group")
                return
            cid = "%s_%d" % (cid, st["member"])
        if cid not in self.callbacks:
            raise Unsupported("a check of a closure made elsewhere")
        if "calls" in st:
            self.lines.append("assert_eq!(%s_calls.load(SeqCst), %d);" % (cid, st["calls"]))
        if "collected" in st:
            want = [[self.shown(v) for v in args] for args in st["collected"]]
            self.lines.append("assert_eq!(*%s_seen.lock().unwrap(), vec![%s] as Vec<Vec<String>>);"
                              % (cid, ", ".join("vec![%s]" % ", ".join(args) for args in want)))

    def shown(self, v):
        """An expected argument as the closures record it ({:?})."""
        if isinstance(v, dict) and "constant" in v:
            m, c = v["constant"].split(".")
            return "format!(\"{:?}\", %s_m.constants.%s)" % (m, c)
        return "%s.to_string()" % _lit(_debug(v))

    def do_counters(self, st):
        for key, field in (("in_use", "in_use"), ("stale", "stale_calls"),
                           ("mismatched", "type_mismatches"), ("wrong_thread", "wrong_thread")):
            if key in st["counters"]:
                self.lines.append("assert_eq!(rt.closure_stats().unwrap().%s - base.%s, %d);"
                                  % (field, field, st["counters"][key]))

    def do_close(self, st):
        name = st["close"].get("saved")
        if self.saved.get(name) != "owned":
            return self.close_object(st)
        self.lines.append("assert_eq!(%s.close(), %s);" % (name, "true" if st["expect"] else "false"))

    def do_forget(self, st):
        if st["forget"] in self.saved:
            self.lines.append("drop(%s);" % st["forget"])
            del self.saved[st["forget"]]

    def do_collect(self, st):
        self.lines.append("// collect: Rust frees at drop; nothing is left to collect")

    def do_constant(self, st):
        mod, name = st["constant"].split(".")
        if "error" in st:
            self.lines.append("assert_eq!(rt.constant::<i64>(%s, %s).unwrap_err().kind, "
                              "nccc::ErrorKind::Unknown);" % (_lit(mod), _lit(name)))
            return
        self.lines.append("assert_eq!(%s_m.constants.%s as i128, %d);"
                          % (mod, name, _int(st["expect"])))

    def do_layout(self, st):
        mod, name = st["layout"].split(".")
        if "error" in st:
            self.lines.append("assert_eq!(rt.layout(%s, %s).unwrap_err().kind, "
                              "nccc::ErrorKind::Unknown);" % (_lit(mod), _lit(name)))
            return
        want = st["expect"]
        self.lines.append("let l = rt.layout(%s, %s).unwrap();" % (_lit(mod), _lit(name)))
        kinds = {"struct": "TYPE_STRUCT", "union": "TYPE_UNION", "opaque": "TYPE_OPAQUE"}
        for key, expr in (("size", "l.size"), ("align", "l.align"), ("nfields", "l.n_fields")):
            if key in want:
                self.lines.append("assert_eq!(%s, %d);" % (expr, want[key]))
        if "kind" in want:
            self.lines.append("assert_eq!(l.kind, nccc::abi::%s);" % kinds[want["kind"]])
        for fw in want.get("fields", []):
            self.lines.append("let f = (0..l.n_fields).map(|k| rt.field(&l, k).unwrap())"
                              ".find(|f| f.name == %s.as_bytes()).unwrap();" % _lit(fw["name"]))
            for key, expr in (("offset", "f.offset"), ("size", "f.size"), ("count", "f.count")):
                if key in fw:
                    self.lines.append("assert_eq!(%s, %d);" % (expr, fw[key]))
            if "type" in fw:
                self.lines.append("assert_eq!(f.code, %s.as_bytes());" % _lit(fw["type"]))

    def do_release(self, st):
        cid = st["release"]
        if cid not in self.released:
            raise Unsupported("a closure Rust gives no value of")
        self.lines.append("assert_eq!(%s_closure.release(rt).unwrap(), %s);"
                          % (cid, "true" if st["expect"] else "false"))


def callback_signature(mod, cb):
    """The signature of callback type cb of module mod (the first target's)."""
    from stubgen.model.lower import lower
    return lower(MODULES[mod]).callback(cb).signatures[0]


def shown_values(cb, names, types):
    """(name, text) of each value a callback of type cb gets, in C order,
    as the case table records them: a slice's count is its length, a
    char slice is text. Without cb: the closure's arguments."""
    texts = {n: ('format!("{:?}", %s.iter().map(|&c| c as u8 as char).collect::<String>())' % n
                 if t == "&[nccc::c_char]" else 'format!("{:?}", %s)' % n)
             for n, t in zip(names, types)}
    if cb is None:
        return [(n, texts[n]) for n in names]
    from stubgen.emit_rust.callbacks import callback_arguments
    shown = []
    for arg, counted in callback_arguments(cb):
        n = names[arg]
        shown.append((n, 'format!("{:?}", %s.len())' % n if counted else texts[n]))
    return shown


class NamedCase(NamedSteps, Case):
    """A case whose C objects are by name (case_named.py)."""


def convert(case, k, named=False):
    c = (NamedCase if named else Case)(case.get("name", "case %d" % k))
    steps = case.get("steps", [case])
    c.values = value_closures(steps)
    c.released_inside = released_inside(steps)
    for st in steps:
        c.step(st)
    fn = "case_%03d_%s%s" % (k, re.sub(r"[^a-z0-9]+", "_", c.name.lower()).strip("_")[:40],
                             "_by_name" if named else "")
    body = ["let base = rt.closure_stats().unwrap();", "let _ = &base;"] + c.lines
    if case.get("needs") == "cdata":
        body = ["let cdata_m = cdata::Module::bind(rt).unwrap();"] + body
    return fn, body


def write_refusals(path, refusals):
    """refusals.rs: one compile_fail doctest per case refused at compile
    time, on an item of the test crate's library."""
    lines = ["// Generated by test/rust/cases_to_rust.py from test/hosts/cases.json; do not edit.", ""]
    for k, (name, call) in enumerate(refusals):
        lines += ["/// Case %s: refused when compiled." % _lit(name),
                  "/// ```compile_fail,E0308",
                  "/// fn case(tour_m: &nccc_rust_tests::tour::Module<'_>, "
                  "hcb_m: &nccc_rust_tests::hcb::Module<'_>) {",
                  "///     let _ = (tour_m, hcb_m);",
                  "///     let _ = %s;" % call,
                  "/// }",
                  "/// ```",
                  "pub const COMPILE_TIME_REFUSAL_%d: () = ();" % k, ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main(src, out):
    table = json.load(open(src))
    tests, by_name, skipped, refusals, not_run = [], [], [], [], []
    for k, case in enumerate(table["cases"]):
        if case.get("needs") is not None and case["needs"] not in HAS:
            not_run.append((case["name"], case["needs"], k))
            continue
        if any(key in st for st in case.get("steps", [case]) for key in OBJECT_STEPS):
            try:
                by_name.append((case["name"] + " (by name)",) + convert(case, k, named=True))
            except Unsupported as e:
                skipped.append((case["name"] + " (by name)", str(e)))
        try:
            tests.append((case.get("name", ""),) + convert(case, k))
        except CompileTimeRefusal as e:
            refusals.append((case.get("name", "case %d" % k), str(e)))
        except Unsupported as e:
            skipped.append((case.get("name", "case %d" % k), str(e)))
    write_refusals(os.path.join(os.path.dirname(out), "refusals.rs"), refusals)
    lines = ["// Generated by test/rust/cases_to_rust.py from test/hosts/cases.json; do not edit.",
             "// %d of %d cases as Rust tests, and %d cases of C objects again by name;"
             " the others are listed at the end." % (len(tests), len(table["cases"]), len(by_name)), ""]
    for name, fn, body in tests + by_name:
        lines.append("/// %s" % name)
        lines.append("#[test]")
        lines.append("fn %s() {" % fn)
        lines.append("    with_fixture(|rt, tour_m, hcb_m| {")
        lines.append("        let _ = (tour_m, hcb_m);")
        lines += ["        " + b for b in body]
        lines.append("    });")
        lines.append("}")
        lines.append("")
    for name, needs, k in not_run:
        lines += ["/// %s: not run (needs %s)" % (name, needs),
                  "#[test]",
                  "#[ignore = %s]" % _lit("NOT RUN: needs %s, not in the Rust tests yet" % needs),
                  "fn not_run_%03d_%s() {}" % (k, re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:40]),
                  ""]
    lines.append("// Refused at compile time (compile_fail doctests in refusals.rs): %s"
                 % "; ".join(name for name, _ in refusals))
    lines.append("// Not stated in Rust (typed; a case of C objects also runs by name, above):")
    for name, why in skipped:
        lines.append("//   %s: %s" % (name, why))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("cases_to_rust: %d cases as Rust tests (and %d by name), %d as compile_fail doctests, "
          "%d not stated in Rust, %d not run (ignored tests)"
          % (len(tests), len(by_name), len(refusals), len(skipped), len(not_run)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
