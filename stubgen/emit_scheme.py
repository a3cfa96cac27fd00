"""The Scheme emitter: M.sls, the R6RS library (nccc M) over the support
library (nccc private module), the same file on Guile, Chez and Racket
(docs/SCHEME.md "Generated modules"), and two one-line ways in to it:
M.scm for Guile's (use-modules (nccc M)) and M.rkt for Racket's
(require nccc/M).

    (import (rnrs) (prefix (nccc tour) tour:))
    (tour:tour-bind! (nccc-load path))
    (tour:add 40 2)   ; => 42

The library is data and one maker per function: the module's binding
records (stubgen/model/binding.py, docs/BINDING.md) as one quoted
literal (objects as alists, arrays as lists) written by the shared
literal writer (stubgen/literal.py), and (%makeK f d ...), which makes
function K's procedure from the bound nccc function f (and the
destructors of its owned results), specialised from its slots.
make-module reads its tables off the records; M-bind! (module-bind!) looks every function up
once, checks its signature and calls the makers. The library exports a
procedure per function (its registry name), each constant as an
identifier whose value comes from the bound library, and M-bind!,
M-runtime, M-layout, M-callback, M-callback-signature, M-procedure,
M-new and M-view (C objects).
(rnrs) is imported under the prefix r: so that no C name can clash with
it; every name the support library exports holds a character C
identifiers cannot (% or -).
"""

from stubgen.abi import load as load_abi
from stubgen.ctype import VARIADIC, code_kind
from stubgen.host import HostModule
from stubgen.literal import LiteralSyntax, literal_lines
from stubgen.model.binding import records
from stubgen.model.lower import signatures
from stubgen.source import Source

# Kinds whose codes take one slot read or written inline by a fast
# function, the same on every target.
_FAST_IN_KINDS = ("bool", "int", "float", "pointer", "function")
_FAST_OUT_KINDS = _FAST_IN_KINDS + ("errno", "string")

# The signature codes, their kinds, widths and ranges (idl/abi.json).
_ABI = load_abi()
_HELPERS = ("bind!", "runtime", "layout", "callback", "callback-signature",
            "procedure", "new", "view")


def scheme_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


# Data in a quoted literal: lists, and objects as alists
SCHEME = LiteralSyntax(string=scheme_string, true="#t", false="#f",
                       list=("(", ")"), dict=("(", ")"),
                       key=lambda k: "(%s . " % k, entry_close=")",
                       comma="", separator=" ", last_comma=False)


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    m = host.name
    makers = [_Maker(k, e, host.qualified(e.name))
              for k, e in enumerate(host.functions)]
    src = Source()
    src.line("#!r6rs")
    src.line(";;; nccc/%s.sls: the nccc module %s for Scheme, %s." % (
        m, scheme_string(m), host.generated_by()))
    src.lines("""
        ;;; Data and one maker per function for (nccc private module)
        ;;; (docs/SCHEME.md, "Generated modules"): (%s-bind! (nccc-load path)),
        ;;; then a procedure per function and each constant by its name.
        """ % m)
    src.line("(library (nccc %s)" % m)
    src.indent()
    _exports(src, ["%s-%s" % (m, h) for h in _HELPERS],
             [f.name for f in host.functions] + host.constants)
    src.line("(import (prefix (rnrs) r:) (nccc private module))")
    src.blank()
    src.line(";; the module's binding records (docs/BINDING.md): objects as "
             "alists, arrays as lists")
    lines = literal_lines(records(module), SCHEME)
    src.line("(r:define %records")
    src.line("  (r:quote")
    for line in lines[:-1]:
        src.line("   " + line)
    src.line("   " + lines[-1] + "))")
    src.blank()
    src.line(";; (%makeK f destructor ...): function K's procedure, made"
             " at bind")
    for mk in makers:
        mk.write(src)
    src.blank()
    src.line("(r:define %module")
    names = ["%%make%d" % mk.k for mk in makers]
    rows = [" ".join(names[i:i + 8]) for i in range(0, len(names), 8)]
    if len(rows) <= 1:
        src.line("  (make-module %%records (r:vector%s)))"
                 % "".join(" " + r for r in rows))
    else:
        src.line("  (make-module %records (r:vector " + rows[0])
        for r in rows[1:-1]:
            src.line("                                  " + r)
        src.line("                                  %s)))" % rows[-1])
    src.line("(r:define %procedures (module-procedures %module))")
    src.line("(r:define (%s-bind! rt) (module-bind! %%module rt))" % m)
    src.line("(r:define (%s-runtime) (module-runtime %%module))" % m)
    src.line("(r:define (%s-layout name) (module-layout %%module name))"
             % m)
    src.line("(r:define (%s-callback name scope proc)" % m)
    src.line("  (module-callback %module name scope proc))")
    src.line("(r:define (%s-callback-signature name)" % m)
    src.line("  (module-callback-signature %module name))")
    src.line("(r:define (%s-procedure name) (module-procedure %%module "
             "name))" % m)
    src.line("(r:define (%s-new name . init) (r:apply module-new %%module "
             "name init))" % m)
    src.line("(r:define (%s-view name p . count) (r:apply module-view "
             "%%module name p count))" % m)
    src.blank()
    for mk in makers:
        src.line("(r:define-syntax %s (r:identifier-syntax (r:vector-ref "
                 "%%procedures %d)))" % (mk.name, mk.k))
    for k, c in enumerate(host.constants):
        src.line("(r:define-syntax %s (r:identifier-syntax "
                 "(module-constant %%module %d)))" % (c, k))
    src.dedent()
    src.line(")")
    return {m + ".sls": str(src), m + ".scm": _guile_entry(m, host),
            m + ".rkt": _racket_entry(m, host)}


