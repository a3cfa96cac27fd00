;;; nccc/compat.chezscheme.sls — the Chez Scheme 9.5 adapter (the
;;; contract: docs/SCHEME.md). Chez prefers .chezscheme.sls to any other
;;; extension, so this file is its (nccc compat).
(library (nccc compat)
  (export compat-implementation compat-load compat-symbol compat-call
          compat-bound-call compat-dispatcher compat-guarded compat-guardian compat-collect
          slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set!
          slot-f64-set! view-s64-ref view-u64-ref view-f64-ref view-s64-set!
          view-u64-set! view-f64-set! arg-int? arg-flonum?)
  (import (chezscheme))

  (define compat-implementation 'chez)

  (define (compat-load path) (load-shared-object path) path)

  ;; Symbols of every loaded object share one namespace in Chez.
  (define (compat-symbol lib name)
    (and (foreign-entry? name) (foreign-entry name)))

  ;; Bytevectors move in a collection and a callback can collect during
  ;; the call: compat-call locks both buffers meanwhile; compat-bound-call
  ;; locks its two for good (they live as long as the function).
  (define (compat-call fn in out)
    (lock-object in) (lock-object out)
    ((foreign-procedure fn (u8* u8*) void) in out)
    (unlock-object out) (unlock-object in))
  (define (compat-bound-call fn in out)
    (let ([f (foreign-procedure fn (u8* u8*) void)])
      (lock-object in) (lock-object out)
      (lambda () (f in out))))

  ;; Slots of a buffer, inlined; a view is the address of C memory.
  (define-syntax slot-alias
    (syntax-rules () [(_ name primitive) (define-syntax name (identifier-syntax primitive))]))
  (slot-alias slot-s64-ref bytevector-s64-native-ref)
  (slot-alias slot-u64-ref bytevector-u64-native-ref)
  (slot-alias slot-f64-ref bytevector-ieee-double-native-ref)
  (slot-alias slot-s64-set! bytevector-s64-native-set!)
  (slot-alias slot-u64-set! bytevector-u64-native-set!)
  (slot-alias slot-f64-set! bytevector-ieee-double-native-set!)
  (define-syntax view
    (syntax-rules ()
      [(_ ref set type)
       (begin (define-syntax ref (syntax-rules () [(_ a o) (foreign-ref 'type a o)]))
              (define-syntax set (syntax-rules () [(_ a o v) (foreign-set! 'type a o v)])))]))
  (view view-s64-ref view-s64-set! integer-64)
  (view view-u64-ref view-u64-set! unsigned-64)
  (view view-f64-ref view-f64-set! double)

  ;; The binder's argument checks (v an identifier): #t for a fixnum in
  ;; lo..hi (a literal bound beyond the fixnums needs no test; a bound in
  ;; a variable holds a fixnum) or a flonum; #f leaves the value to the
  ;; full check.
  (define-syntax arg-int?
    (lambda (x)
      (define (test bound form)
        (if (or (identifier? bound) (fixnum? (syntax->datum bound))) (list form) '()))
      (syntax-case x ()
        [(_ v lo hi)
         #`(and (fixnum? v) #,@(test #'lo #'(fx<= lo v)) #,@(test #'hi #'(fx<= v hi)))])))
  (define-syntax arg-flonum? (identifier-syntax flonum?))

  ;; The one callback of the process: its code object is locked so that
  ;; its entry point never moves; handler gets the two slot addresses
  ;; (#f for out in a release notice).
  (define dispatcher #f)
  (define (compat-dispatcher handler)
    (unless dispatcher
      (let ([code (foreign-callable (lambda (in out) (handler in (and (not (= out 0)) out)))
                                    (uptr uptr) void)])
        (lock-object code)
        (set! dispatcher (foreign-callable-entry-point code))))
    dispatcher)

  ;; (compat-guarded (e) (f a b c) handler): the value of (f a b c), or
  ;; handler's with e bound to what it raised
  (define-syntax compat-guarded
    (syntax-rules () [(_ (e) (f a b c) handler) (guard (e (#t handler)) (f a b c))]))

  (define (compat-guardian) (make-guardian))
  (define (compat-collect) (collect (collect-maximum-generation))))
