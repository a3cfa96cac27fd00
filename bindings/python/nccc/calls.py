"""Calling nccc functions (docs/PYTHON.md, "Calling"): each function's
converter and call made once from its signature by the primitive
(Function: C with vectorcall, or ctypes), the generic path for results
that end in '*', and calls by address."""

from nccc import abi, library, signature, values
from nccc.errors import (ArgumentError, ArgumentValueError, Error,
                         UnknownError, bad_argument, callback_error,
                         count_error, describe_type, refused_by_c)
from nccc.primitive import core
from nccc.signature import RECORD

ST = abi.STATUS
# '*' sides sized by an argument: the built-ins' and tvm's packed calls
# (a value and a type code per argument), the ABI's table
VAR_SIZE = abi.SIZED


# What C's wrapper refuses itself (the ABI's refusals): a call by name or
# handle, which no generated module checks first, of a function with an
# argument of such a kind is checked for C's refusal (docs/CALLBACKS.md,
# "Refused calls"); the modules whose functions give a status are not.
STATUS_MODULES = (abi.BUILTINS_MODULE, abi.PACKED_MODULE)
REFUSALS = frozenset(ST[name] for name in abi.REFUSAL_STATUSES)


class Described:
    """A callable description: name, address, signature, items, counts;
    refusable: C's wrapper may refuse a call the caller did not check."""

    def __init__(self, lib, name, addr, sig, mi):
        self.name, self.addr, self.signature = name, addr, sig
        self.ins, self.var_in, self.outs, self.var_out = signature.parse(sig)
        self.refusable = name.partition(".")[0] not in STATUS_MODULES and \
            any(abi.CODES[it.code].kind in abi.REFUSAL_KINDS for it in self.ins
                if it.code in abi.CODES)
        self.checked = None

        def find(type_name):
            return lib.find_layout(type_name, mi)
        self.nin = signature.size_side(self.ins, find, name)
        self.nout = signature.size_side(self.outs, find, name)
        self.nargs = len(self.ins)
        self.handle = None
        self.plain = None


def _refused_closures(args):
    """A call refused before C runs ends the closures C's wrapper would
    have ended: the "call"-scope ones among its arguments, and a group a
    generated module claimed for this call (fresh)."""
    for a in args:
        if getattr(a, "_nccc_refused", None) is not None:
            a._nccc_refused()


KEY = abi.HELPER_KEYS


def _slow(f, nonnull):
    def slow(k, v):
        if k == KEY["count"]:
            raise count_error(f.name, f.nargs, v, f.var_in)
        if k == KEY["callback_errors"]:
            raise callback_error(v)
        if k == KEY["keywords"]:
            raise ArgumentError("'%s' takes no keyword arguments" % f.name,
                                function=f.name)
        try:
            return _convert(f, k, v, k in nonnull)
        except values.Refusal as r:
            raise bad_argument(r.cls, k, f.name, r.why) from None
    return slow


def _convert(f, k, v, nonnull):
    if k > f.nargs:
        return values.encode_raw(v)
    item = f.ins[k - 1]
    code = item.code
    if nonnull and (v is None or v is values.NULL or
                    (type(v) is int and v == 0)):
        raise values.null_refusal(code)
    if code == RECORD:
        return values.pack_record(item.layout, v)
    kind = abi.CODES[code].kind
    if kind == "string":
        if v is values.NULL:
            return 0
        if isinstance(v, (str, bytes)):
            raise values.Refusal(ArgumentValueError,
                                 "string contains a NUL byte")
        raise values.type_refusal(code, v)
    if kind == "closure":
        if v is None or v is values.NULL:
            return 0
        address = getattr(v, "_nccc_context", None)
        if address is None:
            raise values.type_refusal(code, v)
        return address()
    return values.encode(code, v)


def _post(lib, f, words):
    def post(k, v):
        conv = words.get(k)
        if conv is not None:
            return conv(v)
        return values.unpack_record(f.outs[k - 1].layout, v, lib.classes)
    return post


