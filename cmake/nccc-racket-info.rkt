#lang info
;;; info.rkt of the Racket package nccc (installed by cmake --install as
;;; share/nccc/racket/nccc/info.rkt): the package is the collection nccc,
;;; the .rkt entries over the portable .sls libraries (docs/RACKET.md).
(define collection "nccc")
(define version "0.1.0")   ; a copy of CMakeLists.txt's (tools/version.py)
(define deps '("base" "r6rs-lib"))
(define pkg-desc "nccc: calls and callbacks through the normalized calling convention")
