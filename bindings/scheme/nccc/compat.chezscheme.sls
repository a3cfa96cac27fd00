;;; nccc/compat.chezscheme.sls — the Chez Scheme 9.5 adapter (the
;;; contract: docs/SCHEME.md). Chez prefers .chezscheme.sls to any other
;;; extension, so this file is its (nccc compat).
(library (nccc compat)
  (export compat-implementation compat-load compat-symbol compat-call
          compat-dispatcher)
  (import (chezscheme))

  (define compat-implementation 'chez)

  (define (compat-load path) (load-shared-object path) path)

  ;; Symbols of every loaded object share one namespace in Chez.
  (define (compat-symbol lib name)
    (and (foreign-entry? name) (foreign-entry name)))

  ;; One foreign procedure per function address, made on first use.
  ;; Bytevectors can move in a collection, and a callback can collect
  ;; during the call: lock both buffers for its duration.
  (define procs (make-eqv-hashtable))
  (define (compat-call fn in out)
    (let ([proc (or (hashtable-ref procs fn #f)
                    (let ([p (foreign-procedure fn (u8* u8*) void)])
                      (hashtable-set! procs fn p)
                      p))])
      (lock-object in)
      (lock-object out)
      (proc in out)
      (unlock-object out)
      (unlock-object in)))

  ;; The one callback of the process: its code object is locked so that
  ;; its entry point never moves; handler gets the two slot addresses.
  (define dispatcher #f)
  (define (compat-dispatcher handler)
    (unless dispatcher
      (let ([code (foreign-callable (lambda (in out) (handler in out))
                                    (uptr uptr) void)])
        (lock-object code)
        (set! dispatcher (foreign-callable-entry-point code))))
    dispatcher))
