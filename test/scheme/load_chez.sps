#!r6rs
;;; load_chez.sps FIXTURE — the Chez Scheme convention, as users write it:
;;; R6RS libraries found under --libdirs (or CHEZSCHEMELIBDIRS). Prints
;;; "chez: 42 100" and exits 0.
(import (rnrs) (nccc core) (prefix (nccc tour) tour:))

(define rt (nccc-load (cadr (command-line))))
(nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI"))
(tour:tour-bind! rt)
(let ([sum (tour:add 40 2)] [limit tour:LIMIT])
  (display "chez: ") (display sum) (display " ") (display limit) (newline)
  (exit (if (and (eqv? sum 42) (eqv? limit 100)) 0 1)))
