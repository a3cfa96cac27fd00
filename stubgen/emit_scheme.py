"""The Scheme emitter: M.sls, the R6RS library (nccc M) over the support
library (nccc private module), the same file on Guile, Chez and Racket
(docs/SCHEME.md "Generated modules"), and two one-line ways in to it:
M.scm for Guile's (use-modules (nccc M)) and M.rkt for Racket's
(require nccc/M).

    (import (rnrs) (prefix (nccc tour) tour:))
    (tour:tour-bind! (nccc-load path))
    (tour:add 40 2)   ; => 42

The library is data: the module's binding records
(stubgen/model/binding.py, docs/BINDING.md) as one quoted literal
(objects as alists, arrays as lists) written by the shared literal
writer (stubgen/literal.py), and one call, (make-module %records).
make-module reads its tables off the records; M-bind! (module-bind!)
looks every function up once, checks its signature and has the binder
(bindings/scheme/nccc/private/binder.sls) make each function's
procedure from its record. The library exports a procedure per function
(its registry name), each constant as an identifier whose value comes
from the bound library, and M-bind!, M-runtime, M-layout, M-callback,
M-callback-signature, M-procedure, M-new and M-view (C objects). (rnrs)
is imported under the prefix r: so that no C name can clash with it;
every name the support library exports holds a '-', which C identifiers
cannot.
"""

from stubgen.host import HostModule
from stubgen.literal import LiteralSyntax, literal_lines
from stubgen.model.binding import data_records
from stubgen.source import Source

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
    src = Source()
    src.line("#!r6rs")
    src.line(host.title(";;;", "nccc/%s.sls" % m, "Scheme", scheme_string))
    src.lines("""
        ;;; Data for (nccc private module) and its binder
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
    lines = literal_lines(data_records(module), SCHEME)
    src.line("(r:define %records")
    src.line("  (r:quote")
    for line in lines[:-1]:
        src.line("   " + line)
    src.line("   " + lines[-1] + "))")
    src.blank()
    src.line("(r:define %module (make-module %records))")
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
    for k, f in enumerate(host.functions):
        src.line("(r:define-syntax %s (r:identifier-syntax (r:vector-ref "
                 "%%procedures %d)))" % (f.name, k))
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
