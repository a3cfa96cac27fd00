;;; check_guile.scm LIBRARY — the install test under Guile: (nccc core)
;;; from the prefix's site directory, the generated (nccc greet) from the
;;; consumer's build; greet-bind! runs nccc_greet_open. Prints
;;; "guile: 42 10".
(use-modules (nccc core) ((nccc greet) #:prefix greet:))

(greet:greet-bind! (nccc-load (cadr (command-line))))
(let* ((sum (greet:add 40 2))
       (folded (greet:fold 4 (greet:greet-callback "step_fn" 'call (lambda (acc i) (+ acc i))))))
  (format #t "guile: ~a ~a~%" sum folded)
  (exit (if (and (eqv? sum 42) (eqv? folded 10)) 0 1)))
