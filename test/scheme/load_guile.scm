;;; load_guile.scm FIXTURE — the Guile convention, as users write it:
;;; only the load path (-L or GUILE_LOAD_PATH) names the library tree, and
;;; use-modules finds (nccc core) and the generated (nccc tour) by their
;;; .scm entries (no -x .sls). Prints "guile: 42 100" and exits 0.
(use-modules (nccc core) ((nccc tour) #:prefix tour:))

(define rt (nccc-load (cadr (command-line))))
(nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI"))
(tour:tour-bind! rt)
(let ((sum (tour:add 40 2)) (limit tour:LIMIT))
  (format #t "guile: ~a ~a~%" sum limit)
  (exit (if (and (eqv? sum 42) (eqv? limit 100)) 0 1)))
