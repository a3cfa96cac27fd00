#lang racket/base
;;; load_racket.rkt FIXTURE — the Racket convention, as users write it:
;;; (require nccc/tour) from the collection nccc, found through -S DIR,
;;; PLTCOLLECTS or `raco link`. Prints "racket: 42 100" and exits 0.
(require nccc/core (prefix-in tour: nccc/tour))

(define rt (nccc-load (vector-ref (current-command-line-arguments) 0)))
(call-with-values
 (lambda () (nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI")))
 void)
(tour:tour-bind! rt)
(let ([sum (tour:add 40 2)] [limit tour:LIMIT])
  (printf "racket: ~a ~a\n" sum limit)
  (exit (if (and (eqv? sum 42) (eqv? limit 100)) 0 1)))
