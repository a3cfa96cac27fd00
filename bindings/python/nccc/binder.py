"""The one interpreter of binding records in Python (docs/PYTHON.md,
"Generated modules"; the records: docs/BINDING.md): a generated module
holds its records and record classes and hands them to Module;
Module.bind(lib) looks every function up once, checks its signature, and
makes its call once from its record (lib.fast with its non-NULL
arguments, owned results and strings, a thunk to bind), with the closure
checks and closure sets it asks for. Every binding rule of Python lives
here."""

from nccc import callback_values, cdata, owned, remote_arguments, remote_cdata
from nccc import values
from nccc.callbacks import Closure
from nccc.errors import ArgumentError, ArgumentValueError, Error
from nccc.errors import RemoteError, UnknownError
from nccc.errors import count_error
from nccc.errors import describe_type
from nccc import abi

# The statuses of a failure of a remote call itself: value -> name.
RPC_FAILURES = {v: k for k, v in abi.STATUS.items()
                if k.startswith("ERR_RPC_")}

# An entry's signatures: one for every target, or one per target of the
# ABI's targets (data models by plain-char signednesses), in their order
TARGETS = len(abi.TARGETS)


class UnknownName(UnknownError, AttributeError):
    """A name a bound module does not have."""


class Bound:
    """A generated module bound to a library: its functions, constants
    and record classes as attributes, and the helpers lib, layout, pack,
    unpack, signature, values and callback."""

    def __init__(self, module, lib):
        self.lib = lib
        self._module = module
        self._targets = list(range(TARGETS))
        self._memory = None

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnknownName("unknown function '%s.%s'" % (self._module.name,
                                                         name))

    def __repr__(self):
        return "<nccc module %s bound to %r>" % (self._module.name, self.lib)

    def layout(self, name):
        return self.lib.layout(self._module.name + "." + name)

    def pack(self, name, value):
        return self.lib.pack(self._module.name + "." + name, value)

    def unpack(self, name, data):
        return self.lib.unpack(self._module.name + "." + name, data)

    def new(self, name, value=None):
        """A zeroed C object of one of the module's records (PYTHON.md,
        "C objects")."""
        return self._objects.new(name, value)

    def view(self, name, p, count=None):
        """A borrowed view of a record (or count records) at address p."""
        return self._objects.view(name, p, count)

    def _callback_entry(self, name):
        for e in self._module.callbacks:
            if e["name"] == name:
                return e
        raise UnknownName("unknown callback type '%s.%s'"
                          % (self._module.name, name))

    def signature(self, name):
        """The signature of one of the module's callback types."""
        sigs = self._callback_entry(name)["signatures"]
        return sigs[self._targets[0]] if len(sigs) > 1 else sigs[0]

    def values(self, name, fn):
        """fn receiving the arguments the callback type's value
        descriptions describe as str and lists."""
        per_target = self._callback_entry(name).get("values")
        if not per_target:
            return fn
        descs = per_target[self._targets[0]] if len(per_target) > 1 \
            else per_target[0]
        return callback_values.converting(self._callback_memory, descs, fn)

    def _callback_memory(self):
        """The memory a callback's described arguments are in: the
        device's for a module bound from one, else this process's."""
        if self._memory is None:
            self._memory = callback_values.LocalMemory(self.lib) \
                if isinstance(self._objects, cdata.Objects) \
                else callback_values.DeviceMemory(self._objects.mem)
        return self._memory

    def callback(self, name, fn, scope="call", any_thread=False):
        """lib.callback with the callback type's signature."""
        return self.lib.callback(self.signature(name), self.values(name, fn),
                                 scope, any_thread)


