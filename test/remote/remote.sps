#!r6rs
;;; remote.sps LOCAL.so CLIENT.so DEVICE COMMAND... — the test module on a
;;; device, from Scheme (run by Guile 3): the generated libraries
;;; (nccc wire) and (nccc libc) bound to a runtime whose modules "wire"
;;; and "libc" are the device's, bound over the remote-call client
;;; (opened through the generated library (nccc remotes), from
;;; idl/remotes.idl); every call is
;;; compared with the same function called by name in LOCAL.so, which
;;; holds the modules itself; then C objects of wire in the device's
;;; memory (docs/SCHEME.md, "C objects on a device"), and a callback's
;;; arrays and strings read from it (keep.total, keep.box_run). Prints failures and "N passed, M
;;; failed"; exits 1 on a failure.
(import (rnrs) (nccc core) (only (nccc abi) abi-status) (prefix (nccc wire) wire:)
        (prefix (nccc libc) libc:) (prefix (nccc keep) keep:) (prefix (nccc remotes) remotes:))

(define args (cdr (command-line)))
(define here (nccc-load (car args)))
(define there (nccc-load (cadr args)))
(define command (cddr args))
;; the local library's modules, registered as a generated module's bind
;; would (nccc_M_open, ":i")
(for-each (lambda (m)
            (let ([open (nccc-function-at here (nccc-symbol here (string-append "nccc_" m "_open")) ":i")])
              (unless (= (nccc-call open) 0) (error 'remote "open failed" m))))
          '("wire" "libc"))

(remotes:remotes-bind! there)
(define device
  (let-values ([(status device)
                (remotes:connect (fold-left (lambda (s w) (string-append s " " w))
                                         (string-append "exec:" (car command)) (cdr command))
                              #f)])
    (unless (= status 0) (error 'remote "connect failed" status))
    device))
(for-each (lambda (m)
            (let-values ([(status index) (remotes:bind device m #f)])
              (unless (= status 0) (error 'remote "bind failed" m status))))
          '("wire" "libc"))
(wire:wire-bind! there)
(libc:libc-bind! there)
;; The device's signature of the function name is narrower than here:
;; long on a 32-bit device or on Windows, size_t and intptr_t on a 32-bit
;; device.
(define (narrow name)
  (not (string=? (nccc-function-signature (nccc-lookup there name))
                 (nccc-function-signature (nccc-lookup here name)))))

(define (bits->double u)
  (let ([b (make-bytevector 8)])
    (bytevector-u64-native-set! b 0 u)
    (bytevector-ieee-double-native-ref b 0)))
(define (double->bits d)
  (let ([b (make-bytevector 8)])
    (bytevector-ieee-double-native-set! b 0 d)
    (bytevector-u64-native-ref b 0)))
(define (same? a b)
  (if (and (flonum? a) (flonum? b))
      (= (double->bits a) (double->bits b))
      (equal? a b)))

;; a struct of the local module's layout, fields given as (name . value)
(define (struct name . fields)
  (let* ([layout (nccc-layout here (string-append "wire." name))]
         [s (nccc-make-struct layout)])
    (for-each (lambda (f)
                (if (pair? (cdr f))
                    (let loop ([vs (cdr f)] [k 0])
                      (unless (null? vs)
                        (nccc-struct-set! layout s (car f) (car vs) k)
                        (loop (cdr vs) (+ k 1))))
                    (nccc-struct-set! layout s (car f) (cdr f))))
              fields)
    s))

(define passed 0)
(define failed 0)
(define (fail what why)
  (set! failed (+ failed 1))
  (display "FAIL ") (write what) (display ": ") (display why) (newline))

;; Results as a list, or (error . message) when the call raised.
(define (results thunk)
  (guard (e [#t (cons 'error (if (message-condition? e) (condition-message e) e))])
    (call-with-values thunk list)))

;; (flags module function arg ...): flags 'wide when devices whose
;; signature is narrower must refuse it, 'address when result 2 is an address (compared as present)
(define (check c)
  (let* ([flag (car c)] [m (cadr c)] [f (caddr c)] [a (cdddr c)]
         [want (results (lambda () (apply (nccc-procedure here (string-append m "." f)) a)))]
         [got (results (lambda ()
                         (apply (if (string=? m "wire") (wire:wire-procedure f) (libc:libc-procedure f))
                                a)))])
    (cond
     [(and (pair? want) (eq? (car want) 'error)) (fail c (list "local call failed" (cdr want)))]
     [(and (eq? flag 'wide) (narrow (string-append m "." f)))
      (if (and (pair? got) (eq? (car got) 'error))
          (set! passed (+ passed 1))
          (fail c "a 32-bit device took a 64-bit value"))]
     [(and (pair? got) (eq? (car got) 'error)) (fail c (cdr got))]
     [(not (= (length want) (length got))) (fail c (list "results" got "locally" want))]
     [(let loop ([w want] [g got] [k 1])
        (cond [(null? w) #t]
              [(or (and (eq? flag 'address) (= k 2)) (same? (car w) (car g)))
               (loop (cdr w) (cdr g) (+ k 1))]
              [else #f]))
      (set! passed (+ passed 1))]
     [else (fail c (list "results" got "locally" want))])))

(define text "a string that crosses the wire")
(define max64 (- (expt 2 64) 1))
(define cases
  (list
   '(- "wire" "echo_bool" #t) '(- "wire" "echo_bool" #f)
   '(- "wire" "echo_i8" -128) '(- "wire" "echo_i8" 127) '(- "wire" "echo_u8" 255)
   '(- "wire" "echo_i16" -32768) '(- "wire" "echo_u16" 65535)
   '(- "wire" "echo_i32" -2147483648) '(- "wire" "echo_i32" 2147483647)
   '(- "wire" "echo_u32" 4294967295)
   `(- "wire" "echo_i64" ,(- (expt 2 63))) `(- "wire" "echo_i64" ,(- (expt 2 63) 1))
   `(- "wire" "echo_u64" ,max64) '(- "wire" "echo_u64" 0)
   '(- "wire" "echo_float" -0.0) '(- "wire" "echo_float" 3.4028234663852886e38)
   '(- "wire" "echo_float" +inf.0) `(- "wire" "echo_float" ,(bits->double #x7ff8000020000000))
   '(- "wire" "echo_double" -0.0) '(- "wire" "echo_double" 5e-324)
   `(- "wire" "echo_double" ,(bits->double #x7ff0000000000001)) '(- "wire" "echo_double" -inf.0)
   '(- "wire" "echo_char" 65)
   '(- "wire" "echo_long" -2147483648) '(- "wire" "echo_long" 2147483647)
   `(wide "wire" "echo_long" ,(- (expt 2 63))) `(wide "wire" "echo_long" ,(expt 2 32))
   '(- "wire" "echo_ulong" 4294967295) `(wide "wire" "echo_ulong" ,max64)
   '(- "wire" "echo_size" 4294967295) `(wide "wire" "echo_size" ,(expt 2 32))
   '(- "wire" "echo_intptr" -1) `(wide "wire" "echo_intptr" ,(- (expt 2 63) 1))
   `(- "wire" "add" ,(- (expt 2 63) 2) 1) '(- "wire" "add" -40 82)
   `(- "wire" "blend" -128 65535 -2147483648 ,max64 0.5 -1e300)
   `(- "wire" "mixed_step" ,(struct "mixed" '("a" . -128) '("b" . 2147483647) '("c" . -16384)))
   `(- "wire" "mixed_step" ,(struct "mixed" '("a" . 5) '("b" . -1) '("c" . 7)))
   `(- "wire" "wide_step" ,(struct "wide" '("tag" . 255) '("d" . 1.5) `("u" . ,max64) '("f" . -2.5)) 3.0)
   '(- "wire" "bits_of" -1.0)
   `(- "wire" "slab_turn" ,(apply struct "slab"
                                  (list (cons "v" (let loop ([k 64] [acc '()])
                                                    (if (= k 0) acc
                                                        (loop (- k 1) (cons (* k #x0101010101) acc))))))))
   '(- "wire" "div_rem" -17 5) '(- "wire" "div_rem" 7 0)
   `(- "wire" "bump_by" ,(- (expt 2 63) 1) 1)
   `(- "wire" "split" ,(struct "wide" '("tag" . 200) '("d" . -0.25) '("u" . #x123456789abcdef0) '("f" . 1000.5)))
   '(- "wire" "fail_with" 34) '(- "wire" "fail_with" 0)
   '(- "wire" "length" "") `(- "wire" "length" ,text)
   '(- "wire" "compare" "abc" "abd") `(- "wire" "compare" ,text ,text)
   '(- "wire" "number_name" 0) '(- "wire" "number_name" 2) '(- "wire" "number_name" 3)
   '(address "libc" "strtol" "  -2147483648xyz" 10) '(address "libc" "strtol" "7fffffff" 16)
   '(address "libc" "strtoull" "18446744073709551615" 10)
   '(address "libc" "strtoull" "99999999999999999999" 10)
   '(- "libc" "frexp" -1536.0) '(- "libc" "modf" -2.75) '(- "libc" "ldexp" 0.75 -1074)
   '(- "libc" "hypotf" 3.0 4.0) '(- "libc" "nextafterf" 1.0 +inf.0)
   '(- "libc" "snprintf_int" #f 0 "<%d>" -2147483648)
   `(- "libc" "snprintf_long_long" #f 0 "%lld" ,(- (expt 2 63)))
   `(- "libc" "snprintf_double" #f 0 "%.3f" ,(/ -1.0 3.0))
   '(- "libc" "snprintf_string" #f 0 "[%s]" "wire")
   '(- "libc" "getenv" "NCCC_REMOTE_MARK") '(- "libc" "getenv" "NCCC_NO_SUCH_VARIABLE")
   `(- "libc" "strlen" ,text)))

(for-each check cases)

;; A failure of the remote call itself raises a condition of kind remote
;; with its status and cause: a string past the device's largest message
;; is refused before it is sent (locally the call has its result); the
;; next call goes through.
(let* ([big (make-string 70000 #\x)]
       [strlen (libc:libc-procedure "strlen")]
       [e (guard (e [#t e]) (strlen big) #f)])
  (if (and (nccc-error? e) (eq? (nccc-error-kind e) 'remote)
           (= (nccc-error-status e) (cdr (assq 'err-rpc-too-big abi-status)))
           (= ((nccc-procedure here "libc.strlen") big) 70000)
           (= (strlen "after") 5))
      (set! passed (+ passed 1))
      (fail "libc.strlen of 70000 bytes"
            (if (message-condition? e) (condition-message e) "no error"))))
;; C objects of a module bound from a device live in the device's memory
;; (docs/SCHEME.md, "C objects on a device"): before the device's memory is
;; bound as wire_memory, new and a bytevector for a [bytes] argument raise
;; kind remote; then the bytevector is copied into the device's memory for
;; the call (byte_sum's sum of (k + 1) * byte k), and an object of wire's
;; struct wide is made there, its fields written and read back, its bytes
;; in the device's byte order, a view of its address reads the same, and
;; once freed it raises kind closed.
(define (pass-if what ok) (if ok (set! passed (+ passed 1)) (fail what "not as expected")))
(define (raised thunk) (guard (e [#t e]) (thunk) #f))
(define bytes (u8-list->bytevector '(1 2 3 250 7)))
(for-each (lambda (what thunk)
            (let ([e (raised thunk)])
              (pass-if what (and (nccc-error? e) (eq? (nccc-error-kind e) 'remote)))))
          '("wire-new before wire_memory" "byte_sum before wire_memory")
          (list (lambda () (wire:wire-new "wide")) (lambda () ((wire:wire-procedure "byte_sum") bytes 5))))
(unless (= (remotes:bind_memory device "wire_memory") 0) (error 'remote "bind_memory failed"))
(pass-if "byte_sum of a bytevector in the device's memory"
         (= ((wire:wire-procedure "byte_sum") bytes 5) (+ (* 1 1) (* 2 2) (* 3 3) (* 4 250) (* 5 7))))
(let* ([fields `((tag . 200) (d . -0.25) (u . #x123456789abcdef0) (f . 1000.5))]
       [w (wire:wire-new "wide" fields)]
       [order (if (= (nccc-constant there "wire_memory.big_endian") 1)
                  (endianness big)
                  (endianness little))])
  (pass-if "record of a device object" (equal? (nccc-cdata-record w) fields))
  (nccc-set! w 'f -3.5)
  (nccc-set! w 'u (- (expt 2 64) 2))
  (pass-if "fields of a device object" (and (= (nccc-ref w 'f) -3.5) (= (nccc-ref w 'tag) 200)
                                            (= (nccc-ref w 'u) (- (expt 2 64) 2))))
  (pass-if "the device's byte order"
           (and (= (bytevector-u64-ref (nccc-cdata-bytes w 'u) 0 order) (- (expt 2 64) 2))
                (= (bytevector-ieee-double-ref (nccc-cdata-bytes w 'd) 0 order) -0.25)))
  (pass-if "a view of a device address"
           (equal? (nccc-cdata-record (wire:wire-view "wide" (nccc-cdata-address w)))
                   (nccc-cdata-record w)))
  (nccc-close w)
  (let ([e (raised (lambda () (nccc-ref w 'tag)))])
    (pass-if "a freed device object" (and (nccc-error? e) (eq? (nccc-error-kind e) 'closed)))))
;; A callback the device calls gets the arrays its value descriptions
;; describe read from the device's memory (keep_memory): int64 elements
;; in its byte order, NULL-terminated char pointers of its size.
(unless (and (= (remotes:bind_memory device "keep_memory") 0)
             (let-values ([(status index) (remotes:bind device "keep" #f)]) (= status 0)))
  (error 'remote "bind keep failed"))
(keep:keep-bind! there)
(let* ([seen #f]
       [got (keep:total (lambda (xs n words)
                          (set! seen (list xs n words))
                          (* 10 (fold-left + 0 (vector->list xs))))
                        4)])
  (pass-if "a callback's arrays read from the device's memory"
           (and (= got 100) (equal? seen '(#(1 2 3 4) 4 #("one" "two" "three"))))))
;; and a string argument (code s), read from the device for the call
(let ([box (keep:box_new 5)] [visits '()])
  (keep:box_watch box (lambda (name tags) (set! visits (cons (list name tags) visits))) #f)
  (keep:box_user box)
  (let ([got (keep:box_run box "xy" 2)])
    (pass-if "keep.box_run's visit"
             (and (= got 0) (equal? visits '(("xy" #("value" "5" "name" "xy")))))))
  (nccc-close box))
(for-each (lambda (k)
            (let ([a (nccc-constant here (string-append "libc." k))]
                  [b (nccc-constant there (string-append "libc." k))])
              (if (equal? a b) (set! passed (+ passed 1)) (fail k (list b "locally" a)))))
          '("EDOM" "EINVAL" "ERANGE"))
(remotes:close device)
(display passed) (display " passed, ") (display failed) (display " failed") (newline)
(exit (if (= failed 0) 0 1))
