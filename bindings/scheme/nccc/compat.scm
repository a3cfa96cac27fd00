;;; nccc/compat.scm — the Guile 3 adapter (the contract: docs/SCHEME.md).
;;; Guile finds this file by its own extension (.scm; .guile.sls and .sls
;;; name nothing here under --r6rs); Chez and Racket never look at .scm
;;; while their own compat file exists.
(define-module (nccc compat)
  #:use-module (system foreign)
  #:use-module (system foreign-library)
  #:use-module (rnrs bytevectors)
  #:export (compat-implementation compat-load compat-symbol compat-call
            compat-bound-call compat-dispatcher compat-guarded compat-guardian compat-collect
            slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set!
            slot-f64-set! view-s64-ref view-u64-ref view-f64-ref view-s64-set!
            view-u64-set! view-f64-set! arg-int? arg-flonum?))

(define compat-implementation 'guile)

(define (compat-load path) (load-foreign-library path))

;; The address of a function symbol, or #f when lib has none.
(define (compat-symbol lib name)
  (catch #t
    (lambda () (pointer-address (foreign-library-pointer lib name)))
    (lambda _ #f)))

;; Guile's bytevectors never move, so pointers to them stay valid even
;; if the call comes back into Scheme and a collection runs.
(define (compat-call fn in out)
  ((pointer->procedure void (make-pointer fn) '(* *))
   (bytevector->pointer in) (bytevector->pointer out)))

;; A thunk calling fn with these two buffers: everything made once.
(define (compat-bound-call fn in out)
  (let ((f (pointer->procedure void (make-pointer fn) '(* *)))
        (pin (bytevector->pointer in)) (pout (bytevector->pointer out)))
    (lambda () (f pin pout))))

;; Slots of a buffer; a view (what the dispatcher's handler gets) is a
;; bytevector over C memory here, so the same operations read it.
(define-syntax-rule (aliases (slot view primitive) ...)
  (begin (define-syntax slot (identifier-syntax primitive)) ...
         (define-syntax view (identifier-syntax primitive)) ...))
(aliases (slot-s64-ref view-s64-ref bytevector-s64-native-ref)
         (slot-u64-ref view-u64-ref bytevector-u64-native-ref)
         (slot-f64-ref view-f64-ref bytevector-ieee-double-native-ref)
         (slot-s64-set! view-s64-set! bytevector-s64-native-set!)
         (slot-u64-set! view-u64-set! bytevector-u64-native-set!)
         (slot-f64-set! view-f64-set! bytevector-ieee-double-native-set!))

;; The binder's argument checks (v an identifier): #t for an exact
;; integer in lo..hi (literals or variables) or a flonum; #f leaves the
;; value to the full check. Guile's R6RS fixnum? and fx<=? are procedure
;; calls.
(define-syntax-rule (arg-int? v lo hi) (and (exact-integer? v) (<= lo v) (<= v hi)))
(define-syntax-rule (arg-flonum? v) (and (real? v) (inexact? v)))

;; The one callback of the process, made on the first request and kept
;; in `dispatcher' for good. handler gets views of in[] and out[] (#f
;; for a release notice), as long as the most slots a call has. The
;; addresses come as integers (no pointer objects); the last view of each
;; side is kept with its address in one pair (threads see either whole
;; pair), since a C loop calls back with the same buffers.
(define dispatcher #f)
(define (compat-dispatcher handler)
  (define (viewer)
    (let ((last (cons 0 #f)))
      (lambda (a)
        (let ((hit last))
          (if (eqv? (car hit) a)
              (cdr hit)
              (let ((v (pointer->bytevector (make-pointer a) 4096)))
                (set! last (cons a v))
                v))))))
  (unless dispatcher
    (let ((in-view (viewer)) (out-view (viewer)))
      (set! dispatcher
            (procedure->pointer
             void
             (lambda (in out)
               (handler (in-view in) (and (not (eqv? out 0)) (out-view out))))
             (list uintptr_t uintptr_t)))))
  (pointer-address dispatcher))

;; (compat-guarded (e) (f a b c) handler): the value of (f a b c), or
;; handler's with e bound to what it raised, once the stack is unwound
;; to here: an escape-only prompt of a tag made once around a
;; non-unwinding handler made once that aborts to it, the cheapest guard
;; Guile offers (docs/BENCHMARKS.md, "Guile's error guards"); a handler
;; inside f still sees its errors first. f and its arguments reach the
;; thunk through a frame of this thread's stash rather than a closure
;; over them (64 bytes a call): #(depth f a b c ...), eight frames, the
;; frame popped as the thunk reads it, so that a guarded call run in
;; between (by an async) takes the next one; deeper, a closure.
(define guard-tag (make-prompt-tag "nccc callback"))
(define (to-guard e) (abort-to-prompt guard-tag e))
(define stash (make-thread-local-fluid #f))
(define (stash-vector)
  (or (fluid-ref stash)
      (let ([v (make-vector 33 #f)]) (vector-set! v 0 0) (fluid-set! stash v) v)))
(define (run-stashed)
  (let* ([v (fluid-ref stash)] [d (- (vector-ref v 0) 1)] [i (+ 1 (* 4 d))])
    (vector-set! v 0 d)
    ((vector-ref v i) (vector-ref v (+ i 1)) (vector-ref v (+ i 2)) (vector-ref v (+ i 3)))))
(define-syntax-rule (compat-guarded (e) (f a b c) handler)
  (let* ([v (stash-vector)] [d (vector-ref v 0)])
    (if (< d 8)
        (let ([i (+ 1 (* 4 d))])
          (vector-set! v i f) (vector-set! v (+ i 1) a) (vector-set! v (+ i 2) b)
          (vector-set! v (+ i 3) c) (vector-set! v 0 (+ d 1))
          (call-with-prompt guard-tag (lambda () (with-exception-handler to-guard run-stashed))
                            (lambda (k e) (vector-set! v 0 d) handler)))
        (call-with-prompt guard-tag
          (lambda () (with-exception-handler to-guard (lambda () (f a b c))))
          (lambda (k e) handler)))))

;; Owned objects: a guardian (g obj) registers, (g) gives one collected
;; object back or #f; compat-collect is a full collection.
(define (compat-guardian) (make-guardian))
(define (compat-collect) (gc) (gc))
