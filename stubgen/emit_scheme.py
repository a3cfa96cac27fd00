"""The Scheme emitter: M.sls, the R6RS library (nccc M) over (nccc core),
the same file on Guile, Chez and Racket (docs/SCHEME.md "Generated
modules"), and two one-line ways in to it: M.scm for Guile's
(use-modules (nccc M)) and M.rkt for Racket's (require nccc/M).

    (import (rnrs) (prefix (nccc tour) tour:))
    (tour:tour-bind! (nccc-load path))
    (tour:add 40 2)   ; => 42

The library exports a procedure per function (its registry name), each
constant as an identifier whose value comes from the bound library, and
M-bind!, M-runtime, M-layout, M-callback. (rnrs) is imported under the
prefix r: so that no C name can clash with it; every internal name holds
a character C identifiers cannot (% or -).
"""

from stubgen.abi import load as load_abi
from stubgen.ctype import (CLOSURE_CODE, POINTER_CODE, STRING_CODE, VARIADIC,
                           code_kind)
from stubgen.host import HostModule
from stubgen.source import Source

# The signature codes, their kinds, widths and ranges (idl/abi.json).
_ABI = load_abi()

# Codes a fast function may have: one slot each, the same on every
# target, of a kind its procedure converts inline.
_FAST_IN = {c.code for c in _ABI.codes if c.in_ok and c.kind in
            ("bool", "int", "float", "pointer", "function")}
_FAST_OUT = {c.code for c in _ABI.codes if c.out_ok and c.kind in
             ("bool", "int", "float", "pointer", "function", "errno",
              "string")}

# Binding and helpers; @ stands for the module name.
_BIND = r'''
;; #(runtime functions constants targets) once bound
(r:define %state #f)

(r:define (%bound who)
  (r:unless %state
    (r:error who "the library is not bound: call @-bind! first" "@"))
  %state)

(r:define (%sig entry target)
  (r:vector-ref entry (r:if (r:= (r:vector-length entry) 2) 1 (r:+ target 1))))

;; Looks every function up once and keeps the targets whose signatures
;; the library's agree with; reads the constants.
(r:define (@-bind! rt)
  (r:let loop ([k 0] [targets (r:quote (0 1 2 3 4 5))] [fns (r:quote ())])
    (r:if (r:< k (r:vector-length %functions))
        (r:let* ([entry (r:vector-ref %functions k)]
                 [name (r:string-append "@." (r:vector-ref entry 0))]
                 [f (nccc-lookup rt name)]
                 [sig (nccc-function-signature f)]
                 [keep (r:filter (r:lambda (t) (r:string=? (%sig entry t) sig)) targets)])
          (r:when (r:null? keep)
            (r:error (r:quote @-bind!)
                     "the library's signature is not the one @.sls was generated with"
                     name sig))
          (loop (r:+ k 1) keep (r:cons f fns)))
        (r:let ([values (nccc-constants rt "@")] [fns (r:list->vector (r:reverse fns))])
          (r:set! %state
            (r:vector rt fns
                      (r:vector-map (r:lambda (name) (%value values name)) %constants)
                      targets))
          (%bind-functions! rt fns)))))

;; sig with the out code at index k replaced by code (an owned string
;; result read as an address, then freed)
(r:define (%out-as sig k code)
  (r:let loop ([i 0])
    (r:if (r:char=? (r:string-ref sig i) #\:)
        (r:string-append (r:substring sig 0 (r:+ i k 1)) (r:string code)
                         (r:substring sig (r:+ i k 2) (r:string-length sig)))
        (loop (r:+ i 1)))))

(r:define (%destructor rt name)
  (nccc-lookup rt (r:if (%dotted? name) name (r:string-append "@." name))))
(r:define (%dotted? name)
  (r:let loop ([i 0])
    (r:and (r:< i (r:string-length name))
           (r:or (r:char=? (r:string-ref name i) #\.) (loop (r:+ i 1))))))

;; What a fast function's name means until the library is bound.
(r:define (%unbound name j)
  (r:lambda args
    (%bound name)
    (r:apply (r:vector-ref %fast j) args)))

(r:define (%value values name)
  (r:let loop ([k 0])
    (r:cond [(r:= k (r:vector-length values))
             (r:error (r:quote @-bind!) "the library has no such constant"
                      (r:string-append "@." name))]
            [(r:string=? (r:vector-ref (r:vector-ref values k) 0) name)
             (r:vector-ref (r:vector-ref values k) 1)]
            [r:else (loop (r:+ k 1))])))

(r:define (%fn k) (r:vector-ref (r:vector-ref (%bound (r:quote @)) 1) k))
(r:define (%constant k) (r:vector-ref (r:vector-ref (%bound (r:quote @)) 2) k))

(r:define (@-runtime) (r:vector-ref (%bound (r:quote @-runtime)) 0))

(r:define (@-layout name)
  (nccc-layout (@-runtime) (r:string-append "@." name)))

(r:define (@-callback name scope proc)
  (nccc-callback (@-runtime) (@-callback-signature name) scope proc))

;; The signature of a callback type on the bound library's target.
(r:define (@-callback-signature name)
  (r:let ([state (%bound (r:quote @-callback))])
    (r:let loop ([k 0])
      (r:cond [(r:= k (r:vector-length %callbacks))
               (%nccc-misuse (r:quote @-callback) (r:quote unknown)
                             "no such callback type" (r:string-append "@." name))]
              [(r:string=? (r:vector-ref (r:vector-ref %callbacks k) 0) name)
               (%sig (r:vector-ref %callbacks k) (r:car (r:vector-ref state 3)))]
              [r:else (loop (r:+ k 1))]))))
'''


