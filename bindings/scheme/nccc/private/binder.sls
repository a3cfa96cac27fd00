#!r6rs
;;; nccc/private/binder.sls — (nccc private binder): the one place the
;;; Scheme host turns a function's binding record (docs/BINDING.md) into
;;; the procedure a generated library exports for it, at bind
;;; (module-bind!, nccc private module). Nothing is generated or
;;; evaluated at run time: the binder picks one of a fixed set of
;;; closures and hands it the facts of the function's slots.
;;;
;;; A function whose slots are all numbers, booleans, pointers and
;;; strings out (the fast path) gets a closure for its number of
;;; arguments (up to 6; more walk a list) and its shape of results, over
;;; the primitive bound once to two buffers of its own: per argument an
;;; inline test and store chosen by a class from its ABI code, the full
;;; check (nccc private args) when the inline test fails. Any other
;;; function gets the IDL's checks of its pointers, strings and closures,
;;; then the generic call (nccc-call).
(library (nccc private binder)
  (export function-procedure)
  (import (for (rnrs) run expand) (for (nccc abi) run expand) (nccc compat) (nccc private values) (nccc private convert)
          (nccc private callbacks) (nccc private calls) (nccc private records)
          (nccc private args))

  ;; (function-procedure record f owned callback-signatures): the
  ;; procedure of the function of binding record record (an alist), bound
  ;; as the nccc function f. owned: per owned result, #(out-index
  ;; destructor string? free-name), in out order (an owned string's f
  ;; reads it as an address); callback-signatures: a callback type's
  ;; name -> its signatures (those its closures may have).
  (define (function-procedure record f owned callback-signatures)
    (let ([who (string->symbol (described record 'error_name))])
      (let-values ([(ins outs) (parse-signature who (nccc-function-signature f))])
        (cond
         [(items-rest? outs) (lambda (n-extra . args) (apply nccc-call* f n-extra args))]
         [(items-rest? ins) (lambda args (apply nccc-call f args))]
         [(and (for-all (lambda (c) (fast-code? c fast-in-kinds)) ins)
               (for-all (lambda (c) (fast-code? c fast-out-kinds)) outs))
          (fast-procedure who record f ins (out-specs outs owned))]
         [else (checked-procedure who record f ins (result-converters outs owned)
                                  callback-signatures)]))))

  ;; ---- the facts of the slots ----------------------------------------------

  ;; Kinds whose codes take one slot read or written inline, the same
  ;; on every target.
  (define fast-in-kinds '(bool int float pointer function))
  (define fast-out-kinds '(bool int float pointer function errno string))

  (define (fast-code? c kinds) (and (char? c) (memq (code-kind c) kinds) #t))

  (define (position-text position)
    (string-append "bad argument #" (number->string position)))

  ;; (define-int64 code arg?): code, the ABI's signed 64-bit integer
  ;; code (abi-codes), and (arg? a), a test that a fits it with its
  ;; bounds as literals, so that an adapter drops the tests no fixnum
  ;; can fail.
  (define-syntax define-int64
    (lambda (x)
      (syntax-case x ()
        [(_ code arg?)
         (let ([c (find (lambda (c) (and (eq? (vector-ref c 2) 'int) (= (vector-ref c 3) 8)
                                         (vector-ref c 4)))
                        abi-codes)])
           #`(begin (define code #,(vector-ref c 0))
                    (define-syntax arg?
                      (syntax-rules () [(_ a) (arg-int? a #,(vector-ref c 5) #,(vector-ref c 6))]))))])))
  (define-int64 int64-code int64-arg?)

  ;; An argument's class, how its closure tests and stores it inline:
  ;; 0 of the signed 64-bit code, 1 another integer (a fixnum in lo..hi),
  ;; 2 a double (a flonum), 3 anything else (always its store). -> #(class
  ;; lo hi store), store (a) the full check and store (for a float or a
  ;; boolean, a quick test first).
  (define (in-spec who in c position nonnull)
    (let* ([offset (* 8 (- position 1))] [kind (code-kind c)]
           [store (full-store who in c offset position (not (memv position nonnull)))])
      (cond [(char=? c int64-code)
             (vector 0 0 0 store)]
            [(eq? kind 'int)
             (vector 1 (max (code-min c) (least-fixnum)) (min (code-max c) (greatest-fixnum)) store)]
            [(double-code? c) (vector 2 0 0 store)]
            [else (vector 3 0 0 store)])))

  (define (double-code? c) (and (eq? (code-kind c) 'float) (= (vector-ref (abi-code c) 3) 8)))

  ;; The check of an argument of code c, and its store at offset: the
  ;; full check, after a quick one for a float (a flonum in float's
  ;; range, not a NaN, rounded to float in its slot) or a boolean.
  (define (full-store who in c offset position nullable)
    (case (code-kind c)
      [(int) (if (code-signed? c)
                 (lambda (a) (slot-s64-set! in offset (check-int who position a c)))
                 (lambda (a) (slot-u64-set! in offset (check-int who position a c))))]
      [(bool) (lambda (a)
                (unless (boolean? a)
                  (misuse/kind who 'type (string-append (position-text position)
                                                        ": expected a boolean")
                               a))
                (slot-u64-set! in offset (if a 1 0)))]
      [(float) (if (double-code? c)
                   (lambda (a) (slot-f64-set! in offset (arg-real who position a)))
                   (lambda (a)
                     (if (and (arg-flonum? a) (= a a) (float-fits? a))
                         (begin (bytevector-ieee-single-native-set! in offset a)
                                (slot-f64-set! in offset
                                               (bytevector-ieee-single-native-ref in offset)))
                         (slot-u64-set! in offset (arg-float who position a)))))]
      [else (lambda (a) (slot-u64-set! in offset (arg-pointer who position a nullable)))]))

  ;; Per out slot #(reader convert): reader 0 signed, 1 double, 2
  ;; unsigned (the slot's bits as they are); convert #f or a procedure of
  ;; the raw value (a boolean, a string, an owned result).
  (define (out-specs outs owned)
    (let loop ([cs outs] [j 0] [acc '()])
      (if (null? cs)
          (reverse acc)
          (let* ([c (car cs)] [kind (code-kind c)] [o (owned-at owned j)])
            (loop (cdr cs) (+ j 1)
                  (cons (vector (cond [(eq? kind 'float) 1]
                                      [(and (memq kind '(int errno)) (code-signed? c)) 0]
                                      [else 2])
                                (cond [o (owned-converter o)]
                                      [(eq? kind 'bool) (lambda (y) (not (= 0 y)))]
                                      [(eq? kind 'string) (lambda (y) (string-result y #f))]
                                      [else #f]))
                        acc))))))

  (define (owned-at owned j) (find (lambda (o) (= (vector-ref o 0) j)) owned))

  (define (owned-converter o)
    (let ([d (vector-ref o 1)] [name (vector-ref o 3)])
      (if (vector-ref o 2)
          (lambda (y) (string-result y d))
          (lambda (y) (owned-result y d name)))))

  ;; Per out slot, the converter of its owned result or #f (the generic
  ;; call converts the others itself).
  (define (result-converters outs owned)
    (let loop ([j 0] [acc '()])
      (if (= j (length outs))
          (reverse acc)
          (loop (+ j 1) (cons (let ([o (owned-at owned j)]) (and o (owned-converter o))) acc)))))

  ;; ---- the fast path ---------------------------------------------------------

  ;; An argument's inline test and store, else its full check (tests of
  ;; the class in class order: Chez compiles them tighter than a case).
  (define-syntax store!
    (syntax-rules ()
      [(_ in off a class lo hi store)
       (cond
        [(eq? class 0) (if (int64-arg? a) (slot-s64-set! in off a) (store a))]
        [(eq? class 1) (if (arg-int? a lo hi) (slot-s64-set! in off a) (store a))]
        [(eq? class 2) (if (arg-flonum? a) (slot-f64-set! in off a) (store a))]
        [else (store a)])]))

  (define-syntax read-out
    (syntax-rules ()
      [(_ out off reader)
       (cond [(eq? reader 0) (slot-s64-ref out off)]
             [(eq? reader 1) (slot-f64-ref out off)]
             [else (slot-u64-ref out off)])]))

  ;; A callback's error waits until C has returned.
  (define-syntax check-pending
    (syntax-rules () [(_) (when (vector-ref pending 0) (raise-pending))]))

  ;; The results by shape: none, one signed or double slot as it is, one
  ;; slot read by reader and converted by convert (#f: as it is), more;
  ;; (make results) is the closure with results after the call.
  (define-syntax result-shapes
    (syntax-rules ()
      [(_ shape out reader convert specs make)
       (case shape
         [(none) (make (begin (check-pending) (values)))]
         [(s64) (make (let ([y (slot-s64-ref out 0)]) (check-pending) y))]
         [(f64) (make (let ([y (slot-f64-ref out 0)]) (check-pending) y))]
         [(one) (make (let ([y (read-out out 0 reader)])
                        (check-pending)
                        (if convert (convert y) y)))]
         [else (make (let ([ys (read-outs out specs)])
                       (check-pending)
                       (apply values (convert-outs ys specs))))])]))

  (define (read-outs out specs)
    (let loop ([ss specs] [off 0])
      (if (null? ss)
          '()
          (let ([y (read-out out off (vector-ref (car ss) 0))])
            (cons y (loop (cdr ss) (+ off 8)))))))

  (define (convert-outs ys specs)
    (map (lambda (y s) (let ([convert (vector-ref s 1)]) (if convert (convert y) y))) ys specs))

  ;; (with-specs in-specs ((class lo hi store) ...) body): body with each
  ;; argument's #(class lo hi store) in variables.
  (define-syntax with-specs
    (syntax-rules ()
      [(_ in-specs () body) body]
      [(_ in-specs ((class lo hi store) more ...) body)
       (let* ([s (car in-specs)] [class (vector-ref s 0)] [lo (vector-ref s 1)]
              [hi (vector-ref s 2)] [store (vector-ref s 3)])
         (with-specs (cdr in-specs) (more ...) body))]))

  ;; The closure of the arguments (a offset class lo hi store) ..., for
  ;; the function's shape of results.
  (define-syntax fast-closure
    (syntax-rules ()
      [(_ (who n call in out shape reader convert specs in-specs) (a off class lo hi store) ...)
       (with-specs in-specs ((class lo hi store) ...)
         (let-syntax ([make (syntax-rules ()
                              [(_ results)
                               (case-lambda
                                 [(a ...) (store! in off a class lo hi store) ... (call) results]
                                 [args (arity-error who n args)])])])
           (result-shapes shape out reader convert specs make)))]))

  ;; A function of more arguments: each one's full check and store.
  (define (fast-list who n call out specs in-specs)
    (lambda args
      (unless (= (length args) n) (arity-error who n args))
      (for-each (lambda (a s) ((vector-ref s 3) a)) args in-specs)
      (call)
      (let ([ys (read-outs out specs)])
        (check-pending)
        (apply values (convert-outs ys specs)))))

  (define (fast-procedure who record f ins specs)
    (let* ([n (length ins)] [shape (out-shape specs)]
           [reader (and (pair? specs) (vector-ref (car specs) 0))]
           [convert (and (pair? specs) (vector-ref (car specs) 1))]
           [nonnull (or (described record 'nonnull) '())])
      (let-values ([(call in out) (bind-call f n (length specs))])
        (let ([in-specs (let loop ([cs ins] [i 1])
                          (if (null? cs)
                              '()
                              (cons (in-spec who in (car cs) i nonnull) (loop (cdr cs) (+ i 1)))))])
          (let-syntax ([fast (syntax-rules ()
                               [(_ slot ...) (fast-closure (who n call in out shape reader convert
                                                                specs in-specs)
                                                           slot ...)])])
            (case n
              [(0) (fast)]
              [(1) (fast (a1 0 c1 l1 h1 s1))]
              [(2) (fast (a1 0 c1 l1 h1 s1) (a2 8 c2 l2 h2 s2))]
              [(3) (fast (a1 0 c1 l1 h1 s1) (a2 8 c2 l2 h2 s2) (a3 16 c3 l3 h3 s3))]
              [(4) (fast (a1 0 c1 l1 h1 s1) (a2 8 c2 l2 h2 s2) (a3 16 c3 l3 h3 s3)
                         (a4 24 c4 l4 h4 s4))]
              [(5) (fast (a1 0 c1 l1 h1 s1) (a2 8 c2 l2 h2 s2) (a3 16 c3 l3 h3 s3)
                         (a4 24 c4 l4 h4 s4) (a5 32 c5 l5 h5 s5))]
              [(6) (fast (a1 0 c1 l1 h1 s1) (a2 8 c2 l2 h2 s2) (a3 16 c3 l3 h3 s3)
                         (a4 24 c4 l4 h4 s4) (a5 32 c5 l5 h5 s5) (a6 40 c6 l6 h6 s6))]
              [else (fast-list who n call out specs in-specs)]))))))

  (define (out-shape specs)
    (cond [(null? specs) 'none]
          [(pair? (cdr specs)) 'many]
          [(vector-ref (car specs) 1) 'one]
          [(eqv? (vector-ref (car specs) 0) 0) 's64]
          [(eqv? (vector-ref (car specs) 0) 1) 'f64]
          [else 'one]))

  ;; ---- the checked path ------------------------------------------------------

  ;; The IDL's checks of function record's arguments, as (position .
  ;; check) pairs, check (a) raising when a is refused; and the positions
  ;; of its closure arguments.
  (define (argument-checks who record ins callback-signatures)
    (let ([nonnull (or (described record 'nonnull) '())]
          [nullable (or (described record 'nullable) '())]
          [closures (or (described record 'closures) '())])
      (let loop ([cs ins] [i 1] [checks '()] [closure-positions '()])
        (if (null? cs)
            (values (reverse checks) (reverse closure-positions))
            (let* ([c (car cs)] [kind (and (char? c) (code-kind c))]
                   [null-ok (not (memv i nonnull))]
                   [check
                    (cond
                     [(eq? kind 'closure)
                      (closure-check who i null-ok
                                     (find (lambda (r) (= (described r 'arg) i)) closures)
                                     callback-signatures)]
                     [(and (eq? kind 'string) (not (memv i nullable)))
                      (let-values ([(kind text) (if null-ok
                                                    (values 'type "expected a string")
                                                    (values 'null "NULL where the IDL says nonnull"))])
                        (let ([message (string-append (position-text i) ": " text)])
                          (lambda (a) (unless a (misuse/kind who kind message)))))]
                     [(or (eq? kind 'pointer) (and kind (not null-ok)))
                      (lambda (a) (arg-pointer who i a null-ok))]
                     [else #f])])
              (loop (cdr cs) (+ i 1) (if check (cons (cons i check) checks) checks)
                    (if (eq? kind 'closure) (cons i closure-positions) closure-positions)))))))

  ;; A closure argument's check: the signatures its callback must have
  ;; per member and its scope, neither for a slot of a closure set (the
  ;; owner's group goes there).
  (define (closure-check who position null-ok closure callback-signatures)
    (let* ([free? (and closure (not (described closure 'set)))]
           [types (and free? (map callback-signatures (described closure 'callbacks)))]
           [scope (and free? (string->symbol (described closure 'scope)))])
      (lambda (a) (arg-callback who position a null-ok types scope))))

  ;; Checks, then the call (after the thunk pool's last error is cleared,
  ;; for a function binding a thunk), then owned results converted. A
  ;; check that refuses the call releases the call-scope closures passed
  ;; to it (refused); with one check only, the refused argument is the
  ;; only closure, and not a live one.
  (define (checked-procedure who record f ins converters callback-signatures)
    (let-values ([(checks closure-positions) (argument-checks who record ins callback-signatures)])
      (let* ([n (length ins)]
             [call (if (described record 'thunks) thunk-call nccc-call)]
             [guarded? (and (pair? closure-positions) (pair? checks) (pair? (cdr checks)))]
             [check-all (lambda (args)
                          (for-each (lambda (p) ((cdr p) (list-ref args (- (car p) 1)))) checks))]
             [convert? (exists (lambda (c) c) converters)])
        (lambda args
          (unless (= (length args) n) (arity-error who n args))
          (if guarded?
              (guard (e [#t (apply refused e (map (lambda (i) (list-ref args (- i 1)))
                                                  closure-positions))])
                (check-all args))
              (check-all args))
          (if convert?
              (call-with-values (lambda () (apply call f args))
                (lambda ys (apply values (map (lambda (c y) (if c (c y) y)) converters ys))))
              (apply call f args)))))))
