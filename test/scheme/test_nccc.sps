#!r6rs
;;; test_nccc.sps — the Scheme host tests: one table of cases, run as it
;;; is by Guile 3, Chez Scheme and Racket (test/scheme/CMakeLists.txt)
;;; against the host fixture library (test/hosts/fixture), whose path is
;;; the first argument. Prints failures, then "N passed, M failed"; exits
;;; 1 when anything failed.
(import (rnrs) (nccc core) (prefix (nccc tour) tour:))

;; ---- the harness ---------------------------------------------------------

(define passed 0)
(define failed 0)

(define (show v) (call-with-string-output-port (lambda (p) (write v p))))

(define (fail! name detail)
  (set! failed (+ failed 1))
  (display "FAIL ") (display name) (display ": ") (display detail) (newline))

;; A case: a name, a thunk, and what its values must be (a list), or
;; (raises "text"): an nccc error whose message holds text.
(define (run-case name thunk expected)
  (guard (e (#t (if (and (pair? expected) (eq? (car expected) 'raises))
                    (let ([msg (condition-text e)])
                      (if (and (nccc-error? e) (string-contains msg (cadr expected)))
                          (set! passed (+ passed 1))
                          (fail! name (string-append "raised " msg ", expected an nccc error about "
                                                     (show (cadr expected))))))
                    (fail! name (string-append "raised " (condition-text e))))))
    (let ([got (call-with-values thunk list)])
      (cond
       [(and (pair? expected) (eq? (car expected) 'raises))
        (fail! name (string-append "returned " (show got) ", expected an error"))]
       [(same? got expected) (set! passed (+ passed 1))]
       [else (fail! name (string-append "got " (show got) ", expected " (show expected)))]))))

;; equal?, but flonums compare by bits (-0.0, NaN payloads)
(define (same? a b)
  (cond [(and (flonum? a) (flonum? b)) (= (bits a) (bits b))]
        [(and (pair? a) (pair? b)) (and (same? (car a) (car b)) (same? (cdr a) (cdr b)))]
        [(and (vector? a) (vector? b))
         (same? (vector->list a) (vector->list b))]
        [else (equal? a b)]))

(define (condition-text e)
  (cond [(and (condition? e) (message-condition? e))
         (string-append (condition-message e)
                        (if (irritants-condition? e) (show (condition-irritants e)) ""))]
        [else (show e)]))

(define (string-contains s part)
  (let ([n (string-length s)] [m (string-length part)])
    (let loop ([k 0])
      (and (<= (+ k m) n)
           (or (string=? (substring s k (+ k m)) part) (loop (+ k 1)))))))

(define cases '())
;; Expected values are computed when the case runs, after the setup.
(define-syntax test
  (syntax-rules (=>)
    [(_ name expr => expected ...)
     (set! cases (cons (list name (lambda () expr) (lambda () (list expected ...))) cases))]))
(define-syntax test-error
  (syntax-rules ()
    [(_ name expr text)
     (set! cases (cons (list name (lambda () expr) (lambda () (list 'raises text))) cases))]))

;; ---- values by bits ---------------------------------------------------------

(define (bits x)
  (let ([b (make-bytevector 8)])
    (bytevector-ieee-double-native-set! b 0 x)
    (bytevector-u64-native-ref b 0)))
;; The slot that holds these bytes first, as memory does (native order).
(define (bytes->slot bytes)
  (let ([b (make-bytevector 8 0)])
    (for-each (lambda (k v) (bytevector-u8-set! b k v)) (iota (length bytes)) bytes)
    (bytevector-u64-native-ref b 0)))
(define (iota n) (let loop ([k (- n 1)] [acc '()]) (if (< k 0) acc (loop (- k 1) (cons k acc)))))
(define (from-bits s)
  (let ([b (make-bytevector 8)])
    (bytevector-u64-native-set! b 0 s)
    (bytevector-ieee-double-native-ref b 0)))

;; ---- the fixture -----------------------------------------------------------------

(define rt (nccc-load (cadr (command-line))))
(define fixture-open
  (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI" "nccc_fixture_open"))
(define (fn name) (nccc-lookup rt name))
(define (call name . args) (apply nccc-call (fn name) args))
(define (held-and-in-use)
  (let-values ([(capacity in-use stale) (nccc-closure-stats rt)])
    (list (nccc-callbacks-held) in-use)))
(define (stale-calls)
  (let-values ([(capacity in-use stale) (nccc-closure-stats rt)]) stale))

;; The fixture's modules are added by the host, through the primitive.
(define modules-before-open (nccc-modules rt))
(define first-open (call-with-values (lambda () (nccc-call fixture-open)) list))

(define EDOM 33)
(define ERANGE 34)

;; ---- runtime and registry ------------------------------------------------------

(test "modules before the fixture is opened" modules-before-open => '#("nccc"))
(test "fixture open adds two modules" first-open => '(0 2))
(test "a second open adds none" (nccc-call fixture-open) => 0 0)
(test "version: the packed number agrees with the string"
      (let-values ([(packed text) (nccc-version rt)])
        (string=? text (string-append (number->string (bitwise-bit-field packed 16 32)) "."
                                      (number->string (bitwise-bit-field packed 8 16)) "."
                                      (number->string (bitwise-bit-field packed 0 8)))))
      => #t)
(test "modules" (nccc-modules rt) => '#("nccc" "tour" "hcb"))
(test "listing of one module"
      (let ([v (nccc-functions rt "hcb")]) (list (vector-length v) (vector-ref v 0)))
      => '(14 "hcb.fold"))
(test "listing of everything"
      (let ([v (vector->list (nccc-functions rt))])
        (list (length v) (and (member "tour.add" v) #t) (and (member "nccc.peek" v) #t)
              (and (member "scheme.dispatch" v) #t) (car (reverse v))))
      => (list (+ 34 57 14 1) #t #t #t "scheme.dispatch"))
(test "functions of the built-in module" (vector-ref (nccc-functions rt "nccc") 33)
      => "nccc.fault_query")
(test "signature from the registry" (nccc-function-signature (fn "tour.divmod")) => "ii:ii")
(test "the dispatcher is registered once, under its name"
      (nccc-function-signature (fn "scheme.dispatch")) => "L*:*")
(test "a built-in called by name, status first"
      (let* ([p (nccc-string->c rt "four")]
             [r (call-with-values (lambda () (call "nccc.strlen" p)) list)])
        (nccc-free rt p)
        r)
      => '(0 4))

;; ---- every scalar code at its edges: tour's echo functions ----------------------

(define int-ranges
  '((#\b -128 127) (#\B 0 255) (#\h -32768 32767) (#\H 0 65535)
    (#\i -2147483648 2147483647) (#\I 0 4294967295)
    (#\l -9223372036854775808 9223372036854775807) (#\L 0 18446744073709551615)))

;; The range comes from each function's signature (char, long, size_t ...
;; depend on the target), looked up when the case runs.
(for-each
 (lambda (name)
   (define (f) (fn (string-append "tour." name)))
   (define (range) (cdr (assv (string-ref (nccc-function-signature (f)) 0) int-ranges)))
   (define (lo) (car (range)))
   (define (hi) (cadr (range)))
   (test (string-append name " least") (nccc-call (f) (lo)) => (lo))
   (test (string-append name " greatest") (nccc-call (f) (hi)) => (hi))
   (test (string-append name " zero") (nccc-call (f) 0) => 0)
   (test-error (string-append name " below range") (nccc-call (f) (- (lo) 1)) "out of range")
   (test-error (string-append name " above range") (nccc-call (f) (+ (hi) 1)) "out of range")
   (test-error (string-append name " inexact") (nccc-call (f) 1.0) "exact integer"))
 '("echo_char" "echo_schar" "echo_uchar" "echo_short" "echo_ushort" "echo_int"
   "echo_uint" "echo_long" "echo_ulong" "echo_llong" "echo_ullong" "echo_i8" "echo_u8"
   "echo_i16" "echo_u16" "echo_i32" "echo_u32" "echo_i64" "echo_u64" "echo_size"
   "echo_ssize" "echo_intptr" "echo_uintptr" "echo_ptrdiff" "echo_color" "echo_ulong_t"))

(test "u64 is not wrapped" (call "tour.echo_u64" (- (expt 2 64) 1)) => 18446744073709551615)
(test "i8 sign" (call "tour.echo_i8" -1) => -1)
(test "bool true" (call "tour.echo_bool" #t) => #t)
(test "bool false" (call "tour.echo_bool" #f) => #f)
(test-error "bool from an integer" (call "tour.echo_bool" 1) "boolean")

(define (echo-double-bits s) (bits (call "tour.echo_double" (from-bits s))))
(define (echo-float-bits s) (bits (call "tour.echo_float" (from-bits s))))
(test "double -0.0" (echo-double-bits #x8000000000000000) => #x8000000000000000)
(test "double quiet NaN payload" (echo-double-bits #x7ff8deadbeef0001) => #x7ff8deadbeef0001)
(test "double signalling NaN" (echo-double-bits #x7ff0000000000001) => #x7ff0000000000001)
(test "double negative NaN" (echo-double-bits #xfff8000000000123) => #xfff8000000000123)
(test "double +inf" (call "tour.echo_double" (from-bits #x7ff0000000000000))
      => (from-bits #x7ff0000000000000))
(test "double least subnormal" (echo-double-bits 1) => 1)
(test "double greatest" (echo-double-bits #x7fefffffffffffff) => #x7fefffffffffffff)
(test "double from an exact integer" (call "tour.echo_double" 3) => 3.0)
(test-error "double from a string" (call "tour.echo_double" "3") "real number")
(test "float rounds like C" (exact (call "tour.echo_float" 0.1)) => 13421773/134217728)
(test "float -0.0" (echo-float-bits #x8000000000000000) => #x8000000000000000)
(test "float quiet NaN payload" (echo-float-bits #x7ff8000020000000) => #x7ff8000020000000)
(test "float signalling NaN" (echo-float-bits #x7ff4000000000000) => #x7ff4000000000000)
(test "float greatest" (call "tour.echo_float" 3.4028234663852886e38) => 3.4028234663852886e38)
(test "float overflow is infinity" (echo-float-bits (bits 1e39)) => #x7ff0000000000000)
(test "float least subnormal" (exact (call "tour.echo_float" (expt 2. -149))) => (expt 2 -149))
(test "mix of codes" (call "tour.mix" -1 65535 1.5 2.25 (- (expt 2 40)) 7)
      => (+ -1. 65535 1.5 2.25 (- (expt 2. 40)) 7))
(test "void, no results" (call "tour.nothing") =>)
(test "add" (call "tour.add" (- (expt 2 62)) 5) => (+ (- (expt 2 62)) 5))

;; ---- strings --------------------------------------------------------------

(test "string in" (call "tour.text_length" "hello") => 5)
(test "empty string" (call "tour.text_length" "") => 0)
(test "string in as UTF-8" (call "tour.text_length" "h\xe9;llo \x3bb;") => 9)
(test "string out" (call "tour.name_of_color" (nccc-constant rt "tour.GREEN")) => "green")
(test "[out] string into an argument string" (call "tour.parse_int" "42 rest") => 42 " rest")
(test "owned string out as an address"
      (let* ([p (call "tour.join" "ab" "cd")] [s (nccc-string-at rt p)])
        (call "tour.release" p)
        s)
      => "abcd")
(test "nullable string" (let* ([p (call "tour.join" #f "x")] [s (nccc-string-at rt p)])
                          (call "tour.release" p) s)
      => "x")
(test "string into caller memory"
      (let* ([buf (nccc-alloc rt 32)] [n (call "tour.format_int" buf 32 "<%d>" -42)]
             [s (nccc-string-at rt buf)])
        (nccc-free rt buf)
        (list n s))
      => '(5 "<-42>"))
(test "doubles and floats through a variadic instantiation"
      (let* ([buf (nccc-alloc rt 64)] [n (call "tour.format_double" buf 64 "%.2f %.1f" 2.5 0.25)]
             [s (nccc-string-at rt buf)])
        (nccc-free rt buf)
        s)
      => "2.50 0.2")
(test-error "string with NUL" (call "tour.text_length" (string #\a (integer->char 0) #\b)) "NUL")
(test-error "string from a number" (call "tour.text_length" 5) "string")

;; ---- [out], [inout] and errno as values -----------------------------------------

(test "two [out] values" (call "tour.divmod" 17 5) => 3 2)
(test "[inout]" (call "tour.bump" 10 5) => 15)
(test "errno zero" (call "tour.checked_div" 7 2) => 3 0)
(test "errno set" (call "tour.checked_div" 1 0) => 0 EDOM)
(test "errno after a string argument" (call "tour.parse_long" "123" 10) => 123 0)
(test "errno ERANGE" (call "tour.parse_long" "99999999999999999999999" 10)
      => (- (expt 2 63) 1) ERANGE)

;; ---- structs, layouts, constants ---------------------------------------------------

(define point (nccc-layout rt "tour.point"))
(define (make-point x y)
  (let ([p (nccc-make-struct point)])
    (nccc-struct-set! point p "x" x)
    (nccc-struct-set! point p "y" y)
    p))
(define (point->list p) (list (nccc-struct-ref point p "x") (nccc-struct-ref point p "y")))

(test "layout of a struct"
      (list (nccc-layout-name point) (nccc-layout-size point) (nccc-layout-align point)
            (nccc-layout-kind point)
            (map (lambda (f) (list (nccc-field-name f) (nccc-field-code f) (nccc-field-offset f)
                                   (nccc-field-size f) (nccc-field-count f)))
                 (vector->list (nccc-layout-fields point))))
      => '("point" 8 4 struct (("x" "i" 0 4 1) ("y" "i" 4 4 1))))
(test "layout of a union" (let ([n (nccc-layout rt "tour.number")])
                            (list (nccc-layout-kind n) (nccc-layout-size n)
                                  (nccc-field-count (nccc-layout-field n "bytes"))))
      => '(union 8 8))
(test "opaque layout" (nccc-layout-kind (nccc-layout rt "tour.counter")) => 'opaque)
(test "array and nested fields"
      (let ([r (nccc-layout rt "tour.record")])
        (list (nccc-field-count (nccc-layout-field r "name"))
              (nccc-field-code (nccc-layout-field r "where"))))
      => '(16 "{point}"))
(test "struct by value in and out" (point->list (call "tour.midpoint" (make-point 0 -4) (make-point 10 20)))
      => '(5 8))
(test "struct between scalars" (call "tour.point_sum" 1 (make-point 2 3) 10) => 51)
(test "two-slot struct"
      (let* ([c (nccc-layout rt "tour.complex_t")]
             [z (lambda (re im) (let ([v (nccc-make-struct c)])
                                  (nccc-struct-set! c v "re" re) (nccc-struct-set! c v "im" im) v))]
             [r (call "tour.cmul" (z 1. 2.) (z 3. -1.))])
        (list (nccc-struct-ref c r "re") (nccc-struct-ref c r "im")))
      => '(5. 5.))
(test "union out"
      (let* ([n (nccc-layout rt "tour.number")] [v (call "tour.as_number" 1.5)])
        (list (nccc-struct-ref n v "d") (nccc-struct-ref n v "bytes" 7)
              (nccc-struct-ref n v "i")))
      => (list 1.5 #x3f (bits 1.5)))
(test "[inout] struct and [out] struct"
      (let-values ([(now old) (call "tour.move_point" (make-point 1 2) 10)])
        (list (point->list now) (point->list old)))
      => '((11 2) (1 2)))
(test-error "struct of the wrong size" (call "tour.midpoint" (make-bytevector 4 0) (make-point 1 1))
            "bytevector of 8 bytes")
(test-error "field value out of range" (nccc-struct-set! point (make-point 0 0) "x" (expt 2 31))
            "range")
(test "constants" (map (lambda (n) (nccc-constant rt (string-append "tour." n)))
                       '("LIMIT" "ALL_ONES" "LETTER" "RED" "GREEN" "BLUE" "FLAG_AB"))
      => (list 100 (- (expt 2 64) 1) 65 0 5 6 3))
(test "constants of a module" (nccc-constants rt "hcb")
      => '#(#("SCOPE_CALL" 1) #("SCOPE_ASYNC" 2) #("SCOPE_NOTIFIED" 3) #("SCOPE_FOREVER" 4)))
(test-error "unknown constant" (nccc-constant rt "tour.NOPE") "no such constant")
(test-error "unknown type" (nccc-layout rt "tour.nope") "no such type")

;; ---- memory and function pointers ----------------------------------------------

(test "poke and peek"
      (let ([p (nccc-alloc rt 16)])
        (nccc-poke rt p "i" -5)
        (nccc-poke rt (+ p 8) "d" -0.0)
        (let ([r (list (nccc-peek rt p "i") (nccc-peek rt p "I") (nccc-peek rt (+ p 8) "d"))])
          (nccc-free rt p)
          r))
      => (list -5 4294967291 -0.0))
(test "write and read bytes"
      (let ([p (nccc-alloc rt 11)])
        (nccc-write rt p (string->utf8 "hello world"))
        (let ([r (nccc-read rt p 11)]) (nccc-free rt p) (utf8->string r)))
      => "hello world")
(test "an int array through a pointer"
      (let ([p (nccc-alloc rt 12)])
        (for-each (lambda (k v) (nccc-poke rt (+ p (* 4 k)) "i" v)) '(0 1 2) '(4 -5 100))
        (let ([r (call "tour.sum_ints" p 3)]) (nccc-free rt p) r))
      => 99)
(test "an array of strings"
      (let* ([strs (map (lambda (s) (nccc-string->c rt s)) '("a" "bb" "ccc"))]
             [argv (nccc-alloc rt 32)])
        (for-each (lambda (k s) (nccc-poke rt (+ argv (* 8 k)) "p" s)) '(0 1 2 3)
                  (append strs '(0)))
        (let ([r (call "tour.count_args" argv)])
          (for-each (lambda (p) (nccc-free rt p)) (cons argv strs))
          r))
      => 3)
(test "function pointers out and in"
      (let ([add (call "tour.pick_op" (char->integer #\+))] [mul (call "tour.pick_op" (char->integer #\*))])
        (list (call "tour.apply" add 3 4) (call "tour.apply" mul 3 4)))
      => '(7 12))
(test "[function_pointer] shim" (call "tour.negate" (nccc-symbol rt "negate_impl") 5) => -5)
(test "peek a char * as a string"
      (let ([s (nccc-string->c rt "text")] [cell (nccc-alloc rt 8)])
        (nccc-poke rt cell "p" s)
        (let ([r (nccc-peek rt cell "s")])
          (nccc-free rt s) (nccc-free rt cell)
          r))
      => "text")
(test "C strings that are not UTF-8 read the same everywhere"
      (let ([p (nccc-alloc rt 4)])
        (nccc-write rt p (u8-list->bytevector '(104 255 105 0)))
        (let ([s (nccc-string-at rt p)]) (nccc-free rt p) s))
      => (string #\h (integer->char #xFFFD) #\i))
(test "'*' arguments: write three bytes through a built-in"
      (let ([p (nccc-alloc rt 8)])
        (nccc-poke rt p "L" 0)
        (call "nccc.write" p 3 (bytes->slot '(97 98 99)))
        (let ([r (nccc-string-at rt p)]) (nccc-free rt p) r))
      => "abc")
(test "'*' results: read them back with nccc-call*"
      (let ([p (nccc-string->c rt "xyz")])
        (let-values ([(status slot) (nccc-call* (fn "nccc.read") 1 p 3)])
          (nccc-free rt p)
          (list status slot)))
      => (list 0 (bytes->slot '(120 121 122))))
(test "explicit struct slot counts {name:N}"
      (let ([f (nccc-function-at rt (nccc-function-address (fn "tour.midpoint"))
                                 "{point:1}{point:1}:{point:1}" "midpoint")])
        (point->list (nccc-call f (make-point 2 2) (make-point 4 6))))
      => '(3 4))
(test-error "a struct slot count against the layout"
            (nccc-function-at rt 1 "{point:2}:") "disagrees")
(test "a Scheme procedure for a C function" ((nccc-procedure rt "tour.add") 40 2) => 42)
(test "a handle from the registry"
      (let ([h (nccc-function-handle (fn "tour.add"))])
        (list (bitwise-bit-set? h 31) (bitwise-bit-set? h 15)))
      => '(#t #t))
(test "a symbol that is not there" (nccc-symbol rt "no_such_symbol_here") => #f)

;; ---- callbacks, per scope ------------------------------------------------------

(define baseline #f)   ; closures held before the callback cases

(test "call scope" (call "hcb.fold" 5 (nccc-callback rt "ii:i" 'call (lambda (acc i) (+ acc i))))
      => 10)
(test "call scope: released when the call returns"
      (let ([cb (nccc-callback rt "ii:i" 'call (lambda (acc i) (+ acc i)))])
        (call "hcb.fold" 3 cb)
        (list (nccc-callback-live? cb) (held-and-in-use)))
      => (list #f baseline))
(test-error "a released callback is refused"
            (let ([cb (nccc-callback rt "ii:i" 'call (lambda (acc i) acc))])
              (call "hcb.fold" 1 cb)
              (call "hcb.fold" 1 cb))
            "released")
(test "the runtime refuses a stale context"
      (let ([cb (nccc-callback rt "ii:i" 'call (lambda (acc i) 99))])
        (call "hcb.fold" 1 cb)
        (let ([r (call "hcb.fold" 1 (nccc-callback-context cb))])
          (let-values ([(status message) (nccc-last-error rt)])
            (list r status))))
      => '(0 #x4006))
(test "collections inside callbacks move nothing under C"
      (call "hcb.fold" 40
            (nccc-callback rt "ii:i" 'call
                           (lambda (acc i)
                             (let loop ([k 0] [junk '()])
                               (if (< k 20000)
                                   (loop (+ k 1) (cons (make-vector 8 k) junk))
                                   (+ acc i (- (length junk) 20000)))))))
      => 780)
(test "doubles through a callback"
      (list (call "hcb.map" 1.5 (nccc-callback rt "d:d" 'call (lambda (x) (* x 4))))
            (bits (call "hcb.map" 0.0 (nccc-callback rt "d:d" 'call (lambda (x) -0.0)))))
      => (list 6. #x8000000000000000))
(test "strings into a callback"
      (let* ([seen '()]
             [r (call "hcb.words" "alpha beta  gamma"
                      (nccc-callback rt "si:i" 'call
                                     (lambda (w i) (set! seen (cons (list i w) seen))
                                             (string-length w))))])
        (list r (reverse seen)))
      => '(14 ((0 "alpha") (1 "beta") (2 "gamma"))))
(test "[out] values from a callback"
      (call "hcb.divmod_with" 17 5
            (nccc-callback rt "ii:ii" 'call (lambda (a b) (values (div a b) (mod a b)))))
      => 3002)
(test "two callbacks sharing one context"
      (let* ([ticks '()]
             [cb (nccc-callback-group rt 'call 1
                                      "i:" (lambda (i) (set! ticks (cons i ticks)))
                                      "i:i" (lambda (n) (* n 10)))]
             [r (call "hcb.ticks" 3 cb)])
        (list r (reverse ticks) (nccc-callback-live? cb) (held-and-in-use)))
      => (list 30 '(0 1 2) #f baseline))
(test "a callback without a context (thunk)"
      (call "hcb.apply_plain" (nccc-callback rt "i:i" 'call (lambda (x) (* x 3))) 14)
      => 42)
(test "errno of the call survives the callback's own calls"
      (let* ([inner #f]
             [r (call-with-values
                    (lambda ()
                      (call "hcb.fail_after" ERANGE
                            (nccc-callback rt ":" 'call
                                           (lambda () (set! inner (call-with-values
                                                                      (lambda () (call "tour.checked_div" 1 0))
                                                                    list))))))
                  list)])
        (list r inner))
      => (list (list -1 ERANGE) (list 0 EDOM)))
(test "reentrant callbacks"
      (call "hcb.fold" 3
            (nccc-callback rt "ii:i" 'call
                           (lambda (acc i)
                             (+ acc (call "hcb.fold" i
                                          (nccc-callback rt "ii:i" 'call (lambda (a j) (+ a j 1))))))))
      => 4)
(test "64-bit edges through a callback"
      (let* ([cb (nccc-callback rt "lL:l" 'forever (lambda (x u) (if (= u (- (expt 2 64) 1)) x 0)))]
             [r (begin (call "hcb.set_hook" cb)
                       (call "hcb.run_hook" (- (expt 2 63)) (- (expt 2 64) 1)))])
        (call "hcb.set_hook" #f)
        (nccc-release cb)
        r)
      => (- (expt 2 63)))
(test "async scope: runs later, once, then is released"
      (let* ([got '()]
             [cb (nccc-callback rt "i:" 'async (lambda (v) (set! got (cons v got))))])
        (call "hcb.later" 7 cb)
        (let* ([before (list (reverse got) (nccc-callback-live? cb))]
               [ran (call "hcb.run_pending")])
          (list before ran (reverse got) (nccc-callback-live? cb) (held-and-in-use))))
      => (list '(() #t) 1 '(7) #f baseline))
(test "async scope: a second call through it is stale, not run"
      (let* ([n 0] [stale (stale-calls)]
             [cb (nccc-callback rt "i:" 'async (lambda (v) (set! n (+ n 1))))])
        (call "hcb.later" 1 cb)
        (call "hcb.later" 2 cb)
        (call "hcb.run_pending")
        (list n (- (stale-calls) stale) (held-and-in-use)))
      => (list 1 1 baseline))
(test "notified scope: until the destroy notify"
      (let* ([cb (nccc-callback rt "i:i" 'notified (lambda (ev) (* ev 2)))]
             [id (call "hcb.watch" cb)]
             [a (call "hcb.emit" 5)]
             [b (call "hcb.emit" 6)]
             [live (nccc-callback-live? cb)])
        (call "hcb.unwatch" id)
        (list a b live (nccc-callback-live? cb) (call "hcb.emit" 5) (held-and-in-use)))
      => (list 10 12 #t #f 0 baseline))
(test "forever scope: until released, then stale"
      (let* ([n 0] [stale (stale-calls)]
             [cb (nccc-callback rt "lL:l" 'forever (lambda (x u) (set! n (+ n 1)) (+ x u)))])
        (call "hcb.set_hook" cb)
        (let* ([a (call "hcb.run_hook" 1 2)] [b (call "hcb.run_hook" 3 4)]
               [live (nccc-callback-live? cb)])
          (nccc-release cb)
          (let ([c (call "hcb.run_hook" 5 6)])
            (call "hcb.set_hook" #f)
            (list a b live n (nccc-callback-live? cb) c (- (stale-calls) stale) (held-and-in-use)))))
      => (list 3 7 #t 2 #f 0 1 baseline))
(test "an exception in a callback reaches the caller, as it was raised"
      (guard (e [(message-condition? e) (condition-message e)])
        (call "hcb.fold" 3 (nccc-callback rt "ii:i" 'call
                                          (lambda (acc i) (if (= i 1) (misuse-here) acc)))))
      => "callback failed on purpose")
(test "... and the closure is still released" (held-and-in-use) => baseline)
(test-error "a callback returning the wrong type"
            (call "hcb.fold" 2 (nccc-callback rt "ii:i" 'call (lambda (acc i) "no")))
            "exact integer")
(test-error "a callback returning too few values"
            (call "hcb.divmod_with" 1 1 (nccc-callback rt "ii:ii" 'call (lambda (a b) 1)))
            "returned 1 values, expected 2")
(test-error "unknown scope" (nccc-callback rt "i:i" 'sometimes (lambda (x) x)) "scope")
(test-error "not a procedure" (nccc-callback rt "i:i" 'call 5) "not a procedure")
(test-error "a callback returning a string" (nccc-callback rt "i:s" 'call (lambda (x) "s"))
            "cannot return a string")
(test "a call refused on this side releases its call-scope callbacks"
      (let ([cb (nccc-callback rt "ii:i" 'call (lambda (acc i) acc))])
        (guard (e [(nccc-error? e) (list (nccc-callback-live? cb) (held-and-in-use))])
          (call "hcb.fold" "three" cb)))
      => (list #f baseline))
(test "all callbacks gone at the end" (held-and-in-use) => baseline)

;; ---- the generated module (nccc tour), from idl/examples/tour.idl -----------------

(test "generated: bind, then add" (begin (tour:tour-bind! rt) (tour:add 40 2)) => 42)
(test "generated: the runtime it is bound to" (eq? (tour:tour-runtime) rt) => #t)
(test "generated: echo_i64 edges"
      (list (tour:echo_i64 (- (expt 2 63))) (tour:echo_i64 (- (expt 2 63) 1)) (tour:echo_i64 -1))
      => (list (- (expt 2 63)) (- (expt 2 63) 1) -1))
(test-error "generated: echo_i64 refuses 2^63" (tour:echo_i64 (expt 2 63)) "out of range")
(test "generated: echo_u64 max" (tour:echo_u64 (- (expt 2 64) 1)) => (- (expt 2 64) 1))
(test "generated: string in, [out] string" (tour:parse_int "42abc") => 42 "abc")
(test "generated: string result, renamed function" (tour:name_of_color tour:GREEN) => "green")
(test "generated: [out] values" (tour:divmod 17 5) => 3 2)
(test "generated: errno last" (tour:checked_div 1 0) => 0 EDOM)
(test "generated: constants and enumerators"
      (list tour:LIMIT tour:RED tour:GREEN tour:BLUE tour:FLAG_AB tour:ALL_ONES tour:LETTER)
      => (list 100 0 5 6 3 (- (expt 2 64) 1) 65))
(test "generated: layouts" (nccc-layout-size (tour:tour-layout "point")) => 8)
(test-error "generated: misuse is (nccc core)'s error" (tour:add 1) "expected 2, got 1")

;; ---- misuse ---------------------------------------------------------------------

(test-error "too few arguments" (call "tour.add" 1) "wrong number of arguments: expected 2, got 1")
(test-error "too many arguments" (call "tour.add" 1 2 3) "expected 2, got 3")
(test-error "wrong type" (call "tour.add" "1" 2) "argument 1: expected an exact integer")
(test-error "unknown function" (fn "tour.no_such_function") "no such function")
(test-error "unknown module" (nccc-layout rt "nomodule.point") "no such module")
(test-error "not a function" (nccc-call 'add 1 2) "not an nccc function")
(test-error "an address out of range" (call "tour.release" (expt 2 64)) "address")
(test-error "a callback where a number goes" (call "tour.add" (nccc-callback rt "i:i" 'forever values) 1)
            "exact integer")
(test-error "a library that is not there" (nccc-load "/nonexistent/libnothing.so") "cannot load")
(test-error "a malformed signature" (nccc-function-at rt 1 "i:x") "unknown code")
(test-error "'*' results need nccc-call*" (call "nccc.read" 0 0) "nccc-call*")
(test "runtime failures carry the status"
      (guard (e [(nccc-error? e) (nccc-error-status e)]) (nccc-peek rt 0 "i"))
      => #x4004)
(test "runtime failures carry the message"
      (guard (e [(nccc-error? e) (condition-message e)]) (nccc-poke rt 0 "i" 1))
      => "poke: NULL address")

;; ---- run ---------------------------------------------------------------------------

(define (misuse-here) (raise (make-message-condition "callback failed on purpose")))

(set! baseline (held-and-in-use))
(for-each (lambda (c) (run-case (car c) (cadr c) ((caddr c)))) (reverse cases))
(display (string-append "nccc on " (symbol->string nccc-implementation))) (newline)
(display passed) (display " passed, ") (display failed) (display " failed") (newline)
(exit (if (= failed 0) 0 1))
