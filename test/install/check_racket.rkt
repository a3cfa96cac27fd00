#lang racket/base
;;; check_racket.rkt LIBRARY — the install test under Racket: nccc/core
;;; from the package nccc installed with raco pkg install, and the
;;; generated module by its path, nccc/greet.rkt beside this program.
;;; Prints "racket: 42 10".
(require nccc/core (prefix-in greet: "nccc/greet.rkt"))

(greet:greet-bind! (nccc-load (vector-ref (current-command-line-arguments) 0)))
(let* ([sum (greet:add 40 2)]
       [folded (greet:fold 4 (greet:greet-callback "step_fn" 'call (lambda (acc i) (+ acc i))))])
  (printf "racket: ~a ~a\n" sum folded)
  (exit (if (and (eqv? sum 42) (eqv? folded 10)) 0 1)))
