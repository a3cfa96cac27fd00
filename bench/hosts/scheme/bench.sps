#!r6rs
;;; bench.sps LIB N — per-call times of one Scheme host (Guile, Chez,
;;; Racket), run by bench/hosts/run.sh. (hbench own) is the host's own
;;; FFI, one file per implementation, found the way (nccc compat) is;
;;; (hbench run) is the portable body.
(import (rnrs) (hbench run))
(let ([args (command-line)])
  (run (cadr args) (string->number (caddr args))))
