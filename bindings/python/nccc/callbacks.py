"""C calling Python back (docs/PYTHON.md, "Callbacks"): closures claimed
from the runtime whose target is the primitive's one dispatcher and whose
environment word names a Python callable kept by the primitive, with its
arguments and results converted by the callback's signature."""

from nccc import abi, signature, values
from nccc.errors import (ArgumentError, ArgumentValueError, Error,
                         describe_type)
from nccc.primitive import core
from nccc.signature import RECORD

ST = abi.STATUS


class Closure(values.Ending):
    """A claimed closure (or group): pass it where a callback goes.
    release() ends it now; with-blocks release it on exit."""
    _ENDS = "release"

    def __init__(self, lib, scope, signatures):
        self.lib, self.scope, self.signatures = lib, scope, signatures
        self.live, self.fresh, self.ctx = True, False, 0

    @property
    def signature(self):
        return self.signatures[0]

    def __repr__(self):
        return "<nccc closure %s, %s%s>" % ("/".join(self.signatures),
                                            self.scope,
                                            "" if self.live else ", released")

    def release(self):
        """Releases the closure now (notices included): True, or False if
        it was released already."""
        if not self.live:
            return False
        return self.lib.builtin("closure_release", 1, self.ctx)[0] == 0

    def context(self):
        """The context C gets, as an int."""
        return self.ctx

    def _nccc_context(self):
        if not self.live:
            raise values.Refusal(ArgumentValueError, "closure was released")
        return self.ctx

    _nccc_address = _nccc_context

    def _nccc_refused(self):
        if self.live and (self.scope == "call" or self.fresh):
            self.release()


def _result_converter(sig, outs):
    def conv(k, v):
        if k > 0:
            return v
        item = outs[-k - 1]
        try:
            if item.code == RECORD:
                return values.pack_record(item.layout, v)
            return values.encode(item.code, v)
        except values.Refusal as r:
            raise r.cls("callback %s: bad result #%d (%s)" % (sig, -k, r.why)) \
                from None
    return conv


class Callbacks:
    """The library object's callbacks (a part of nccc.Library, composed in
    nccc/__init__.py): the dispatcher, callback, callback_group and
    closure_stats."""

    def _dispatcher(self):
        """The dispatcher's address, registered once per bound runtime
        under KIND.dispatch for tools to see (a name taken already
        changes nothing: closures target it anyway)."""
        if self._dispatch is None:
            d = core.dispatcher()
            sig = self.cstring(abi.CLOSURE_TARGET_SIGNATURE)
            try:
                self._with_cstring("python.dispatch", "register", 2, d, sig, 0)
            finally:
                self.free(sig)
            self._dispatch = d
        return self._dispatch

    def _sig_cstring(self, sig):
        p = self._sig_cstrings.get(sig)
        if p is None:
            p = self._sig_cstrings[sig] = self.cstring(sig)
        return p

    def _member(self, sig, fn, obj, k, any_thread):
        """fn kept by the primitive for one member; its env word."""
        if not isinstance(sig, str):
            raise ArgumentError("bad callback #%d (signature string "
                                "expected)" % k)
        if not callable(fn):
            raise ArgumentError("bad callback #%d (callable expected, got "
                                "%s)" % (k, describe_type(fn)))
        ins, var_in, outs, var_out = signature.parse(sig)
        if var_in or var_out:
            raise Error("a callback signature cannot end in '*'")
        signature.size_side(ins, self.find_layout, "callback " + sig)
        signature.size_side(outs, self.find_layout, "callback " + sig)
        if any(it.code == "s" for it in outs):
            raise Error("callback %s: cannot return a string (nothing would "
                        "own its memory)" % sig)
        classes = self.classes

        def arg(k, v):
            return values.unpack_record(ins[k - 1].layout, v, classes)

        def conv(k, v, result=_result_converter(sig, outs)):
            return arg(k, v) if k > 0 else result(k, v)

        def notice():
            obj.live = False
        return core.ref(fn, signature.spec(ins), signature.spec(outs),
                        notice, conv, any_thread)

    def _flags(self, scope, any_thread):
        if scope not in abi.SCOPES:
            raise ArgumentValueError("unknown scope '%s' (call, async, "
                                     "notified or forever)" % (scope,))
        flags = abi.SCOPES[scope] | abi.CLOSURE_NOTIFY
        return flags if any_thread else flags | abi.CLOSURE_THREAD

    def _claim_failed(self, envs, st, what):
        for env in envs:
            core.unref(env)
        msg = self.last_error()[1]
        if st == ST["ERR_POOL_EXHAUSTED"]:
            raise Error("closure pool exhausted: " + msg, status=st)
        raise Error("cannot claim a %s: %s" % (what, msg), status=st)

    def callback(self, sig, fn, scope="call", any_thread=False):
        """A closure for fn, to pass in a 'c' slot. sig is the callback
        type's signature (its slots after in[0]); scope is "call",
        "async", "notified" or "forever"; any_thread=True lets threads
        other than this one call it (the dispatcher takes the GIL)."""
        flags = self._flags(scope, any_thread)
        obj = Closure(self, scope, [sig])
        env = self._member(sig, fn, obj, 1, any_thread)
        outs = self.builtin("closure_claim_typed", 2, self._dispatcher(), env,
                            flags, self._sig_cstring(sig))
        if outs[0] != 0:
            self._claim_failed([env], outs[0], "closure")
        obj.ctx = outs[1]
        return obj

    def callback_group(self, scope, final, *members, any_thread=False):
        """Callbacks of one C function sharing one context: each member a
        (sig, fn) pair; final (from 0) the member whose call ends an async
        group."""
        flags = self._flags(scope, any_thread)
        if not members:
            raise ArgumentError("callback_group needs at least one (sig, fn)")
        if not isinstance(final, int) or not 0 <= final < len(members):
            raise ArgumentError("bad argument #2 to 'callback_group' (a "
                                "member index expected)")
        obj = Closure(self, scope, [])
        args, envs, d = [flags, final, len(members)], [], self._dispatcher()
        for k, m in enumerate(members, 1):
            if not isinstance(m, (tuple, list)) or len(m) != 2:
                for env in envs:
                    core.unref(env)
                raise ArgumentError("bad callback #%d ((sig, fn) expected)"
                                    % k)
            envs.append(self._member(m[0], m[1], obj, k, any_thread))
            obj.signatures.append(m[0])
            args += [d, envs[-1], self._sig_cstring(m[0])]
        outs = self.builtin("closure_claim_group_typed", 2, *args)
        if outs[0] != 0:
            self._claim_failed(envs, outs[0], "closure group")
        obj.ctx = outs[1]
        return obj
