#!r6rs
;;; nccc/private/args.sls — (nccc private args): the checks of a bound
;;; function's arguments and the conversions of its results that the
;;; binder (nccc private binder) puts together per function: full
;;; checks of numbers, pointers and closures with their errors, the
;;; arity error, what a refused call releases, a function's primitive
;;; bound to its own buffers, the call of a function that binds a thunk,
;;; and string and owned results.
(library (nccc private args)
  (export arg-real arg-float arg-pointer arg-callback arity-error refused thunk-call
          bind-call string-result owned-result)
  (import (rnrs) (nccc compat) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private callbacks) (nccc private calls))

  (define (arg-real who position v)
    (if (real? v)
        (inexact v)
        (misuse/kind who 'type (string-append "bad argument #" (number->string position)
                                              ": expected a real number") v)))
  (define (arg-float who position v)
    (float->slot (float-in-range who position (arg-real who position v))))

  ;; A p argument: an address, #f (NULL), an owned object or a callback;
  ;; NULL refused unless nullable (kind null).
  (define (arg-pointer who position v nullable)
    (let ([a (encode (first-runtime) who #\p v position (lambda (x) #f))])
      (when (and (= a 0) (not nullable))
        (misuse/kind who 'null (string-append "bad argument #" (number->string position)
                                              ": NULL where the IDL says nonnull")
                     v))
      a))

  ;; A closure slot: a live callback, or #f when nullable. types: per
  ;; member of the parameter, the signatures its callback type may have
  ;; (#f: not checked); a callback made for other signatures is refused
  ;; here, before C (the backward wrapper would refuse it only when C
  ;; calls back). scope: the parameter's (#f: not checked); a callback of
  ;; scope call is refused where it is another (C would keep it past the
  ;; call that releases it).
  (define (arg-callback who position v nullable types scope)
    (cond [(nccc-callback? v)
           (callback-slot who v)
           (when (and types (not (fits? (callback-signatures v) types)))
             (release-refused (list v))
             (misuse/kind who 'type
                          (string-append "bad argument #" (number->string position)
                                         ": a callback of signatures "
                                         (show-strings (map car types))
                                         " expected, got one of "
                                         (show-strings (callback-signatures v)))
                          v))
           (when (and scope (not (eq? scope 'call)) (eq? (callback-scope v) 'call))
             (release-refused (list v))
             (misuse/kind who 'scope
                          (string-append "bad argument #" (number->string position)
                                         ": a callback of scope '"
                                         (symbol->string scope)
                                         " expected, got one of scope 'call")
                          v))
           v]
          [(and (not v) nullable) v]
          [(not v) (misuse/kind who 'null (string-append "bad argument #" (number->string position)
                                                         ": a callback is not nullable here"))]
          [else (misuse/kind who 'type (string-append "bad argument #" (number->string position)
                                                      ": closure expected")
                             v)]))

  (define (fits? sigs types)
    (and (= (length sigs) (length types))
         (for-all (lambda (sig allowed) (member sig allowed)) sigs types)))

  (define (show-strings l)
    (fold-left (lambda (acc s) (string-append acc (if (string=? acc "") "'" " '") s "'"))
               "" l))

  (define (arity-error who n args)
    (release-refused args)
    (count-error who n #f (length args)))

  ;; A maker's checks refused the call (condition e) before C ran: the
  ;; call-scope callbacks among args end with it (release-refused).
  (define (refused e . args)
    (release-refused args)
    (raise e))

  ;; A call of f that binds a thunk of a pool (a callback parameter with
  ;; no context): the wrapper refuses the call with a zeroed out[] when
  ;; the pool is full and says so only in the thread's last error, so the
  ;; error is cleared before and read after.
  (define pool-exhausted (status-value 'err-pool-exhausted))
  (define (thunk-call f . args)
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
  (define (bind-call f n-in n-out)
    (let ([in (make-slots n-in)] [out (make-slots n-out)])
      (values (compat-bound-call (nccc-function-address f) in out) in out)))

  ;; A string result: its copy (#f for NULL), the C string freed at once
  ;; by free (an nccc function) when it is owned.
  (define (string-result address free)
    (if (= address 0)
        #f
        (let ([s (string-at (first-runtime) address)])
          (when free (call free #f (list address)))
          s)))
  (define (owned-result address free name)
    (if (= address 0) #f (nccc-own (first-runtime) address free name))))