def _exports(src, helpers, names):
    if not names:
        src.line("(export %s)" % " ".join(helpers))
        return
    src.line("(export %s" % " ".join(helpers))
    src.indent()
    for name in names[:-1]:
        src.line(name)
    src.line(names[-1] + ")")
    src.dedent()


def _guile_entry(m, host):
    """M.scm: what (use-modules (nccc M)) finds on Guile's load path
    (Guile looks for .scm files; .sls only with -x .sls)."""
    return _entry(m, host, [], "scm", "Guile's", "(use-modules (nccc %s))"
                  % m, "on the load path",
                  ['(include-from-path "nccc/%s.sls")' % m])


def _racket_entry(m, host):
    """M.rkt: what (require nccc/M) finds in the collection nccc."""
    return _entry(m, host, ["#lang racket/base"], "rkt", "Racket's",
                  "(require nccc/%s)" % m, "in the collection nccc",
                  ['(require "%s.sls")' % m,
                   '(provide (all-from-out "%s.sls"))' % m])


def _entry(m, host, head, ext, whose, finds, where, body):
    """A one-line way in to M.sls for one implementation's module system."""
    src = Source()
    for line in head:
        src.line(line)
    src.line(";;; nccc/%s.%s: %s way in to (nccc %s), %s." % (
        m, ext, whose, m, host.generated_by()))
    src.line(";;; %s finds this file %s; it is" % (finds, where))
    src.line(";;; the R6RS library %s.sls beside it, as it is." % m)
    for line in body:
        src.line(line)
    return str(src)


def _reader(c):
    if code_kind(c) == "float":
        return "slot-f64-ref"
    return "slot-s64-ref" if _ABI.code(c).signed else "slot-u64-ref"


