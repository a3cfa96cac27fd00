;;; front_guile.scm — (nccc core) as Guile's use-modules sees it exports
;;; only the public API (test/scheme/front_chez.ss says why).
(use-modules (srfi srfi-1))
(define names (module-map (lambda (name var) name) (resolve-interface '(nccc core))))
(define (public? s)
  (let ((t (symbol->string s)))
    (or (string=? t "&nccc") (string-prefix? "nccc-" t))))
(define bad (remove public? names))
(for-each (lambda (s) (format #t "not public: ~a~%" s)) bad)
(format #t "front: ~a names~%" (length names))
(exit (if (and (null? bad) (> (length names) 50)) 0 1))