class _Sets:
    """Closure sets (IDL.md, "Closures kept by an owner"): one closure
    group per owner and set, claimed with scope forever on first use,
    each member calling the procedure last registered for it; released
    when the owner is freed."""

    def __init__(self, module, bound):
        self.bound = bound
        self.sets = {e["name"]: {"members": [(m["name"], m["callback"])
                                             for m in e["members"]],
                                 "groups": {}}
                     for e in module.closure_sets}

    def _key(self, owner, k, name):
        try:
            s = values.encode_pointer("p", owner)
        except values.Refusal as r:
            raise r.cls("bad argument #%d to '%s' (%s)" % (k, name, r.why)) \
                from None
        if s == 0:
            raise ArgumentError("bad argument #%d to '%s' (NULL owner)"
                                % (k, name))
        return s

    def _group(self, set_name, key):
        st = self.sets[set_name]
        g = st["groups"].get(key)
        if g is not None and g["closure"].live:
            return g, False
        g = {"procs": [None] * len(st["members"])}
        members = []
        for m, (member, cb_type) in enumerate(st["members"]):
            def member_fn(*args, m=m, member=member):
                proc = g["procs"][m]
                if proc is None:
                    raise Error("closures %s: no procedure for %s"
                                % (set_name, member))
                return proc(*args)
            members.append((self.bound.signature(cb_type),
                            self.bound.values(cb_type, member_fn)))
        g["closure"] = self.bound.lib.callback_group("forever", 0, *members)
        st["groups"][key] = g
        return g, True

    def closures(self, call, n, spec):
        """call with the owner's group in its [closures] and [context]
        slots; the context slot is no argument of the Python function."""
        context = spec.get("context")
        want = n - 1 if context else n
        name, members = spec["name"], spec["members"]

        def with_group(*given):
            if len(given) != want:
                raise count_error(name, want, len(given))
            args, j = [None] * n, 0
            for k in range(1, n + 1):
                if k != context:
                    args[k - 1], j = given[j], j + 1
            procs = {}
            for k in members:
                proc = args[k - 1]
                if proc is values.NULL:
                    proc = None
                if proc is not None and not callable(proc):
                    raise ArgumentError("bad argument #%d to '%s' (callable "
                                        "expected, got %s)"
                                        % (k, name, describe_type(proc)))
                procs[k] = proc
            owner = self._key(args[spec["owner"] - 1], spec["owner"], name)
            g, fresh = self._group(spec["set"], owner)
            g["closure"].fresh = fresh
            for k, m in members.items():
                g["procs"][m] = procs[k]
                args[k - 1] = g["closure"] if procs[k] is not None else None
            if context:
                args[context - 1] = g["closure"]
            try:
                return call(*args)
            finally:
                g["closure"].fresh = False
        return with_group

    def release(self, call, names):
        """call, then the owner's groups in the named sets released."""
        def releasing(owner, *rest):
            result = call(owner, *rest)
            try:
                key = values.encode_pointer("p", owner)
            except values.Refusal:
                return result
            for set_name in names:
                g = self.sets[set_name]["groups"].pop(key, None)
                if g is not None:
                    g["closure"].release()
            return result
        return releasing


def _remote_checked(lib, name, call):
    """call of a function of a module bound from a device (it has the
    constant abi.RPC_BOUND_MARKER; docs/RPC.md, "Calling through a bound
    module"): a failure of the remote call itself leaves zeroed results
    and shows only as the last error, so the last error is cleared before
    each call and such a failure raised after it as a RemoteError."""
    def checked(*args):
        lib.builtin("clear_error", 1)
        result = call(*args)
        st, msg = lib.last_error()
        if st in RPC_FAILURES:
            raise RemoteError("'%s': remote call failed: %s (NCCC_%s)"
                              % (name, msg, RPC_FAILURES[st]), status=st,
                              function=name)
        return result
    return checked


def _checking_closures(name, call, params, bound):
    """call, refusing before C runs a closure made for other callback
    signatures than the parameter's, or one of scope call where the
    parameter's scope is another (C would keep it past its release); a
    plain callable passed for a parameter of one callback type becomes a
    closure of the parameter's scope, released as that scope says."""
    want = {k: [bound.signature(t) for t in types]
            for k, (types, _) in params.items()}

    def mismatch(v, k):
        types, scope = params[k]
        if v.signatures != want[k]:
            return ArgumentError, "closure of %s '%s' expected, got one " \
                "of '%s'" % (", ".join(types), "', '".join(want[k]),
                             "', '".join(v.signatures))
        if v.scope == "call" and scope != "call":
            return ArgumentValueError, "closure of scope '%s' expected, " \
                "got one of scope 'call' (make it with scope '%s', or " \
                "pass a function)" % (scope, scope)
        return None, None

    def checked(*args):
        args, made = list(args), []
        try:
            for k, (types, scope) in params.items():
                v = args[k - 1] if k <= len(args) else None
                if isinstance(v, Closure):
                    cls, why = mismatch(v, k)
                    if why is not None:
                        err = cls("bad argument #%d to '%s' (%s)"
                                  % (k, name, why), function=name,
                                  parameter=k)
                        for a in args:
                            if isinstance(a, Closure):
                                a._nccc_refused()
                        raise err
                elif len(types) == 1 and callable(v):
                    c = bound.callback(types[0], v, scope)
                    c.fresh = True
                    args[k - 1] = c
                    made.append(c)
            return call(*args)
        finally:
            for c in made:
                c.fresh = False
    return checked


def _keeping(call, kept):
    """call, then each [kept] argument held by its owner's object (one
    with _nccc_keep: an owned object) until that object is freed; with
    an owner of another kind (an address) the caller keeps it alive."""
    def keeping(*args):
        result = call(*args)
        for e in kept:
            if e["owner"] <= len(args) and e["arg"] <= len(args):
                keep = getattr(args[e["owner"] - 1], "_nccc_keep", None)
                if keep is not None:
                    keep(e["arg"], args[e["arg"] - 1])
        return result
    return keeping


def _fast_options(rec):
    """The keyword options of lib.fast a function record asks for."""
    return {"nonnull": tuple(rec.get("nonnull", ())),
            "thunks": bool(rec.get("thunks"))}


