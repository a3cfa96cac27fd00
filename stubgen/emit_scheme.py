"""The Scheme emitter: M.sls, the R6RS library (nccc M) over (nccc core),
the same file on Guile, Chez and Racket (docs/SCHEME.md "Generated
modules").

    (import (rnrs) (prefix (nccc tour) tour:))
    (tour:tour-bind! (nccc-load path))
    (tour:add 40 2)   ; => 42

The library exports a procedure per function (its registry name), each
constant as an identifier whose value comes from the bound library, and
M-bind!, M-runtime, M-layout, M-callback. (rnrs) is imported under the
prefix r: so that no C name can clash with it; every internal name holds
a character C identifiers cannot (% or -).
"""

from stubgen.host import HostModule
from stubgen.source import Source

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
        (r:let ([values (nccc-constants rt "@")])
          (r:set! %state
            (r:vector rt (r:list->vector (r:reverse fns))
                      (r:vector-map (r:lambda (name) (%value values name)) %constants)
                      targets))))))

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
  (r:let ([state (%bound (r:quote @-callback))])
    (r:let loop ([k 0])
      (r:cond [(r:= k (r:vector-length %callbacks))
               (r:error (r:quote @-callback) "no such callback type"
                        (r:string-append "@." name))]
              [(r:string=? (r:vector-ref (r:vector-ref %callbacks k) 0) name)
               (nccc-callback (r:vector-ref state 0)
                              (%sig (r:vector-ref %callbacks k)
                                    (r:car (r:vector-ref state 3)))
                              scope proc)]
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
                                           "callback")]
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
    src.line("(import (prefix (rnrs) r:) (nccc core))")
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
    for k, f in enumerate(host.functions):
        if f.extra_out:
            src.line("(r:define (%s n-extra . args) (r:apply nccc-call* "
                     "(%%fn %d) n-extra args))" % (f.name, k))
        else:
            src.line("(r:define (%s . args) (r:apply nccc-call (%%fn %d) "
                     "args))" % (f.name, k))
    src.blank()
    for k, c in enumerate(host.constants):
        src.line("(r:define-syntax %s (r:identifier-syntax (%%constant %d)))"
                 % (c, k))
    src.dedent()
    src.line(")")
    return {m + ".sls": str(src)}
