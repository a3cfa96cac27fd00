"""Runs one case of the host case table (test/hosts/cases.json; its
"about" field describes the format) through the Python support library
and the generated modules, as test/lua/run.lua does for Lua."""

import gc
import struct

import nccc

# A word the message of each error kind holds, and the Python exception
# class it is (besides nccc.Error).
ERRORS = {
    "count": ("expects", TypeError), "type": ("expected, got", TypeError),
    "range": ("out of range", OverflowError),
    "integral": ("no integer representation", TypeError),
    "unknown": ("unknown", LookupError),
    "callback": ("error in callback", nccc.CallbackError),
    "nul": ("NUL byte", ValueError), "field": ("has no field", TypeError),
    "scope": ("scope", ValueError),
    "released": ("released", ValueError), "closed": ("closed", ValueError),
    "pool": ("pool", nccc.Error), "packed": ("packed", nccc.Error),
    "null": ("NULL", TypeError), "record": ("struct or union", TypeError),
    "freed": ("freed", nccc.Error), "size": ("bytes expected", TypeError),
    "outlive": ("would not outlive", TypeError),
    "kept": ("keeps", TypeError)}

# A C object's fields are ctypes' own (docs/PYTHON.md, "C objects"): the
# errors of a field step are Python's, not nccc.Error.
FIELD_ERRORS = dict(ERRORS, index=("invalid index", IndexError),
                    field=("has no attribute", AttributeError),
                    integral=("cannot be interpreted as an integer",
                              TypeError),
                    type=("must be real number", TypeError))


class Failed(Exception):
    pass


def bits_double(text):
    return struct.unpack("=d", struct.pack("=Q", int(text, 0)))[0]


def double_bits(x):
    return struct.unpack("=Q", struct.pack("=d", x))[0]


class Recorder:
    def __init__(self):
        self.calls, self.collected = 0, []