def _set_specs(rec):
    """Per closure set a function record has slots of: {"set", "owner",
    "members": {position: member}, "context": position}."""
    specs = {}
    for c in rec.get("closures", ()):
        ref = c.get("set")
        if ref is None:
            continue
        spec = specs.setdefault(ref["name"], {
            "set": ref["name"], "owner": ref["owner"], "members": {},
            "name": rec["error_name"]})
        if "member" in ref:
            spec["members"][c["arg"]] = ref["member"]
        else:
            spec["context"] = c["arg"]
    return list(specs.values())


def _closure_params(rec):
    """{position: (callback type names, scope)} of a function record's
    closure arguments the caller passes (closure-set slots are the
    owner's)."""
    return {c["arg"]: (tuple(c["callbacks"]), c["scope"])
            for c in rec.get("closures", ()) if "set" not in c}


class Module:
    """A generated module's binding record (docs/BINDING.md: module,
    functions, callbacks, closure_sets, constants, layouts) and its
    record classes {layout name: Record class}."""

    def __init__(self, binding, records):
        self.name = binding["module"]
        self.functions = binding["functions"]
        self.callbacks = binding["callbacks"]
        self.closure_sets = binding["closure_sets"]
        self.constants = binding["constants"]
        self.layouts = binding.get("layouts", [])
        self.records = records

    def _open_module(self, lib):
        """A library made by nccc_add_bindings(... SHARED) exports
        nccc_<module>_open (":i"), which initialises its runtime and
        registers the module unless present."""
        if lib.handle is None:
            return
        try:
            addr = lib.symbol("nccc_%s_open" % self.name)
        except UnknownError:
            return
        st = lib.call_address(addr, ":i")
        if st != 0:
            raise Error("nccc: nccc_%s_open failed: %s (status 0x%x)" % (
                self.name, abi.STATUS_TEXT.get(st, "unknown status"), st),
                status=st)

    def bind(self, lib):
        """The module bound to lib (from nccc.open or nccc.bind)."""
        self._open_module(lib)
        b = Bound(self, lib)
        for layout_name, cls in self.records.items():
            lib.classes[layout_name] = cls
            setattr(b, layout_name, cls)
        sets = _Sets(self, b)
        consts = lib.constants(self.name)
        remote = abi.RPC_BOUND_MARKER in consts
        if remote:
            b._objects = remote_cdata.RemoteObjects(lib, self.name,
                                                    self.layouts, lib.classes)
        else:
            b._objects = cdata.Objects(lib, self.name, self.layouts,
                                       lib.classes)
        for rec in self.functions:
            name, qualified, sigs = rec["name"], rec["error_name"], \
                rec["signatures"]
            h = lib.lookup(qualified)
            have = lib.signature(h)
            keep = [t for t in b._targets
                    if (sigs[t] if len(sigs) > 1 else sigs[0]) == have]
            if not keep:
                raise Error("nccc: %s has signature '%s' in the library, not "
                            "the one %s.py was generated with"
                            % (qualified, have, self.name))
            b._targets = keep
            call = self._function(lib, b, sets, h, rec)
            if remote:
                call = _remote_checked(lib, qualified, remote_arguments.copying(
                    b._objects, rec, have, call))
            setattr(b, name, call)
        for rec in self.functions:
            params = _closure_params(rec)
            if params:
                name = rec["name"]
                setattr(b, name, _checking_closures(rec["error_name"],
                                                    getattr(b, name),
                                                    params, b))
        for c in self.constants:
            if c not in consts:
                raise Error("nccc: the library has no constant '%s.%s'"
                            % (self.name, c))
            setattr(b, c, consts[c])
        return b

    def _free(self, lib, b, free_name, frees_owner):
        if frees_owner:
            return lambda p: getattr(b, free_name)(p)
        return lib.fast(self.name + "." + free_name)

    def _function(self, lib, b, sets, h, rec):
        """The call of function record rec bound to handle h."""
        words = {}
        own = rec.get("owned")
        if own:
            free = self._free(lib, b, own["free"], own.get("frees"))
            words[own["result"]] = owned.owned_string(lib, free) \
                if own["kind"] == "string" else owned.owner(free, own["type"])
        for o in rec.get("owned_strings", ()):
            words[o["result"]] = owned.owned_string(
                lib, lib.fast(self.name + "." + o["free"]))
        for o in rec.get("owned_pointers", ()):
            words[o["result"]] = owned.owner(
                self._free(lib, b, o["free"], o.get("frees")), o["type"])
        call = lib.fast(h, words=words, **_fast_options(rec))
        for spec in _set_specs(rec):
            call = sets.closures(call, rec["in_count"], spec)
        if rec.get("frees"):
            call = sets.release(call, rec["frees"])
        if rec.get("kept"):
            call = _keeping(call, rec["kept"])
        return call
