#!r6rs
;;; check_chez.sps LIBRARY — the install test under Chez Scheme: (nccc
;;; core) from the prefix's R6RS directory and (nccc greet), both through
;;; --libdirs. Prints "chez: 42 10".
(import (rnrs) (nccc core) (prefix (nccc greet) greet:))

(greet:greet-bind! (nccc-load (cadr (command-line))))
(let* ([sum (greet:add 40 2)]
       [folded (greet:fold 4 (greet:greet-callback "step_fn" 'call (lambda (acc i) (+ acc i))))])
  (display "chez: ") (display sum) (display " ") (display folded) (newline)
  (exit (if (and (eqv? sum 42) (eqv? folded 10)) 0 1)))