class Calls:
    """The library object's calls (a part of nccc.Library, composed in
    nccc/__init__.py): fast, call, call_var, call_address, and the
    descriptions of functions they use."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.classes = {}      # layout name -> generated Record class

    def _describe_handle(self, h):
        f = self._functions.get(h)
        if f is not None:
            return f
        outs = self.builtin("function", 6, h)
        if outs[0] != 0:
            raise UnknownError("unknown function handle %r" % (h,),
                               status=outs[0])
        mi = (h >> abi.HANDLE["module_shift"]) & abi.HANDLE["index_mask"]
        minfo = self.builtin("module_info", 5, mi)
        mname = self._cstring(minfo[1]) if minfo[0] == 0 else ""
        name = self._cstring(outs[2])
        label = mname + "." + name if mname else name
        f = Described(self, label, outs[1], self._cstring(outs[3]), mi)
        f.handle = h
        var = abi.SLOTS_VARIABLE
        if (outs[4] >= var) != f.var_in or outs[4] % var != f.nin or \
                (outs[5] >= var) != f.var_out or outs[5] % var != f.nout:
            raise Error("nccc: %s: signature '%s' does not match its slot "
                        "counts %d:%d" % (label, f.signature, outs[4],
                                          outs[5]))
        self._functions[h] = f
        return f

    def describe(self, key):
        """The description of a function by name or handle, cached."""
        f = self._functions.get(key)
        if f is not None:
            return f
        if isinstance(key, str):
            f = self._describe_handle(self.lookup(key))
        elif isinstance(key, int) and not isinstance(key, bool):
            f = self._describe_handle(key)
        else:
            raise ArgumentError("function name or handle expected, got %s"
                                % describe_type(key))
        self._functions[key] = f
        return f

    def signature(self, key):
        """The signature string of a function (name or handle)."""
        return self.describe(key).signature

    def _make(self, f, nonnull=(), words=None, thunks=False):
        words = words or {}
        if f.var_out:
            def needs_count(*args):
                raise ArgumentError(
                    "'%s' expects a count of extra out slots (its results "
                    "end in '*'): call it with lib.call_var(name, count, "
                    "...)" % f.name, function=f.name)
            return needs_count
        has_closures = any(abi.CODES.get(it.code) and
                           abi.CODES[it.code].kind == "closure"
                           for it in f.ins)
        fn = core.function(
            f.addr, signature.spec(f.ins, f.var_in, nonnull),
            signature.spec(f.outs, False, (), words), f.name,
            _slow(f, nonnull), _post(self, f, words),
            _refused_closures if has_closures else None)
        rule = VAR_SIZE.get(f.name)
        if rule is not None and f.var_in and not rule.out:
            fn = self._var_checked(f, rule, fn)
        if thunks:
            fn = self._thunk_checked(f, fn)
        return fn

    def _var_checked(self, f, rule, fn):
        def checked(*args):
            if len(args) > rule.arg and isinstance(args[rule.arg], int):
                need = library.slots_for(rule, args[rule.arg]) \
                    if args[rule.arg] >= 0 else 0
                got = len(args) - f.nargs
                if got < need:
                    raise ArgumentError(
                        "'%s' expects %d slot%s after its %d fixed arguments,"
                        " got %d" % (f.name, need, "" if need == 1 else "s",
                                     f.nargs, got), function=f.name)
            return fn(*args)
        return checked

    def _thunk_checked(self, f, fn):
        """A function binding a thunk: a full pool shows only as the
        runtime's last error, cleared before the call and read after."""
        def checked(*args):
            self.builtin("clear_error", 1)
            result = fn(*args)
            st, msg = self.last_error()
            if st == ST["ERR_POOL_EXHAUSTED"]:
                if "pool" not in msg:
                    msg = "thunk pool exhausted: " + msg
                raise Error("'%s': %s" % (f.name, msg), status=st,
                            function=f.name)
            return result
        return checked

    def fast(self, key, nonnull=(), words=None, thunks=False):
        """The function as a callable that converts and calls, made once:
        what generated modules bind. nonnull: 1-based argument positions
        refused when NULL; words: {result position: conversion of its raw
        slot} (owned results); thunks: the function binds a thunk."""
        f = self.describe(key)
        if not nonnull and not words and not thunks:
            return self._plain(f)
        return self._make(f, frozenset(nonnull), words, thunks)

    def call(self, key, *args):
        """Calls a function by name or handle: its results (the return
        value, then [out]/[inout] values, then errno) as None, one value
        or a tuple. A call C's wrapper refuses raises."""
        f = self.describe(key)
        if not f.refusable:
            return self._plain(f)(*args)
        if f.checked is None:
            f.checked = self._refusal_checked(f, self._plain(f))
        return f.checked(*args)

    def _refusal_checked(self, f, fn):
        """fn raising the error of a call C's wrapper refused, which shows
        only as the runtime's last error, cleared before the call."""
        def checked(*args):
            self.builtin("clear_error", 1)
            result = fn(*args)
            st, msg = self.last_error()
            if st in REFUSALS:
                raise refused_by_c(f.name, st, msg, ST)
            return result
        return checked

    def call_var(self, key, count, *args):
        """A function whose results end in '*' (nccc.read): its results,
        then count raw slots, as a tuple."""
        f = self.describe(key)
        if not f.var_out:
            raise ArgumentError("'%s': its results do not end in '*' (use "
                                "lib.call)" % f.name, function=f.name)
        if not isinstance(count, int) or not 0 <= count <= 1 << 20:
            raise ArgumentError("bad argument #2 to 'call_var' (a count of "
                                "slots expected)")
        rule = VAR_SIZE.get(f.name)
        if rule is not None and rule.out and len(args) > rule.arg:
            need = library.slots_for(rule, args[rule.arg])
            if count < need:
                raise ArgumentError(
                    "'%s' expects %d extra out slot%s for its arguments, got "
                    "a count of %d" % (f.name, need, "" if need == 1 else "s",
                                       count), function=f.name)
        return self._invoke(f, count, args)

    def _invoke(self, f, extra, args):
        if len(args) != f.nargs and not (f.var_in and len(args) > f.nargs):
            raise count_error(f.name, f.nargs, len(args), f.var_in)
        slow, slots, temps = _slow(f, ()), [], []
        try:
            for k, v in enumerate(args, 1):
                if k <= f.nargs and f.ins[k - 1].code == "s" and \
                        isinstance(v, str) and "\0" not in v:
                    temps.append(self.cstring(v))
                    slots.append(temps[-1])
                    continue
                s = slow(k, v)
                if isinstance(s, bytes):
                    s += bytes(-len(s) % 8)
                    slots.extend(int.from_bytes(s[j:j + 8], values.ORDER)
                                 for j in range(0, len(s), 8))
                else:
                    slots.append(s)
            outs, errors = core.call(f.addr, slots, f.nout + extra)
        finally:
            for p in temps:
                self.free(p)
        if errors:
            raise callback_error(errors)
        results, pos = [], 0
        for item in f.outs:
            if item.code == RECORD:
                data = b"".join(outs[pos + j].to_bytes(8, values.ORDER)
                                for j in range(item.slots))
                results.append(values.unpack_record(
                    item.layout, data[:item.layout.size], self.classes))
            elif item.code == "s":
                results.append(self.string(outs[pos]))
            else:
                results.append(values.decode(item.code, outs[pos]))
            pos += item.slots
        return tuple(results) + tuple(outs[f.nout:])

    def call_address(self, addr, sig, *args):
        """Calls the nccc function at an address as if it had signature
        sig."""
        if not isinstance(addr, int) or addr <= 0:
            raise ArgumentError("bad argument #1 to 'call_address' (%s)" % (
                "NULL function" if addr == 0 else "address expected"))
        key = (addr, sig)
        f = self._functions.get(key)
        if f is None:
            f = Described(self, "nccc_fn at 0x%x" % addr, addr, sig, None)
            self._functions[key] = f
        return self._plain(f)(*args)

    def _plain(self, f):
        if f.plain is None:
            f.plain = self._make(f)
        return f.plain
