#!r6rs
;;; count.sps LIB VARIANT N — one untimed run of the generated (nccc
;;; bench) bound to LIB: N calls of add or mix6, or N callbacks of one
;;; fold (VARIANT add, mix6 or callback), for bench/hosts/callgrind.sh;
;;; add.own and callback.own the same through the host's own FFI,
;;; add.hand N calls of the hand-written nccc add.
(import (rnrs) (hbench run))
(let ([args (command-line)])
  (count (cadr args) (caddr args) (string->number (cadddr args))))
