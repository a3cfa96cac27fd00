#!r6rs
;;; nccc/private/module.sls — (nccc private module): what the libraries
;;; nccc-stubgen generates (docs/SCHEME.md, "Generated modules") call
;;; besides (nccc core): the adapter's slot access and argument tests for
;;; their inline code, the full checks and errors behind them, result
;;; conversions, and the pending callback error. Every name exported here
;;; holds a '-' or a '%', so none can clash with a C identifier.
(library (nccc private module)
  (export slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set! slot-f64-set!
          arg-int? arg-flonum? %nccc-bind-call %nccc-real %nccc-float %nccc-pointer
          %nccc-callback-arg %nccc-arity %nccc-thunk-call %nccc-string-result
          %nccc-owned-result %nccc-raise-pending
          (rename (check-int %nccc-int) (misuse/kind %nccc-misuse) (pending %nccc-pending)))
  (import (rnrs) (nccc compat) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private callbacks) (nccc private calls))

  (define (%nccc-real who position v)
    (if (real? v)
        (inexact v)
        (misuse/kind who 'type (string-append "bad argument #" (number->string position)
                                              ": expected a real number") v)))
  (define (%nccc-float who position v)
    (float->slot (float-in-range who position (%nccc-real who position v))))

  ;; A p argument: an address, #f (NULL), an owned object or a callback;
  ;; NULL refused unless nullable (kind null).
  (define (%nccc-pointer who position v nullable)
    (let ([a (encode (first-runtime) who #\p v position (lambda (x) #f))])
      (when (and (= a 0) (not nullable))
        (misuse/kind who 'null (string-append "bad argument #" (number->string position)
                                              ": NULL where the IDL says nonnull")
                     v))
      a))

  ;; A closure slot: a live callback, or #f when nullable.
  (define (%nccc-callback-arg who position v nullable)
    (cond [(nccc-callback? v) (callback-slot who v) v]
          [(and (not v) nullable) v]
          [(not v) (misuse/kind who 'null (string-append "bad argument #" (number->string position)
                                                         ": a callback is not nullable here"))]
          [else (misuse/kind who 'type (string-append "bad argument #" (number->string position)
                                                      ": closure expected")
                             v)]))

  (define (%nccc-arity who n args) (count-error who n #f (length args)))

  ;; A call of f that binds a thunk of a pool (a callback parameter with
  ;; no context): the wrapper refuses the call with a zeroed out[] when
  ;; the pool is full and says so only in the thread's last error, so the
  ;; error is cleared before and read after.
  (define pool-exhausted (status-value 'err-pool-exhausted))
  (define (%nccc-thunk-call f . args)
    (let ([rt (fn-rt f)])
      (builtin/status rt B-CLEAR-ERROR (make-slots 0) 0)
      (call-with-values (lambda () (call f #f args))
        (lambda results
          (let-values ([(st out) (builtin/status rt B-LAST-ERROR (make-slots 0) 2)])
            (when (and (= st 0) (= (slot->int #\i (slot-ref out 1)) pool-exhausted))
              (fail (string->symbol (nccc-function-name f)) pool-exhausted
                    (string-append "thunk pool exhausted: "
                                   (or (string-at rt (slot-ref out 2)) "")))))
          (apply values results)))))

  ;; Buffers and the primitive of one function, made at bind:
  ;; -> (values call in out), (call) calling f with in and out.
  (define (%nccc-bind-call f n-in n-out)
    (let ([in (make-slots n-in)] [out (make-slots n-out)])
      (values (compat-bound-call (nccc-function-address f) in out) in out)))

  ;; A string result: its copy (#f for NULL), the C string freed at once
  ;; by free (an nccc function) when it is owned.
  (define (%nccc-string-result address free)
    (if (= address 0)
        #f
        (let ([s (string-at (first-runtime) address)])
          (when free (call free #f (list address)))
          s)))
  (define (%nccc-owned-result address free name)
    (if (= address 0) #f (nccc-own (first-runtime) address free name)))

  (define (%nccc-raise-pending) (raise-pending)))
