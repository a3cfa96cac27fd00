;;; nccc/compat.scm — the Guile 3 adapter (the contract: docs/SCHEME.md).
;;; Guile finds this file by its own extension (.scm; .guile.sls and .sls
;;; name nothing here under --r6rs); Chez and Racket never look at .scm
;;; while their own compat file exists.
(define-module (nccc compat)
  #:use-module (system foreign)
  #:use-module (system foreign-library)
  #:use-module (rnrs bytevectors)
  #:export (compat-implementation compat-load compat-symbol compat-call
            compat-dispatcher))

(define compat-implementation 'guile)

(define (compat-load path) (load-foreign-library path))

;; The address of a function symbol, or #f when lib has none.
(define (compat-symbol lib name)
  (catch #t
    (lambda () (pointer-address (foreign-library-pointer lib name)))
    (lambda _ #f)))

;; One foreign procedure per function address, made on first use.
;; Guile's bytevectors never move, so their addresses stay valid even if
;; the call comes back into Scheme and a collection runs.
(define procs (make-hash-table))
(define (compat-call fn in out)
  (let ((proc (or (hashv-ref procs fn)
                  (let ((p (pointer->procedure void (make-pointer fn) '(* *))))
                    (hashv-set! procs fn p)
                    p))))
    (proc (bytevector->pointer in) (bytevector->pointer out))))

;; The one callback of the process, made on the first request and kept
;; in `dispatcher' for good; handler gets the two slot addresses.
(define dispatcher #f)
(define (compat-dispatcher handler)
  (unless dispatcher
    (set! dispatcher
          (procedure->pointer
           void
           (lambda (in out) (handler (pointer-address in) (pointer-address out)))
           '(* *))))
  (pointer-address dispatcher))