class Case:
    """The running case: its saved values, closures and baselines."""

    def __init__(self, lib, gen):
        self.lib, self.gen = lib, gen
        self.saved, self.closures, self.procedures, self.records = \
            {}, {}, {}, {}
        self.base = self.counters()

    def counters(self):
        _, in_use, stale, mismatched, wrong_thread = self.lib.closure_stats()
        return {"refs": nccc.primitive.refs(), "in_use": in_use,
                "stale": stale, "mismatched": mismatched,
                "wrong_thread": wrong_thread}

    # ---- values -----------------------------------------------------------

    def resolve(self, spec):
        if isinstance(spec, list):
            return [self.resolve(s) for s in spec]
        if not isinstance(spec, dict):
            return spec
        if "i64" in spec or "u64" in spec:
            return int(spec.get("i64", spec.get("u64")), 0)
        if "f64" in spec:
            return bits_double(spec["f64"])
        if "null" in spec:
            return nccc.NULL
        if "closure" in spec:
            return self.closures[spec["closure"]]
        if "procedure" in spec:
            return self.procedures[spec["procedure"]]
        if "saved" in spec:
            return self.saved.get(spec["saved"])
        if "constant" in spec:
            return self.lib.constant(spec["constant"])
        if "symbol" in spec:
            return self.lib.symbol(spec["symbol"])
        if "bytes" in spec:
            return bytes.fromhex(spec["bytes"])
        if "struct" in spec:
            return {k: self.resolve(v) for k, v in spec["struct"].items()}
        raise Failed("unknown value spec %r" % spec)

    def match(self, spec, actual):
        """Raises Failed unless actual matches spec."""
        if isinstance(spec, dict):
            if spec.get("any"):
                return
            if "save" in spec:
                self.saved[spec["save"]] = actual
                return
            if "null" in spec:
                return self.expect(actual is None, "NULL", actual)
            if "nonnull" in spec:
                return self.expect(actual is not None, "non-NULL", actual)
            if "i64" in spec or "u64" in spec:
                want = int(spec.get("i64", spec.get("u64")), 0)
                return self.expect(type(actual) is int and actual == want,
                                   want, actual)
            if "f64" in spec:
                return self.expect(isinstance(actual, float) and
                                   double_bits(actual) == int(spec["f64"], 0),
                                   "bits " + spec["f64"], actual)
            if "constant" in spec:
                return self.match(self.lib.constant(spec["constant"]),
                                  actual)
            if "bytes" in spec:
                want = bytes.fromhex(spec["bytes"])
                return self.expect(actual == want, want, actual)
            if "struct" in spec:
                for k, v in spec["struct"].items():
                    try:
                        self.match(v, actual[k])
                    except (KeyError, TypeError):
                        raise Failed("no field %s in %r" % (k, actual))
                return
            raise Failed("bad expectation %r" % spec)
        if isinstance(spec, list):
            self.expect(isinstance(actual, list) and len(actual) == len(spec),
                        "%d elements" % len(spec), actual)
            for s, a in zip(spec, actual):
                self.match(s, a)
            return
        if isinstance(spec, bool) or spec is None:
            return self.expect(actual is spec, spec, actual)
        if isinstance(spec, (int, float)):
            return self.expect(not isinstance(actual, bool) and
                               isinstance(actual, (int, float)) and
                               actual == spec, spec, actual)
        self.expect(actual == spec, spec, actual)

    @staticmethod
    def expect(ok, want, actual):
        if not ok:
            raise Failed("expected %s, got %r" % (want, actual))

    def expect_values(self, spec, result):
        results = [] if result is None else list(result) \
            if isinstance(result, tuple) else [result]
        if len(results) != len(spec):
            raise Failed("%d results expected, got %r" % (len(spec), result))
        for k, (s, a) in enumerate(zip(spec, results), 1):
            try:
                self.match(s, a)
            except Failed as e:
                raise Failed("result %d: %s" % (k, e))

    # ---- behaviours ---------------------------------------------------------

    def behaviour(self, do, rec):
        gen_tour = self.gen.get("tour")
        if do == "sum":
            return lambda *a: sum(a)
        if do == "double":
            return lambda x: 2 * x
        if isinstance(do, dict) and "fill" in do:
            data = bytes.fromhex(do["fill"])

            def fill(buffer, *rest):
                k = min(len(data), len(buffer))
                buffer[:k] = data[:k]
                return k
            return fill
        if do == "collect":
            return lambda *a: rec.collected.append(list(a))
        if do == "error":
            def boom(*a):
                raise RuntimeError("boom")
            return boom
        if do == "reenter":
            return lambda a, b: gen_tour.add(a, b)
        if do == "bad_result":
            return lambda *a: "x"
        if do == "divmod":
            return lambda a, b: (int(a / b), a - int(a / b) * b)
        if isinstance(do, dict) and "arg" in do:
            return lambda *a: a[do["arg"] - 1]
        if isinstance(do, dict) and "error_at" in do:
            def at(a, b):
                if rec.calls == do["error_at"]:
                    raise RuntimeError("boom")
                return a + b
            return at
        if isinstance(do, dict) and "call" in do:
            def call(*_):
                fn = self.function(do["call"], False)
                r = fn(*[self.resolve(a) for a in do.get("args", [])])
                rec.collected.append(list(r) if isinstance(r, tuple)
                                     else [] if r is None else [r])
                return do.get("returns")
            return call
        if isinstance(do, dict) and "release" in do:
            def release(*_):
                rec.collected.append([self.closures[do["release"]].release()])
                return do.get("returns")
            return release
        raise Failed("unknown callback behaviour %r" % (do,))

    def make_callback(self, spec):
        rec = Recorder()
        body = self.behaviour(spec.get("do"), rec)

        def fn(*args):
            rec.calls += 1
            return body(*args)
        return rec, fn

    def function(self, key, registry):
        m, _, name = key.rpartition(".")
        if m in self.gen and not registry:
            return getattr(self.gen[m], name)
        return lambda *a: self.lib.call(key, *a)

    def cb_signature(self, spec):
        if "type" in spec:
            m, _, name = spec["type"].rpartition(".")
            return self.gen[m].signature(name)
        return spec["signature"]

    # ---- steps ------------------------------------------------------------

    def outcome(self, step, run, errors=ERRORS):
        """run()'s result, or None when an expected error came; errors:
        FIELD_ERRORS for a C object's field, whose errors are Python's."""
        try:
            result = run()
        except Exception as e:  # the kind decides
            if "error" not in step:
                raise Failed("error: %s: %s" % (type(e).__name__, e))
            word, cls = errors[step["error"]]
            msg = str(e)
            if word not in msg or not isinstance(e, cls) or \
                    (errors is ERRORS and not isinstance(e, nccc.Error)):
                raise Failed("error %s('%s') is not of kind %s" % (
                    type(e).__name__, msg, step["error"]))
            if "message" in step and step["message"] not in msg:
                raise Failed("error '%s' lacks '%s'" % (msg, step["message"]))
            return False, None
        if "error" in step:
            raise Failed("error expected, got %r" % (result,))
        return True, result

    def step_call(self, step):
        args = [self.resolve(a) for a in step.get("args", [])]
        key = step["call"]
        if step.get("handle"):
            def fn(*a):
                return self.lib.call(self.lib.lookup(key), *a)
        else:
            def fn(*a):
                return self.function(key, step.get("registry"))(*a)
        ok, res = self.outcome(step, lambda: fn(*args))
        if ok:
            self.expect_values(step.get("expect", []), res)

    def step_constant(self, step):
        ok, res = self.outcome(step, lambda: self.lib.constant(
            step["constant"]))
        if ok:
            self.match(step["expect"], res)

    def step_layout(self, step):
        ok, layout = self.outcome(step, lambda: self.lib.layout(
            step["layout"]))
        if not ok:
            return
        want = step["expect"]
        for key in ("size", "align", "kind"):
            if key in want:
                self.expect(getattr(layout, key) == want[key], want[key],
                            getattr(layout, key))
        for wf in want.get("fields", []):
            fd = layout.field.get(wf["name"])
            if fd is None:
                raise Failed("no field " + wf["name"])
            for key, v in wf.items():
                self.expect(getattr(fd, key) == v, v, getattr(fd, key))
        if "nfields" in want:
            self.expect(len(layout.fields) == want["nfields"],
                        want["nfields"], len(layout.fields))

    def step_modules(self, step):
        present = {m["name"] for m in self.lib.modules()}
        for name in step["modules"]:
            self.expect(name in present, name, present)

    def step_functions(self, step):
        ok, found = self.outcome(step, lambda: self.lib.functions(
            step["functions"]))
        if not ok:
            return
        by_name = {f["name"]: f for f in found}
        if "count" in step:
            self.expect(len(found) == step["count"], step["count"],
                        len(found))
        for name, sig in step.get("include", {}).items():
            f = by_name.get(step["functions"] + "." + name)
            self.expect(f is not None and f["signature"] == sig, sig, f)
            self.expect(self.lib.lookup(f["name"]) == f["handle"],
                        f["handle"], name)

    def step_signature(self, step):
        ok, res = self.outcome(step, lambda: self.lib.signature(
            step["signature"]))
        if ok:
            self.match(step["expect"], res)

    def step_callback(self, step):
        rec, fn = self.make_callback(step)
        scope = step.get("scope", "call")
        if "type" in step:
            m, _, name = step["type"].rpartition(".")

            def make():
                return self.gen[m].callback(name, fn, scope)
        else:
            def make():
                return self.lib.callback(step["signature"], fn, scope)
        ok, c = self.outcome(step, make)
        if ok:
            self.closures[step["callback"]] = c
            self.records[step["callback"]] = [rec]

    def step_procedure(self, step):
        rec, fn = self.make_callback(step)
        self.procedures[step["procedure"]] = fn
        self.records[step["procedure"]] = [rec]

    def step_group(self, step):
        members, recs = [], []
        for m in step["members"]:
            rec, fn = self.make_callback(m)
            members.append((self.cb_signature(m), fn))
            recs.append(rec)
        ok, c = self.outcome(step, lambda: self.lib.callback_group(
            step.get("scope", "call"), step["final"], *members))
        if ok:
            self.closures[step["group"]] = c
            self.records[step["group"]] = recs

    def step_release(self, step):
        got = self.closures[step["release"]].release()
        self.expect(got == step["expect"], step["expect"], got)

    def step_check(self, step):
        c = self.closures.get(step["check"])
        rec = self.records[step["check"]][step.get("member", 0)]
        if "live" in step:
            self.expect(c is not None and c.live == step["live"],
                        "live %s" % step["live"], c)
        if "calls" in step:
            self.expect(rec.calls == step["calls"], "%d calls" % step["calls"],
                        rec.calls)
        if "collected" in step:
            self.match(step["collected"], rec.collected)

    def step_counters(self, step):
        now = self.counters()
        for key, delta in step["counters"].items():
            self.expect(now[key] - self.base[key] == delta,
                        "%s changed by %d" % (key, delta),
                        now[key] - self.base[key])

    def step_alloc(self, step):
        n = step["alloc"]
        if isinstance(n, dict):
            n = self.lib.layout(n["sizeof"]).size * n.get("count", 1)
        self.saved[step["save"]] = self.lib.alloc(n)

    def step_free(self, step):
        self.lib.free(self.resolve(step["free"]))

    def step_read_string(self, step):
        ok, res = self.outcome(step, lambda: self.lib.string(
            self.resolve(step["read_string"])))
        if ok:
            self.match(step["expect"], res)

    def step_packed(self, step):
        args = [self.resolve(a) for a in step.get("args", [])]
        ok, res = self.outcome(step, lambda: self.lib.packed(step["packed"],
                                                             *args))
        if ok:
            self.expect_values(step.get("expect", []), res)

    def step_register_packed(self, step):
        rec, fn = self.make_callback(step)
        self.records[step["register_packed"]] = [rec]
        self.outcome(step, lambda: self.lib.register_packed(
            step["register_packed"], step["psig"], fn))

    def step_exhaust(self, step):
        spec, made, err = step["exhaust"], [], None
        try:
            for _ in range(step["max"]):
                made.append(self.lib.callback(spec["signature"],
                                              lambda *a: 0, spec["scope"]))
        except Exception as e:  # checked below by its kind
            err = e
        for c in made:
            c.release()
        if err is None:
            raise Failed("no error after %d closures" % step["max"])

        def again():
            raise err
        self.outcome(step, again)

    def step_close(self, step):
        got = self.resolve(step["close"]).close()
        self.expect(got == step["expect"], step["expect"], got)

    def step_forget(self, step):
        self.saved.pop(step["forget"], None)

    def step_collect(self, step):
        gc.collect()
        gc.collect()

    def step_repeat(self, step):
        for k in range(step["repeat"]):
            try:
                self.run_step(step["step"])
            except Failed as e:
                raise Failed("round %d: %s" % (k + 1, e))

    # ---- C objects -----------------------------------------------------

    def objects(self, key):
        """The bound generated module of MODULE.TYPE, and TYPE."""
        m, _, name = key.rpartition(".")
        return self.gen[m], name

    def step_new(self, step):
        mod, name = self.objects(step["new"])
        value = self.resolve(step["value"]) if "value" in step else None
        ok, obj = self.outcome(step, lambda: mod.new(name, value))
        if ok:
            self.saved[step["save"]] = obj

    def step_view(self, step):
        mod, name = self.objects(step["view"])
        at = self.resolve(step["at"])
        ok, obj = self.outcome(step, lambda: mod.view(name, at,
                                                      step.get("count")))
        if ok:
            self.saved[step["save"]] = obj

    def step_field(self, step):
        obj, path = self.resolve(step["field"]), step["path"]

        def walk():
            o = obj
            for p in path[:-1]:
                o = o[p] if isinstance(p, int) else getattr(o, p)
            last = path[-1]
            if "set" not in step:
                return o[last] if isinstance(last, int) else getattr(o, last)
            v = self.resolve(step["set"])
            if isinstance(last, int):
                o[last] = v
            else:
                setattr(o, last, v)
        ok, res = self.outcome(step, walk, FIELD_ERRORS)
        if ok and "set" not in step:
            self.match(step["expect"], res)

    def step_record(self, step):
        obj = self.resolve(step["record"])
        ok, res = self.outcome(step, lambda: obj.record(), FIELD_ERRORS)
        if ok:
            self.match(step["expect"], res)

    def step_assign(self, step):
        obj, value = self.resolve(step["assign"]), self.resolve(step["value"])
        self.outcome(step, lambda: obj.assign(value))

    def step_read_bytes(self, step):
        self.match(step["expect"], self.lib.read(
            self.resolve(step["read_bytes"]), step["length"]))

    def step_write_bytes(self, step):
        self.lib.write(self.resolve(step["write_bytes"]),
                       bytes.fromhex(step["bytes"]))

    ORDER = ["call", "packed", "register_packed", "callback", "procedure",
             "group", "exhaust", "constant", "layout", "modules", "functions",
             "signature", "release", "check", "counters", "close", "forget",
             "collect", "alloc", "free", "read_string", "repeat", "new",
             "view", "field", "record", "assign", "read_bytes",
             "write_bytes"]

    def run_step(self, step):
        for key in self.ORDER:
            if key in step:
                return getattr(self, "step_" + key)(step)
        raise Failed("unknown step %r" % step)


def run(lib, gen, case, device=False):
    """Runs one case; raises Failed naming the step that failed. On a
    device a step's remote_error replaces what it expects, and the case
    ends after that step."""
    c = Case(lib, gen)
    for k, step in enumerate(case.get("steps", [case]), 1):
        refused = device and "remote_error" in step
        if refused:
            step = {key: v for key, v in step.items() if key != "expect"}
            step["error"] = step["remote_error"]
        try:
            c.run_step(step)
        except Failed as e:
            raise Failed("step %d: %s" % (k, e)) from None
        if refused:
            return
