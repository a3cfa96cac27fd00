#!r6rs
;;; test/scheme/standin/compat.sls — a stand-in (nccc compat) for
;;; bind_all.sps: the adapter contract of docs/SCHEME.md with no C
;;; behind it, the same file on Guile, Chez and Racket. compat-load reads
;;; a description of modules (standin.scm, written by standin_modules.py)
;;; and compat-call answers the runtime's built-ins from it, as a library
;;; built from those IDLs would: the root, lookup and function,
;;; module_*, alloc/free/read/write/peek/poke/strlen over a memory kept
;;; here, and closure claims and releases (each release sends its
;;; notices to the dispatcher's handler). A call of a module's function
;;; is logged (standin-calls) and leaves its results 0.
(library (nccc compat)
  (export compat-implementation compat-load compat-symbol compat-call
          compat-bound-call compat-dispatcher compat-guarded compat-guardian compat-collect
          slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set!
          slot-f64-set! view-s64-ref view-u64-ref view-f64-ref view-s64-set!
          view-u64-set! view-f64-set! arg-int? arg-flonum?
          standin-calls standin-constant-value standin-modules)
  (import (rnrs) (nccc abi))

  (define compat-implementation 'standin)

  ;; ---- memory: blocks by start address ------------------------------------

  (define blocks '())                   ; ((start . bytevector) ...)
  (define next-address #x100000)

  (define (alloc! n)
    (let ([a next-address])
      (set! next-address (+ a (* 16 (+ 2 (div n 16)))))
      (set! blocks (cons (cons a (make-bytevector (max n 1) 0)) blocks))
      a))

  (define (free! a) (set! blocks (remp (lambda (b) (= (car b) a)) blocks)))

  ;; -> (values bytevector offset) of address a, raising outside a block
  (define (place a)
    (let ([b (find (lambda (b) (<= (car b) a (+ (car b) (bytevector-length (cdr b)) -1)))
                   blocks)])
      (unless b (assertion-violation 'standin "address outside the stand-in's memory" a))
      (values (cdr b) (- a (car b)))))

  (define (read-bytes a n)
    (let ([out (make-bytevector n)])
      (let-values ([(bv k) (place a)]) (bytevector-copy! bv k out 0 n))
      out))
  (define (write-bytes! a bv)
    (let-values ([(to k) (place a)])
      (bytevector-copy! bv 0 to k (bytevector-length bv))))

  (define (c-strlen a)
    (let-values ([(bv k) (place a)])
      (let loop ([i k]) (if (= 0 (bytevector-u8-ref bv i)) (- i k) (loop (+ i 1))))))
  (define (c-string a) (utf8->string (read-bytes a (c-strlen a))))

  ;; The C copy of s, made once per string.
  (define c-strings (make-hashtable string-hash string=?))
  (define (c-string! s)
    (or (hashtable-ref c-strings s #f)
        (let* ([bv (string->utf8 s)] [a (alloc! (+ 1 (bytevector-length bv)))])
          (write-bytes! a bv)
          (hashtable-set! c-strings s a)
          a)))

  ;; ---- the adapter's slots and views ---------------------------------------

  (define slot-s64-ref bytevector-s64-native-ref)
  (define slot-u64-ref bytevector-u64-native-ref)
  (define slot-f64-ref bytevector-ieee-double-native-ref)
  (define slot-s64-set! bytevector-s64-native-set!)
  (define slot-u64-set! bytevector-u64-native-set!)
  (define slot-f64-set! bytevector-ieee-double-native-set!)
  (define (viewing ref) (lambda (a o) (let-values ([(bv k) (place a)]) (ref bv (+ k o)))))
  (define (setting set) (lambda (a o v) (let-values ([(bv k) (place a)]) (set bv (+ k o) v))))
  (define view-s64-ref (viewing bytevector-s64-native-ref))
  (define view-u64-ref (viewing bytevector-u64-native-ref))
  (define view-f64-ref (viewing bytevector-ieee-double-native-ref))
  (define view-s64-set! (setting bytevector-s64-native-set!))
  (define view-u64-set! (setting bytevector-u64-native-set!))
  (define view-f64-set! (setting bytevector-ieee-double-native-set!))

  (define-syntax arg-int?
    (syntax-rules () [(_ v lo hi) (and (integer? v) (exact? v) (<= lo v hi))]))
  (define-syntax arg-flonum?
    (syntax-rules () [(_ v) (and (real? v) (inexact? v))]))

  (define-syntax compat-guarded
    (syntax-rules () [(_ (e) (f a b c) handler) (guard (e (#t handler)) (f a b c))]))

  ;; nothing is collected here: a guardian never gives an object back
  (define (compat-guardian) (case-lambda [(obj) (if #f #f)] [() #f]))
  (define (compat-collect) (if #f #f))

  ;; ---- the modules: (name (functions (name sig n-in n-out args) ...)
  ;; (callbacks ...) (constants (name code) ...) (layouts (name kind size
  ;; align ((field code offset size count) ...)) ...)), as read

  (define modules '#())
  (define (standin-modules) modules)
  (define (part m key) (cdr (assoc key (cdr m))))
  (define (module-part k key) (list->vector (part (vector-ref modules k) key)))

  ;; A function's address and handle (the module index in the handle's
  ;; module bits, docs/ABI.md).
  (define function-base #x7000000000)
  (define (function-address m k) (+ function-base (* m #x100000) (* 16 k)))
  (define (function-handle m k)
    (+ abi-handle-module-marker (bitwise-arithmetic-shift-left m abi-handle-module-shift)
       abi-handle-function-marker k))

  ;; The value constant k of code must read as in a bound library.
  (define (standin-constant-value name code k)
    (case (string-ref code 0)
      [(#\?) #t]
      [(#\f #\d) (+ k 0.5)]
      [(#\s) name]
      [else (+ k 1)]))

  (define (constant-slot name code k)
    (let ([v (standin-constant-value name code k)])
      (cond [(boolean? v) 1]
            [(string? v) (c-string! v)]
            [(inexact? v) (let ([bv (make-bytevector 8)])
                            (bytevector-ieee-double-native-set! bv 0 v)
                            (bytevector-u64-native-ref bv 0))]
            [else v])))

  ;; ---- loading ----------------------------------------------------------------

  (define root-address #x6000000000)
  (define (builtin-address k) (+ root-address 16 (* 16 k)))

  (define (compat-load path)
    (set! modules (list->vector (call-with-input-file path
                                  (lambda (port)
                                    (let loop ([acc '()])
                                      (let ([x (read port)])
                                        (if (eof-object? x) (reverse acc) (loop (cons x acc)))))))))
    path)

  (define (compat-symbol lib name) (and (string=? name "nccc_root") root-address))

  (define calls '())
  (define (standin-calls) (let ([c (reverse calls)]) (set! calls '()) c))

  (define (compat-call fn in out)
    (cond [(= fn root-address)
           (let ([k (bytevector-u64-native-ref in 0)])
             (put! out 0 (builtin-address k) (c-string! (vector-ref (vector-ref abi-builtins k) 1))))]
          [(and (>= fn (builtin-address 0)) (< fn function-base))
           (builtin (vector-ref (vector-ref abi-builtins (div (- fn (builtin-address 0)) 16)) 1)
                    (lambda (i) (bytevector-u64-native-ref in (* 8 i))) in out)]
          [else (set! calls (cons fn calls))]))

  (define (compat-bound-call fn in out) (lambda () (compat-call fn in out)))

  ;; out[0] the status, then the values
  (define (put! out status . vs)
    (let loop ([vs (cons status vs)] [k 0])
      (unless (null? vs)
        (bytevector-u64-native-set! out (* 8 k) (bitwise-and (car vs) #xFFFFFFFFFFFFFFFF))
        (loop (cdr vs) (+ k 1)))))

  (define not-found (cdr (assq 'err-name-not-found abi-status)))

  ;; (values module-index function-index) of "module.function", or #f
  (define (find-function qualified)
    (let loop ([m 0])
      (and (< m (vector-length modules))
           (let* ([name (car (vector-ref modules m))] [n (string-length name)])
             (or (and (> (string-length qualified) n)
                      (string=? (substring qualified 0 n) name)
                      (char=? (string-ref qualified n) #\.)
                      (let ([fs (module-part m "functions")]
                            [f (substring qualified (+ n 1) (string-length qualified))])
                        (let scan ([k 0])
                          (and (< k (vector-length fs))
                               (if (string=? (car (vector-ref fs k)) f)
                                   (cons m k)
                                   (scan (+ k 1)))))))
                 (loop (+ m 1)))))))

  (define (find-module name)
    (let loop ([m 0])
      (and (< m (vector-length modules))
           (if (string=? (car (vector-ref modules m)) name) m (loop (+ m 1))))))

  (define (kind-number kind)
    (car (find (lambda (p) (string=? (symbol->string (cdr p)) kind)) abi-type-kinds)))

  ;; ---- closures: the words of each live context --------------------------

  ;; the dispatcher: an address nothing calls (the stand-in never calls
  ;; back), its handler kept for the release notices
  (define handler #f)
  (define dispatcher-address #x5000000000)
  (define contexts '())                 ; ((context word ...) ...)
  (define (compat-dispatcher h) (set! handler h) dispatcher-address)

  (define (release! context)
    (let ([c (assv context contexts)])
      (when c
        (set! contexts (remq c contexts))
        (for-each (lambda (word)
                    (let ([in (alloc! 8)])
                      (view-u64-set! in 0 word)
                      (handler in #f)
                      (free! in)))
                  (cdr c)))))

  ;; ---- the built-ins ----------------------------------------------------------

  (define (builtin name in in-bv out)
    (cond
     [(string=? name "version") (put! out 0 #x10000 (c-string! "stand-in"))]
     [(string=? name "last_error") (put! out 0 0 (c-string! ""))]
     [(string=? name "clear_error") (put! out 0)]
     [(string=? name "register") (put! out 0 1)]
     [(string=? name "lookup")
      (let ([hit (find-function (c-string (in 0)))])
        (if hit (put! out 0 (function-handle (car hit) (cdr hit))) (put! out not-found)))]
     [(string=? name "function")
      (let* ([m (bitwise-and (bitwise-arithmetic-shift-right (in 0) abi-handle-module-shift)
                             abi-handle-index-mask)]
             [k (bitwise-and (in 0) abi-handle-index-mask)]
             [f (vector-ref (module-part m "functions") k)])
        (put! out 0 (function-address m k)
              (c-string! (string-append (car (vector-ref modules m)) "." (car f)))
              (c-string! (cadr f)) (caddr f) (cadddr f)))]
     [(string=? name "module_count") (put! out 0 (+ 1 (vector-length modules)))]
     [(string=? name "module_info")
      (if (< (in 0) (vector-length modules))
          (put! out 0 (c-string! (car (vector-ref modules (in 0))))
                (vector-length (module-part (in 0) "functions"))
                (vector-length (module-part (in 0) "layouts"))
                (vector-length (module-part (in 0) "constants")))
          (put! out not-found))]
     [(string=? name "module_find")
      (let ([m (find-module (c-string (in 0)))])
        (if m (put! out 0 m) (put! out not-found)))]
     [(string=? name "module_type")
      (let ([t (vector-ref (module-part (in 0) "layouts") (in 1))])
        (put! out 0 (c-string! (car t)) (caddr t) (cadddr t) (kind-number (cadr t))
              (length (list-ref t 4))))]
     [(string=? name "module_field")
      (let ([f (list-ref (list-ref (vector-ref (module-part (in 0) "layouts") (in 1)) 4) (in 2))])
        (put! out 0 (c-string! (car f)) (c-string! (cadr f)) (caddr f) (cadddr f)
              (list-ref f 4)))]
     [(string=? name "module_constant")
      (let ([c (vector-ref (module-part (in 0) "constants") (in 1))])
        (put! out 0 (c-string! (car c)) (c-string! (cadr c))
              (constant-slot (car c) (cadr c) (in 1))))]
     [(string=? name "alloc") (put! out 0 (alloc! (in 0)))]
     [(string=? name "free") (free! (in 0)) (put! out 0)]
     [(string=? name "strlen") (put! out 0 (c-strlen (in 0)))]
     [(string=? name "read") (bytevector-copy! (read-bytes (in 0) (in 1)) 0 out 8 (in 1)) (put! out 0)]
     [(string=? name "write")
      (let ([bv (make-bytevector (in 1))])
        (bytevector-copy! in-bv 16 bv 0 (in 1))
        (write-bytes! (in 0) bv)
        (put! out 0))]
     [(string=? name "peek") (put! out 0 (peek (in 0) (integer->char (in 1))))]
     [(string=? name "poke") (poke! (in 0) (integer->char (in 1)) (in 2)) (put! out 0)]
     [(string=? name "closure_claim_group_typed")
      (let ([context (alloc! 8)])
        (set! contexts (cons (cons context (map (lambda (j) (in (+ 3 (* 3 j) 1)))
                                                (iota (in 2))))
                             contexts))
        (put! out 0 context))]
     [(string=? name "closure_release") (release! (in 0)) (put! out 0)]
     [(string=? name "closure_stats") (put! out 0 0 (length contexts) 0 0 0)]
     [else (assertion-violation 'standin "a built-in the stand-in does not answer" name)]))

  (define (iota n) (let loop ([k (- n 1)] [acc '()]) (if (< k 0) acc (loop (- k 1) (cons k acc)))))

  ;; A slot's value of code c at address a, and back (docs/ABI.md, "Slots").
  (define (code-size c) (let ([b (vector-ref (abi-code c) 3)]) (if (= b 0) 8 b)))
  (define (peek a c)
    (let ([bv (read-bytes a (code-size c))] [e (native-endianness)])
      (case c
        [(#\f) (float-slot (bytevector-ieee-single-ref bv 0 e))]
        [(#\d) (bytevector-u64-ref bv 0 e)]
        [else (if (vector-ref (abi-code c) 4)
                  (bytevector-sint-ref bv 0 e (code-size c))
                  (bytevector-uint-ref bv 0 e (code-size c)))])))
  (define (float-slot x)
    (let ([bv (make-bytevector 8)])
      (bytevector-ieee-double-native-set! bv 0 x)
      (bytevector-u64-native-ref bv 0)))
  (define (poke! a c slot)
    (let ([bv (make-bytevector 8)] [e (native-endianness)] [n (code-size c)])
      (bytevector-u64-native-set! bv 0 slot)
      (write-bytes! a (case c
                        [(#\f) (let ([s (make-bytevector 4)])
                                 (bytevector-ieee-single-set! s 0 (bytevector-ieee-double-native-ref bv 0) e)
                                 s)]
                        [else (let ([s (make-bytevector n)])
                                (bytevector-copy! bv 0 s 0 n)
                                s)])))))
