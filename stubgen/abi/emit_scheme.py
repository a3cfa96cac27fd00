"""bindings/scheme/nccc/abi.sls: the ABI's facts as the R6RS library
(nccc abi), which imports only (rnrs)."""

from stubgen.source import Source

LIBRARY = "bindings/scheme/nccc/abi.sls"

EXPORTS = """
    abi-codes abi-code abi-in-codes abi-out-codes abi-value-codes
    abi-sig-separator abi-sig-variadic abi-sig-record-open
    abi-sig-record-close abi-sig-record-count abi-max-slots
    abi-slots-variable abi-handle-module-marker abi-handle-function-marker
    abi-handle-module-shift abi-handle-index-mask abi-status
    abi-status-text abi-builtins abi-builtin-index
    abi-closure-target-signature abi-scopes abi-closure-notify
    abi-closure-thread abi-rpc-bound-marker abi-type-kinds abi-targets
    abi-sized abi-builtins-module abi-packed-module abi-packed-flags
    abi-packed-type-codes abi-refusal-kinds abi-refusal-statuses"""


def _str(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _char(c):
    return "#\\%s" % c


def _bool(b):
    return "#t" if b else "#f"


def _opt(v):
    return "#f" if v is None else str(v)


def _symbol(name):
    return name.lower().replace("_", "-")


def _list(src, opener, closer, items):
    """opener item, then one item a line aligned under it, then closer."""
    pad = " " * len(opener)
    for k, item in enumerate(items):
        src.line((opener if k == 0 else pad) + item +
                 (closer if k + 1 == len(items) else ""))


def _rest(rest):
    if rest is None:
        return "#f"
    return "#(%d %s %d %d %s)" % (rest.arg, _str(rest.per), rest.mul,
                                  rest.div, _bool(rest.out))


def emit(abi):
    src = Source(indent="  ")
    src.line("#!r6rs")
    src.lines("""
        ;; (nccc abi): the nccc ABI's facts (docs/ABI.md), generated from
        ;; idl/abi.json by stubgen/abi (python3 -m stubgen.abi --write); do
        ;; not edit.
        """)
    with src.block("(library (nccc abi)", ")"):
        names = EXPORTS.split()
        src.line("(export")
        for k in range(0, len(names), 4):
            tail = ")" if k + 4 >= len(names) else ""
            src.line("  " + " ".join(names[k:k + 4]) + tail)
        src.line("(import (rnrs))")
        src.blank()
        src.line(";; #(code name kind bytes signed? min max in-ok? out-ok?),"
                 " min/max for integers")
        src.line("(define abi-codes")
        _list(src, "  '(", "))",
              ["#(%s %s %s %d %s %s %s %s %s)" % (
                  _char(c.code), _str(c.name), c.kind, c.bytes,
                  _bool(c.signed), _opt(c.min), _opt(c.max),
                  _bool(c.in_ok), _bool(c.out_ok)) for c in abi.codes])
        src.line("(define (abi-code c)")
        src.line("  (let loop ([l abi-codes])")
        src.line("    (cond [(null? l) #f]")
        src.line("          [(char=? (vector-ref (car l) 0) c) (car l)]")
        src.line("          [else (loop (cdr l))])))")
        src.line("(define abi-in-codes %s)" % _str(abi.in_codes()))
        src.line("(define abi-value-codes %s)" % _str(abi.value_codes()))
        src.line("(define abi-out-codes %s)" % _str(abi.out_codes()))
        for role, c in abi.grammar_chars():
            src.line("(define abi-sig-%s %s)" % (_symbol(role), _char(c)))
        src.line("(define abi-max-slots %d)" % abi.max_slots)
        src.line("(define abi-slots-variable #x%x)" % abi.slots_variable)
        for key in ("module_marker", "function_marker", "module_shift",
                    "index_mask"):
            src.line("(define abi-handle-%s %d)" % (_symbol(key),
                                                   abi.handle[key]))
        src.line(";; symbol -> value")
        _list(src, "(define abi-status '(", "))",
              ["(%s . #x%x)" % (_symbol(s.name), s.value)
               for s in abi.status])
        src.line("(define (abi-status-text value)")
        src.line("  (case value")
        for s in abi.status:
            src.line("    [(#x%x) %s]" % (s.value, _str(s.text)))
        src.line('    [else "unknown status"]))')
        src.line(";; #(index name signature n-in n-out rest), in index order;"
                 " rest, the size")
        src.line(";; of a '*' side: #(arg per mul div out?), argument arg "
                 "(0-based) holds n")
        src.line(";; units of per, and the side takes ceil(n * mul / div) "
                 "slots (or #f)")
        _list(src, "(define abi-builtins '#(", "))",
              ["#(%d %s %s %d %d %s)" % (b.index, _str(b.name),
                                         _str(b.signature), b.n_in, b.n_out,
                                         _rest(b.rest))
               for b in abi.builtins])
        src.line("(define (abi-builtin-index name)")
        src.line("  (let loop ([k 0])")
        src.line("    (cond [(= k (vector-length abi-builtins)) #f]")
        src.line("          [(string=? (vector-ref (vector-ref abi-builtins k)"
                 " 1) name) k]")
        src.line("          [else (loop (+ k 1))])))")
        src.line("(define abi-closure-target-signature %s)"
                 % _str(abi.closure_target_signature))
        src.line("(define abi-scopes '(%s))" % " ".join(
            "(%s . %d)" % (s.name, s.value) for s in abi.scopes))
        for f in abi.closure_flags:
            src.line("(define abi-closure-%s #x%x)" % (f.name, f.value))
        src.line(";; the targets a signature may differ on, in the order of "
                 "a module's")
        src.line(";; entries: #(data-model char-signed?)")
        src.line("(define abi-targets '#(%s))" % " ".join(
            "#(%s %s)" % (_str(t.data_model), _bool(t.char_signed))
            for t in abi.targets))
        src.line(";; '*' sides an argument sizes: (qualified name . rest)")
        _list(src, "(define abi-sized '(", "))",
              ["(%s . %s)" % (_str(name), _rest(rest))
               for name, rest in sorted(abi.sized().items())])
        src.line(";; what a generated wrapper refuses itself: argument kinds, "
                 "and the statuses")
        src.line(";; it leaves as the last error")
        src.line("(define abi-refusal-kinds '(%s))" % " ".join(
            abi.refusal_kinds))
        src.line("(define abi-refusal-statuses '(%s))" % " ".join(
            st.lower().replace("_", "-") for st in abi.refusal_statuses))
        src.line("(define abi-builtins-module %s)" % _str(abi.builtins_module))
        src.line("(define abi-packed-module %s)" % _str(abi.packed.module))
        src.line("(define abi-packed-flags '(%s))" % " ".join(
            "(%s . %d)" % (f.name, f.value) for f in abi.packed.flags))
        src.line("(define abi-packed-type-codes '(%s))" % " ".join(
            "(%s . %d)" % (t.name, t.value) for t in abi.packed.type_codes))
        src.line(";; the constant of modules bound from a device (docs/RPC.md)")
        src.line("(define abi-rpc-bound-marker %s)" % _str(abi.rpc.bound_marker))
        src.line(";; value -> symbol")
        src.line("(define abi-type-kinds '(%s))" % " ".join(
            "(%d . %s)" % (t.value, t.name) for t in abi.type_kinds))
    return str(src)