def scheme_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _table(src, name, rows):
    """(r:define name (r:quote #(...))): rows are lists of strings (a
    vector each) or strings."""
    def item(row):
        if isinstance(row, str):
            return scheme_string(row)
        return "#(%s)" % " ".join(scheme_string(s) for s in row)
    if not rows:
        src.line("(r:define %s (r:quote #()))" % name)
        return
    src.line("(r:define %s" % name)
    src.indent()
    src.line("(r:quote")
    src.line(" #(" + item(rows[0]))
    for row in rows[1:]:
        src.line("   " + item(row))
    src.line("   )))")
    src.dedent()


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    m = host.name
    src = Source()
    src.line("#!r6rs")
    src.line(";;; nccc/%s.sls: the nccc module %s for Scheme, %s." % (
        m, scheme_string(m), host.generated_by()))
    src.lines("""
        ;;; Conversions are (nccc core)'s, from the registry's signatures
        ;;; (docs/SCHEME.md, "Generated modules"): (%s-bind! (nccc-load path)),
        ;;; then a procedure per function and each constant by its name.
        """ % m)
    src.line("(library (nccc %s)" % m)
    src.indent()
    exports = ["%s-%s" % (m, h) for h in ("bind!", "runtime", "layout",
                                           "callback", "callback-signature",
                                           "procedure")]
    names = [f.name for f in host.functions] + host.constants
    if not names:
        src.line("(export %s)" % " ".join(exports))
    else:
        src.line("(export %s" % " ".join(exports))
        src.indent()
        for name in names[:-1]:
            src.line(name)
        src.line(names[-1] + ")")
        src.dedent()
    src.line("(import (prefix (rnrs) r:) (nccc core) (nccc private module))")
    src.blank()
    src.line(";; #(registry name signature) or #(name signature-per-target ...)"
             " (stubgen/host.py)")
    _table(src, "%functions",
           [[f.name] + f.signatures for f in host.functions])
    _table(src, "%callbacks",
           [[c.name] + c.signatures for c in host.callbacks])
    _table(src, "%constants", host.constants)
    src.lines(_BIND.replace("@", m))
    src.blank()
    plans = []
    for k, f in enumerate(host.functions):
        plans.append(_plan(m, k, f, sum(p.fast is not None for p in plans)))
    src.line(";; Per function: its buffers and primitive (fast ones), "
             "destructors")
    for plan in plans:
        for var in plan.state:
            src.line("(r:define %s #f)" % var)
    fast = [(k, f) for k, f in enumerate(host.functions)
            if plans[k].fast is not None]
    src.line(";; The procedures of fast functions, made at bind: until then one"
             " that")
    src.line(";; raises \"not bound\" (or, kept from before, calls the bound"
             " one)")
    src.line("(r:define %%fast (r:vector%s))" % "".join(
        " (%%unbound (r:quote %s) %d)" % (f.name, plans[k].fast)
        for k, f in fast))
    src.line("(r:define (%bind-functions! rt fns)")
    src.indent()
    src.line("#t")
    for plan in plans:
        for line in plan.bind:
            src.line(line)
    src.line(")")
    src.dedent()
    src.blank()
    for plan in plans:
        src.lines(plan.code)
    src.line(";; (M-procedure \"name\"): a function's procedure by its name, or #f")
    src.line("(r:define (%s-procedure name)" % m)
    src.indent()
    src.line("(r:let ([hit (r:assoc name (r:list %s))]) (r:and hit (r:cdr hit))))"
             % " ".join("(r:cons %s %s)" % (scheme_string(f.name), f.name)
                        for f in host.functions))
    src.dedent()
    src.blank()
    for k, f in fast:
        src.line("(r:define-syntax %s (r:identifier-syntax (r:vector-ref %%fast %d)))"
                 % (f.name, plans[k].fast))
    for k, c in enumerate(host.constants):
        src.line("(r:define-syntax %s (r:identifier-syntax (%%constant %d)))"
                 % (c, k))
    src.dedent()
    src.line(")")
    return {m + ".sls": str(src), m + ".scm": _guile_entry(m, host),
            m + ".rkt": _racket_entry(m, host)}


