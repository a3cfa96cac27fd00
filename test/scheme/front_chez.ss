;;; front_chez.ss — (nccc core) exports only the public API: every name
;;; starts with nccc- (or is the condition type &nccc), so none of the
;;; internal libraries' hooks reach users. Prints the names that do not
;;; and exits 1 when there are any, else prints "front: N names".
(import (chezscheme) (only (nccc core)))
(define names (library-exports '(nccc core)))
(define (public? s)
  (let ([t (symbol->string s)])
    (or (string=? t "&nccc")
        (and (> (string-length t) 5) (string=? (substring t 0 5) "nccc-")))))
(define bad (filter (lambda (s) (not (public? s))) names))
(for-each (lambda (s) (display "not public: ") (display s) (newline)) bad)
(display "front: ") (display (length names)) (display " names") (newline)
(exit (if (and (null? bad) (> (length names) 50)) 0 1))