class _Maker:
    """The maker of one function's procedure (%makeK), printed from its
    LoweredFunction f (stubgen/model/lower.py)."""

    def __init__(self, k, f, qualified):
        self.k = k
        self.f = f
        self.name = f.name
        self.ins, self.outs = f.in_slots, f.out_slots
        # errors name the function 'module.function' (CALLBACKS.md)
        self.who = "(r:quote %s)" % qualified
        # (out index, destructor, string?) of each owned result
        self.owned = [(o.index, o.destructor, o.string) for o in f.owned]
        self.destructors = {j: "d%d" % (j + 1) for j, _, _ in self.owned}
        self.args = ["a%d" % (i + 1) for i in range(len(self.ins))]

    def write(self, src):
        params = " ".join(["f"] + [self.destructors[j] for j, _, _ in
                                   self.owned])
        src.line("(r:define (%%make%d %s)" % (self.k, params))
        src.indent()
        if self.f.extra_out:
            src.line("(r:lambda (n-extra . args) (r:apply nccc-call* f "
                     "n-extra args)))")
        elif any(s.code == VARIADIC for s in self.ins):
            src.line("(r:lambda args (r:apply nccc-call f args)))")
        elif self._fast():
            src.line("(r:let-values ([(call in out) (%%nccc-bind-call f %d "
                     "%d)])" % (len(self.ins), len(self.outs)))
            src.indent()
            self._case_lambda(src, self._fast_body, "))")
            src.dedent()
        else:
            self._case_lambda(src, self._checked_body, ")")
        src.dedent()

    def _fast(self):
        return all(s.record is None and code_kind(s.code) in _FAST_IN_KINDS
                   for s in self.ins) and \
            all(s.record is None and code_kind(s.code) in _FAST_OUT_KINDS
                for s in self.outs)

    def _case_lambda(self, src, body, close):
        src.line("(r:case-lambda")
        src.indent()
        src.line("[(%s)" % " ".join(self.args))
        src.indent()
        body(src)
        src.dedent()
        src.line("[args (%%nccc-arity %s %d args)])%s"
                 % (self.who, len(self.ins), close))
        src.dedent()

    def _result(self, j, slot, raw):
        kind = code_kind(slot.code)
        if kind == "bool":
            return "(r:not (r:= 0 %s))" % raw
        if kind == "string":
            return "(%%nccc-string-result %s %s)" % (
                raw, self.destructors.get(j, "#f"))
        if j in self.destructors:
            return "(%%nccc-owned-result %s %s %s)" % (
                raw, self.destructors[j], scheme_string(slot.info.owned))
        return raw

    def _fast_body(self, src):
        """Inline checks per code, stores, the call, loads, then one look
        at the pending callback error."""
        conv = [self._arg(s, a) for s, a in zip(self.ins, self.args)]
        binds = " ".join("[x%d %s]" % (i + 1, e)
                         for i, (e, _) in enumerate(conv))
        src.line("(r:let (%s)" % binds)
        src.indent()
        for i, (_, setter) in enumerate(conv):
            src.line("(%s in %d x%d)" % (setter, 8 * i, i + 1))
        src.line("(call)")
        reads = " ".join("[y%d (%s out %d)]" % (j + 1, _reader(s.code), 8 * j)
                         for j, s in enumerate(self.outs))
        src.line("(r:let (%s)" % reads)
        src.indent()
        src.line("(r:if (r:vector-ref %nccc-pending 0) (%nccc-raise-pending))")
        results = [self._result(j, s, "y%d" % (j + 1))
                   for j, s in enumerate(self.outs)]
        src.line((results[0] if len(results) == 1 else
                  "(r:values %s)" % " ".join(results)) + "))]")
        src.dedent()
        src.dedent()

    def _arg(self, slot, v):
        """(expression of a fast in slot's value, its setter)."""
        c = slot.code
        code = _ABI.code(c)
        pos = self.f.position(slot)
        if code.kind == "int":
            # arg-int? is the adapter's cheap test; the rest go to %nccc-int
            return ("(r:if (arg-int? %s %d %d) %s (%%nccc-int %s %d %s #\\%s))"
                    % (v, code.min, code.max, v, self.who, pos, v, c),
                    "slot-s64-set!" if code.signed else "slot-u64-set!")
        if code.kind == "bool":
            return ("(r:if (r:boolean? %s) (r:if %s 1 0) (%%nccc-misuse %s "
                    "(r:quote type) \"bad argument #%d: expected a boolean\" "
                    "%s))" % (v, v, self.who, pos, v), "slot-u64-set!")
        if code.kind == "float" and code.bits == 64:
            return ("(r:if (arg-flonum? %s) %s (%%nccc-real %s %d %s))"
                    % (v, v, self.who, pos, v), "slot-f64-set!")
        if code.kind == "float":
            return ("(%%nccc-float %s %d %s)" % (self.who, pos, v),
                    "slot-u64-set!")
        # a pointer or function pointer
        return ("(%%nccc-pointer %s %d %s %s)"
                % (self.who, pos, v, self._null_ok(slot)),
                "slot-u64-set!")

    def _closure_scope(self, slot):
        """The scope a closure slot states (a quoted symbol), #f for the
        slot of a closure set (the owner's group)."""
        c = next((c for c in self.f.closures if c.slot is slot), None)
        if c is None or c.closures is not None:
            return "#f"
        return "(r:quote %s)" % c.scope

    def _closure_types(self, slot):
        """What a closure slot takes: per member, the signatures its
        callback type has on some target (the callback must have one of
        them); #f for the slot of a closure set (the owner's group)."""
        c = next((c for c in self.f.closures if c.slot is slot), None)
        if c is None or c.closures is not None:
            return "#f"
        return "(r:quote (%s))" % " ".join(
            "(%s)" % " ".join(scheme_string(sig) for sig in dict.fromkeys(
                signatures(p.callback.sig_in, p.callback.sig_out)))
            for p in c.params)

    def _null_ok(self, slot):
        return "#f" if slot in self.f.nonnull else "#t"

    def _checks(self):
        """The IDL's checks of the arguments, one expression each, and
        the arguments in closure slots."""
        f = self.f
        checks, closures = [], []
        for s, a in zip(self.ins, self.args):
            pos = f.position(s)
            kind = code_kind(s.code)
            if kind == "closure":
                closures.append(a)
                checks.append("(%%nccc-callback-arg %s %d %s %s %s %s)"
                              % (self.who, pos, a, self._null_ok(s),
                                 self._closure_types(s),
                                 self._closure_scope(s)))
            elif kind == "string" and s not in f.nullable:
                # [nonnull]: null; neither: a string is expected
                kind, text = (("null", "NULL where the IDL says nonnull")
                              if s in f.nonnull
                              else ("type", "expected a string"))
                checks.append("(r:unless %s (%%nccc-misuse %s (r:quote %s) "
                              "\"bad argument #%d: %s\"))"
                              % (a, self.who, kind, pos, text))
            elif kind == "pointer" or s in f.nonnull_values:
                # a [nonnull] function pointer is refused like a pointer
                checks.append("(%%nccc-pointer %s %d %s %s)"
                              % (self.who, pos, a, self._null_ok(s)))
        return checks, closures

    def _checked_body(self, src):
        """The IDL's checks, then nccc-call (after the thunk pool's last
        error is cleared, for a function binding a thunk). A check that
        refuses the call releases the call-scope closures passed to it
        (%nccc-refused); with one check only, the refused argument is the
        only closure, and not a live one."""
        f = self.f
        checks, closures = self._checks()
        if closures and len(checks) > 1:
            src.line("(r:guard (e [#t (%%nccc-refused e %s)])"
                     % " ".join(closures))
            for c in checks[:-1]:
                src.line("  " + c)
            src.line("  %s)" % checks[-1])
        else:
            for c in checks:
                src.line(c)
        call = "(%s f %s)" % ("%nccc-thunk-call" if f.thunks
                              else "nccc-call", " ".join(self.args))
        ys = ["y%d" % (j + 1) for j in range(len(self.outs))]
        post = [self._result(j, s, y) if j in self.destructors else y
                for j, (s, y) in enumerate(zip(self.outs, ys))]
        if post == ys:
            src.line(call + "]")
        else:
            src.line("(r:call-with-values (r:lambda () %s)" % call)
            src.line("  (r:lambda (%s) (r:values %s)))]"
                     % (" ".join(ys), " ".join(post)))
