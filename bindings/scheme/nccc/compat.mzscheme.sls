#lang racket/base
;;; nccc/compat.mzscheme.sls — the Racket 8 (CS) adapter (the contract:
;;; docs/SCHEME.md). Racket resolves R6RS library names trying
;;; .mzscheme.ss and .mzscheme.sls first, so this file is its (nccc compat).
;;; Racket CS runs on Chez Scheme: calls, slot access and views use
;;; Chez's own primitives (ffi/unsafe/vm), much cheaper than _fun and
;;; Racket's R6RS bytevector procedures.
(require ffi/unsafe ffi/unsafe/vm racket/unsafe/ops
         (for-syntax racket/base))
(provide compat-implementation compat-load compat-symbol compat-call
         compat-bound-call compat-dispatcher compat-guarded compat-guardian compat-collect
         slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set!
         slot-f64-set! view-s64-ref view-u64-ref view-f64-ref view-s64-set!
         view-u64-set! view-f64-set! arg-int? arg-flonum?)
(unless (eq? (system-type 'vm) 'chez-scheme)
  (error 'nccc "Racket CS is required (this is the ~a virtual machine)" (system-type 'vm)))

(define compat-implementation 'racket)
(define (compat-load path) (ffi-lib path))
(define (compat-symbol lib name)
  (let ([p (get-ffi-obj name lib _fpointer (lambda () #f))])
    (and p (cast p _fpointer _uintptr))))

;; As in Chez's adapter: buffers locked during a call, or for good.
(define-values (compat-call compat-bound-call)
  (vm-eval '(values (lambda (fn in out)
                      (lock-object in) (lock-object out)
                      ((foreign-procedure fn (u8* u8*) void) in out)
                      (unlock-object out) (unlock-object in))
                    (lambda (fn in out)
                      (let ([f (foreign-procedure fn (u8* u8*) void)])
                        (lock-object in) (lock-object out)
                        (lambda () (f in out)))))))

(define-values (s64-ref u64-ref f64-ref s64-set! u64-set! f64-set!)
  (vm-eval '(values bytevector-s64-native-ref bytevector-u64-native-ref
                    bytevector-ieee-double-native-ref bytevector-s64-native-set!
                    bytevector-u64-native-set! bytevector-ieee-double-native-set!)))
(define-values (vs64-ref vu64-ref vf64-ref vs64-set! vu64-set! vf64-set!)
  (vm-eval '(values (lambda (a o) (foreign-ref 'integer-64 a o))
                    (lambda (a o) (foreign-ref 'unsigned-64 a o))
                    (lambda (a o) (foreign-ref 'double a o))
                    (lambda (a o v) (foreign-set! 'integer-64 a o v))
                    (lambda (a o v) (foreign-set! 'unsigned-64 a o v))
                    (lambda (a o v) (foreign-set! 'double a o v)))))
(define-syntax-rule (alias name target)
  (define-syntax name (make-rename-transformer #'target)))
(alias slot-s64-ref s64-ref) (alias slot-u64-ref u64-ref) (alias slot-f64-ref f64-ref)
(alias slot-s64-set! s64-set!) (alias slot-u64-set! u64-set!) (alias slot-f64-set! f64-set!)
(alias view-s64-ref vs64-ref) (alias view-u64-ref vu64-ref) (alias view-f64-ref vf64-ref)
(alias view-s64-set! vs64-set!) (alias view-u64-set! vu64-set!) (alias view-f64-set! vf64-set!)

;; The binder's argument checks, as in Chez's adapter.
(define-syntax (arg-int? stx)
  (define (test bound form)
    (if (or (identifier? bound) (fixnum? (syntax-e bound))) (list form) '()))
  (syntax-case stx ()
    [(_ v lo hi)
     #`(and (fixnum? v) #,@(test #'lo #'(unsafe-fx<= lo v)) #,@(test #'hi #'(unsafe-fx<= v hi)))]))
(define-syntax-rule (arg-flonum? v) (flonum? v))

;; The one callback of the process, kept for good; handler gets the two
;; slot addresses (#f for out in a release notice).
(define dispatcher #f)
(define (compat-dispatcher handler)
  (unless dispatcher
    (set! dispatcher
          (function-ptr (lambda (in out) (handler in (and (not (= out 0)) out)))
                        (_fun _uintptr _uintptr -> _void))))
  (cast dispatcher _fpointer _uintptr))

;; (compat-guarded (e) (f a b c) handler): the value of (f a b c), or
;; handler's with e bound to what it raised, once the stack is unwound
;; to here: an escape continuation around an exception handler that
;; escapes with the raised value in a record, the cheapest guard Racket
;; offers (docs/BENCHMARKS.md, "Hosts"); a handler inside f still sees
;; its errors first.
(struct raised (value))
(define-syntax-rule (compat-guarded (e) (f a b c) handler)
  (let ([r (call/ec (lambda (k)
                      (call-with-exception-handler (lambda (x) (k (raised x)))
                                                   (lambda () (f a b c)))))])
    (if (raised? r) (let ([e (raised-value r)]) handler) r)))

;; A guardian made of a will executor: (g obj) registers, (g) gives one
;; collected object back or #f.
(define (compat-guardian)
  (let ([e (make-will-executor)])
    (case-lambda [(obj) (will-register e obj values)]
                 [() (will-try-execute e)])))
(define (compat-collect) (collect-garbage) (collect-garbage))