def _guile_entry(m, host):
    """M.scm: what (use-modules (nccc M)) finds on Guile's load path
    (Guile looks for .scm files; .sls only with -x .sls)."""
    return (";;; nccc/%s.scm: Guile's way in to (nccc %s), %s.\n"
            ";;; (use-modules (nccc %s)) finds this file on the load path; it is\n"
            ";;; the R6RS library %s.sls beside it, as it is.\n"
            "(include-from-path \"nccc/%s.sls\")\n"
            % (m, m, host.generated_by(), m, m, m))


def _racket_entry(m, host):
    """M.rkt: what (require nccc/M) finds in the collection nccc."""
    return ("#lang racket/base\n"
            ";;; nccc/%s.rkt: Racket's way in to (nccc %s), %s.\n"
            ";;; (require nccc/%s) finds this file in the collection nccc; it is\n"
            ";;; the R6RS library %s.sls beside it, as it is.\n"
            "(require \"%s.sls\")\n"
            "(provide (all-from-out \"%s.sls\"))\n"
            % (m, m, host.generated_by(), m, m, m, m))


class _Plan:
    def __init__(self):
        self.fast = None     # index in %fast of its procedure made at bind
        self.state = []      # module variables set at bind
        self.bind = []       # lines of %bind-functions!
        self.code = ""       # the procedure


def _arg_in(slot, v, pos, name, nonnull):
    """(expression of the slot value, setter) for a fast in slot;
    nonnull: the slot refuses NULL."""
    code = _ABI.code(slot.code)
    who = "(r:quote %s)" % name
    if code.kind == "int":
        # arg-int? is the adapter's cheap test; the rest go to %nccc-int
        wide = code.bits == 64 and not code.signed
        return ("(r:if (arg-int? %s %d %d) %s (%%nccc-int %s %d %s #\\%s))"
                % (v, code.min, code.max, v, who, pos, v, code.code),
                "slot-u64-set!" if wide else "slot-s64-set!")
    if code.kind == "bool":
        return ("(r:if (r:boolean? %s) (r:if %s 1 0) (%%nccc-misuse %s "
                "(r:quote type) \"bad argument #%d: expected a boolean\" %s))"
                % (v, v, who, pos, v), "slot-u64-set!")
    if code.kind == "float" and code.bits == 64:
        return ("(r:if (arg-flonum? %s) %s (%%nccc-real %s %d %s))"
                % (v, v, who, pos, v), "slot-f64-set!")
    if code.kind == "float":
        return "(%%nccc-float %s %d %s)" % (who, pos, v), "slot-u64-set!"
    # a pointer or function pointer
    return ("(%%nccc-pointer %s %d %s %s)"
            % (who, pos, v, "#f" if nonnull else "#t"),
            "slot-u64-set!")


def _result(slot, raw, destructor, owned):
    """The Scheme value of an out slot, from raw (an expression of the
    slot read signed or unsigned as _reader says); destructor: the
    variable holding the destructor of an owned value (owned: its
    Owned), else None."""
    kind = code_kind(slot.code)
    if kind == "bool":
        return "(r:not (r:= 0 %s))" % raw
    if kind == "string":
        return "(%%nccc-string-result %s %s)" % (raw, destructor or "#f")
    if kind == "pointer" and destructor:
        return "(%%nccc-owned-result %s %s %s)" % (
            raw, destructor, scheme_string(owned.destructor))
    return raw


def _reader(c):
    code = _ABI.code(c)
    if code.kind == "float":
        return "slot-f64-ref"
    signed = code.signed and code.kind in ("int", "errno")
    return "slot-s64-ref" if signed else "slot-u64-ref"


