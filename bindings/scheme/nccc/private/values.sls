#!r6rs
;;; nccc/private/values.sls — (nccc private values), what every part of
;;; the Scheme host shares about values crossing the slot ABI
;;; (docs/ABI.md): the &nccc condition and how misuse is raised, slot
;;; buffers, numbers by signature code, and the walk of a signature string
;;; into items. Internal: (nccc core) is the public face.
(library (nccc private values)
  (export &nccc make-nccc-condition nccc-error? nccc-error-status nccc-error-kind
          status-value rpc-failures raise-nccc fail misuse misuse/kind count-error
          two^64 u64-max exact-int? iota-from
          make-slots slot-ref slot-set! slots slots-of
          code-kind code-signed? code-min code-max code-holds? code-type-name slot->int int->slot
          double->slot slot->double float->slot float-in-range float-fits?
          make-sref sref? sref-name sref-slots sref-size sref-layout
          scalar-code? parse-signature item-slots items-slots items-rest?)
  (import (rnrs) (nccc abi))

  ;; ---- errors --------------------------------------------------------

  ;; status: the runtime's nccc_status for failures it reported, #f for
  ;; misuse found on this side (wrong count, type or range, unknown name).
  ;; kind: a symbol naming the misuse (count type range integral unknown
  ;; callback nul field scope released closed pool packed null) or, for
  ;; a failure the runtime reported, runtime (pool, released, null and
  ;; remote when its status says so).
  (define-condition-type &nccc &error make-nccc-condition nccc-error?
    (status nccc-error-status) (kind nccc-error-kind))

  (define (raise-nccc who status kind message irritants)
    (raise (condition (make-nccc-condition status kind) (make-who-condition who)
                      (make-message-condition message)
                      (make-irritants-condition irritants))))

  ;; The value of a status named like err-name-not-found.
  (define (status-value name) (cdr (assq name abi-status)))

  ;; The statuses of a failure of a remote call itself, named err-rpc-...:
  ;; (symbol . value).
  (define rpc-failures
    (filter (lambda (p)
              (let ([s (symbol->string (car p))])
                (and (> (string-length s) 8) (string=? (substring s 0 8) "err-rpc-"))))
            abi-status))

  ;; The kinds of failures the runtime reports that get their own: those
  ;; below, and remote for the failure of a remote call itself.
  (define status-kinds
    (append
     (map (lambda (p) (cons (status-value (car p)) (cdr p)))
          '((err-pool-exhausted . pool) (err-stale-closure . released)
            (err-null-pointer . null)))
     (map (lambda (p) (cons (cdr p) 'remote)) rpc-failures)))

  (define (fail who status message . irritants)
    (raise-nccc who status
                (cond [(assv status status-kinds) => cdr] [else 'runtime])
                message irritants))

  ;; Misuse found on this side; its kind from the message when not given.
  (define (misuse who message . irritants)
    (raise-nccc who #f (message-kind message irritants) message irritants))
  (define (misuse/kind who kind message . irritants)
    (raise-nccc who #f kind message irritants))

  (define (message-kind message irritants)
    (define (has part)
      (let ([n (string-length message)] [m (string-length part)])
        (let loop ([k 0])
          (and (<= (+ k m) n)
               (or (string=? (substring message k (+ k m)) part) (loop (+ k 1)))))))
    (cond [(has "wrong number of arguments") 'count]
          [(or (has "out of range") (has "field's range")) 'range]
          [(has "exact integer")
           (if (and (pair? irritants) (real? (car irritants))) 'integral 'type)]
          [(has "no such field") 'field]
          [(has "no such") 'unknown]
          [(has "released") 'released]
          [(has "closed") 'closed]
          [(has "NUL") 'nul]
          [(has "scope") 'scope]
          [(has "bytevector of") 'field]
          [(has "returned") 'callback]
          [else 'type]))

  (define (count-error who n at-least? got)
    (misuse/kind who 'count
                 (string-append "wrong number of arguments: expects "
                                (if at-least? "at least " "") (number->string n)
                                " arguments, got " (number->string got))))

  ;; ---- slots ----------------------------------------------------------

  ;; Literals in every library that uses them, not imported variables.
  (define-syntax two^64 (identifier-syntax 18446744073709551616))
  (define-syntax u64-max (identifier-syntax 18446744073709551615))

  ;; A macro: a call across libraries costs more than the test.
  (define-syntax exact-int?
    (syntax-rules () [(_ v) (let ([x v]) (and (integer? x) (exact? x)))]))

  (define (iota-from start n)
    (let loop ([k (- n 1)] [acc '()])
      (if (< k 0) acc (loop (- k 1) (cons (+ start k) acc)))))

  ;; A slot buffer of n slots (never empty: C gets a valid address).
  ;; These and the two below are macros: every call would otherwise
  ;; cross into this library, which Guile does not inline.
  (define-syntax make-slots
    (syntax-rules () [(_ n) (make-bytevector (* 8 (max n 1)) 0)]))
  (define-syntax slot-ref
    (syntax-rules () [(_ bv i) (bytevector-u64-native-ref bv (* 8 i))]))
  (define-syntax slot-set!
    (syntax-rules () [(_ bv i v) (bytevector-u64-native-set! bv (* 8 i) v)]))
  (define (slots-of nbytes) (div (+ nbytes 7) 8))

  ;; A buffer holding these words, one a slot.
  (define (slots . words)
    (let ([bv (make-slots (length words))])
      (let loop ([k 0] [vs words])
        (unless (null? vs)
          (slot-set! bv k (car vs))
          (loop (+ k 1) (cdr vs))))
      bv))

  ;; ---- numbers by code --------------------------------------------------

  ;; A code's kind (int, float, pointer ...) and signedness, as (nccc abi)
  ;; says; #f for a character that is no code.
  (define (code-kind c) (let ([v (abi-code c)]) (and v (vector-ref v 2))))
  (define (code-signed? c) (let ([v (abi-code c)]) (and v (vector-ref v 4))))

  ;; The integer codes of (nccc abi) (ints and errno), by code: the
  ;; ABI's #(code name kind bytes signed? min max ...).
  (define int-specs
    (map (lambda (v) (cons (vector-ref v 0) v))
         (filter (lambda (v) (memq (vector-ref v 2) '(int errno))) abi-codes)))
  (define (int-spec-of c) (cdr (assv c int-specs)))

  (define (code-type-name c) (vector-ref (int-spec-of c) 1))
  (define (code-min c) (vector-ref (int-spec-of c) 5))
  (define (code-max c) (vector-ref (int-spec-of c) 6))
  ;; Whether the integer code c's range holds v (exact).
  (define (code-holds? c v)
    (let ([spec (int-spec-of c)]) (<= (vector-ref spec 5) v (vector-ref spec 6))))

  ;; The low bits of slot s as the integer code c's value (the ABI takes
  ;; the low bits when narrowing).
  (define (slot->int c s)
    (let* ([spec (int-spec-of c)] [bits (* 8 (vector-ref spec 3))]
           [m (bitwise-bit-field s 0 bits)])
      (if (and (vector-ref spec 4) (bitwise-bit-set? m (- bits 1)))
          (- m (expt 2 bits))
          m)))

  (define-syntax int->slot
    (syntax-rules () [(_ v) (let ([x v]) (if (< x 0) (+ x two^64) x))]))

  ;; Floats by bits: no arithmetic touches a NaN, so payloads and -0.0
  ;; survive.
  (define (double->slot x)
    (let ([b (make-bytevector 8)])
      (bytevector-ieee-double-native-set! b 0 x)
      (bytevector-u64-native-ref b 0)))
  (define (slot->double s)
    (let ([b (make-bytevector 8)])
      (bytevector-u64-native-set! b 0 s)
      (bytevector-ieee-double-native-ref b 0)))
  (define (nan-slot? s)
    (and (= (bitwise-bit-field s 52 63) #x7ff) (not (= 0 (bitwise-bit-field s 0 52)))))
  ;; What C's nccc_slot_from_float(nccc_slot_to_float(s)) gives: rounded
  ;; to float; a NaN keeps its sign and top 23 fraction bits by bits.
  (define (float->slot x)
    (let ([s (double->slot x)])
      (if (nan-slot? s)
          (let ([frac (bitwise-bit-field s 29 52)])
            (bitwise-ior (bitwise-and s (expt 2 63)) #x7ff0000000000000
                         (bitwise-arithmetic-shift-left
                          (if (= frac 0) #x400000 frac) 29)))
          (let ([b (make-bytevector 4)])
            (bytevector-ieee-single-native-set! b 0 x)
            (double->slot (bytevector-ieee-single-native-ref b 0))))))

  ;; A finite double beyond float's range is refused (infinities and
  ;; NaNs pass).
  (define (float-in-range who position x)
    (if (float-fits? x)
        x
        (misuse/kind who 'range (string-append "bad argument #" (number->string position)
                                               ": value out of range for float")
                     x)))
  (define (float-fits? x)
    (not (and (< 3.4028235677973366e38 (abs x)) (not (= x (* 2 x))) (= x x))))

  ;; ---- signatures ------------------------------------------------------

  ;; A parsed signature side is a list of items: a character (one slot),
  ;; an sref (a struct by value) or the symbol rest (variadic).
  (define-record-type sref (fields name slots size layout))

  (define in-codes (string->list abi-in-codes))
  (define out-codes (string->list abi-out-codes))
  (define (scalar-code? c) (and (memv c in-codes) #t))

  ;; -> (values in-items out-items); raises on a malformed string.
  (define (parse-signature who sig)
    (define n (string-length sig))
    (define (bad why) (misuse who (string-append "bad signature: " why) sig))
    (let loop ([i 0] [side 'in] [in '()] [out '()])
      (define (add item)
        (if (eq? side 'in)
            (values (cons item in) out)
            (values in (cons item out))))
      (define (items) (if (eq? side 'in) in out))
      (cond
       [(= i n)
        (when (eq? side 'in) (bad "no ':'"))
        (values (reverse in) (reverse out))]
       [else
        (let ([c (string-ref sig i)])
          (when (and (pair? (items)) (eq? (car (items)) 'rest)
                     (not (char=? c abi-sig-separator)))
            (bad "'*' is not the last code of its side"))
          (cond
           [(char=? c abi-sig-separator)
            (unless (eq? side 'in) (bad "more than one ':'"))
            (loop (+ i 1) 'out in out)]
           [(char=? c abi-sig-record-open)
            (let find ([j (+ i 1)])
              (cond
               [(= j n) (bad "'{' without '}'")]
               [(char=? (string-ref sig j) abi-sig-record-close)
                (let-values ([(name slots) (parse-struct-code (substring sig (+ i 1) j) bad)])
                  (let-values ([(in out) (add (make-sref name slots #f #f))])
                    (loop (+ j 1) side in out)))]
               [else (find (+ j 1))]))]
           [(char=? c abi-sig-variadic)
            (let-values ([(in out) (add 'rest)]) (loop (+ i 1) side in out))]
           [(memv c (if (eq? side 'in) in-codes out-codes))
            (let-values ([(in out) (add c)]) (loop (+ i 1) side in out))]
           [else (bad (string-append "unknown code '" (string c) "'"))]))])))

  ;; "name" or "name:N" -> (values name N-or-#f)
  (define (parse-struct-code text bad)
    (let loop ([k 0])
      (cond
       [(= k (string-length text))
        (when (= k 0) (bad "empty struct name"))
        (values text #f)]
       [(char=? (string-ref text k) abi-sig-record-count)
        (let ([count (string->number (substring text (+ k 1) (string-length text)))])
          (unless (and (> k 0) count (exact-int? count) (> count 0))
            (bad "bad struct slot count"))
          (values (substring text 0 k) count))]
       [else (loop (+ k 1))])))

  (define (item-slots item)
    (cond [(char? item) 1] [(sref? item) (sref-slots item)] [else 0]))
  (define (items-slots items)
    (fold-left (lambda (n item) (+ n (item-slots item))) 0 items))
  (define (items-rest? items) (and (memq 'rest items) #t)))
