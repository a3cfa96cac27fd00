#lang racket/base
;;; nccc/compat.mzscheme.sls — the Racket 8 (CS) adapter (the contract:
;;; docs/SCHEME.md). Racket resolves R6RS library names trying
;;; .mzscheme.ss and .mzscheme.sls first, so this file is its (nccc compat).
(require ffi/unsafe ffi/unsafe/vm)
(provide compat-implementation compat-load compat-symbol compat-call
         compat-dispatcher)

(define compat-implementation 'racket)

(define (compat-load path) (ffi-lib path))

(define (compat-symbol lib name)
  (let ([p (get-ffi-obj name lib _fpointer (lambda () #f))])
    (and p (cast p _fpointer _uintptr))))

;; Byte strings can move in a collection, and a callback can collect
;; during the call: lock both buffers (Chez's lock-object) meanwhile.
(unless (eq? (system-type 'vm) 'chez-scheme)
  (error 'nccc "Racket CS is required (this is the ~a virtual machine)" (system-type 'vm)))
(define lock-object (vm-primitive 'lock-object))
(define unlock-object (vm-primitive 'unlock-object))
(define fn-type (_fun _bytes _bytes -> _void))
(define procs (make-hasheqv))
(define (compat-call fn in out)
  (let ([proc (or (hash-ref procs fn #f)
                  (let ([p (cast fn _uintptr fn-type)])
                    (hash-set! procs fn p)
                    p))])
    (lock-object in)
    (lock-object out)
    (proc in out)
    (unlock-object out)
    (unlock-object in)))

;; The one callback of the process, kept in `dispatcher' for good;
;; handler gets the two slot addresses.
(define dispatcher #f)
(define (compat-dispatcher handler)
  (unless dispatcher
    (set! dispatcher
          (function-ptr (lambda (in out) (handler in out))
                        (_fun _uintptr _uintptr -> _void))))
  (cast dispatcher _fpointer _uintptr))