def _plan(m, k, f, fast_index):
    """The code of function k, printed from its LoweredFunction f."""
    d = f.function
    name = f.name
    plan = _Plan()
    fast = (not f.extra_out
            and all(s.record is None and s.code in _FAST_IN for s in d.in_slots)
            and all(s.record is None and s.code in _FAST_OUT
                    for s in d.out_slots))
    n = len(d.in_slots)
    args = ["a%d" % (i + 1) for i in range(n)]
    lines = []
    # destructors of owned results
    destructors, owned = {}, {}
    for o in f.owned:
        var = "%%d%d_%d" % (k, o.index)
        plan.state.append(var)
        plan.bind.append("(r:set! %s (%%destructor rt %s))"
                         % (var, scheme_string(o.destructor)))
        destructors[o.index], owned[o.index] = var, o
    if f.extra_out or any(s.code == VARIADIC for s in d.in_slots):
        lines.append("(r:define (%s . args) (r:apply nccc-call%s (%%fn %d) "
                     "args))" % (name, "*" if f.extra_out else "", k)
                     if not f.extra_out else
                     "(r:define (%s n-extra . args) (r:apply nccc-call* "
                     "(%%fn %d) n-extra args))" % (name, k))
        plan.code = "\n".join(lines) + "\n"
        return plan
    if fast:
        # made at bind, closed over the function's primitive and its two
        # buffers; the library's name for it reads the vector %fast
        plan.fast = fast_index
        plan.bind.append(
            "(r:let-values ([(c i o) (%%nccc-bind-call (r:vector-ref fns %d) "
            "%d %d)]) (r:vector-set! %%fast %d (%%make%d c i o)))"
            % (k, n, len(d.out_slots), fast_index, k))
        lines.append("(r:define (%%make%d call in out)" % k)
        lines.append("  (r:case-lambda")
        lines.append("   [(%s)" % " ".join(args))
        conv = [_arg_in(s, a, f.position(s), name, s in f.nonnull)
                for s, a in zip(d.in_slots, args)]
        binds = " ".join("[x%d %s]" % (i + 1, e) for i, (e, _) in
                         enumerate(conv))
        lines.append("    (r:let (%s)" % binds)
        for i, (_, setter) in enumerate(conv):
            lines.append("      (%s in %d x%d)" % (setter, 8 * i, i + 1))
        lines.append("      (call)")
        reads = " ".join("[y%d (%s out %d)]" % (j + 1, _reader(s.code), 8 * j)
                         for j, s in enumerate(d.out_slots))
        lines.append("      (r:let (%s)" % reads)
        lines.append("        (r:if (r:vector-ref %nccc-pending 0) "
                     "(%nccc-raise-pending))")
        results = [_result(s, "y%d" % (j + 1), destructors.get(j),
                           owned.get(j))
                   for j, s in enumerate(d.out_slots)]
        if len(results) == 1:
            lines.append("        %s))]" % results[0])
        else:
            lines.append("        (r:values %s)))]" % " ".join(results))
    else:
        lines.append("(r:define %s" % name)
        lines.append("  (r:case-lambda")
        lines.append("   [(%s)" % " ".join(args))
        who = "(r:quote %s)" % name
        for s, a in zip(d.in_slots, args):
            pos = f.position(s)
            null_ok = "#f" if s in f.nonnull else "#t"
            if s.code == CLOSURE_CODE:
                lines.append("    (%%nccc-callback-arg %s %d %s %s)"
                             % (who, pos, a, null_ok))
            elif s.code == STRING_CODE and s not in f.nullable:
                # [nonnull]: null; neither: a string is expected
                kind, text = (("null", "NULL where the IDL says nonnull")
                              if s in f.nonnull
                              else ("type", "expected a string"))
                lines.append("    (r:unless %s (%%nccc-misuse %s (r:quote %s) "
                             "\"bad argument #%d: %s\"))"
                             % (a, who, kind, pos, text))
            elif s.code == POINTER_CODE or s in f.nonnull_values:
                # a [nonnull] function pointer is refused like a pointer
                lines.append("    (%%nccc-pointer %s %d %s %s)"
                             % (who, pos, a, null_ok))
        call = "(%s (%%fn %d) %s)" % ("%nccc-thunk-call" if f.thunks
                                       else "nccc-call", k, " ".join(args))
        results = ["y%d" % (j + 1) for j in range(len(d.out_slots))]
        post = [_result(s, y, destructors[j], owned[j])
                if j in destructors else y
                for j, (s, y) in enumerate(zip(d.out_slots, results))]
        if post == results:
            lines.append("    %s]" % call)
        else:
            lines.append("    (r:call-with-values (r:lambda () %s)" % call)
            lines.append("      (r:lambda (%s) (r:values %s)))]"
                         % (" ".join(results), " ".join(post)))
        for j, s in enumerate(d.out_slots):
            if j in destructors and s.code == STRING_CODE:
                plan.bind.append(
                    "(r:vector-set! fns %d (nccc-function-at rt "
                    "(nccc-function-address (r:vector-ref fns %d)) (%%out-as "
                    "(nccc-function-signature (r:vector-ref fns %d)) %d #\\%s) "
                    "%s))" % (k, k, k, j, POINTER_CODE,
                              scheme_string(m + "." + name)))
    lines.append("   [args (%%nccc-arity (r:quote %s) %d args)]))" % (name, n))
    plan.code = "\n".join(lines) + "\n"
    return plan
