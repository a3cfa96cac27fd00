#!r6rs
;;; nccc/core.sls — the portable Scheme side of nccc (docs/SCHEME.md).
;;;
;;; Imports only (rnrs) and (nccc compat); each implementation picks its
;;; own compat file by file extension (compat.scm for Guile,
;;; compat.chezscheme.sls for Chez, compat.mzscheme.sls for Racket), so
;;; this file has no cond-expand and no implementation names. The compat
;;; library supplies exactly:
;;;   (compat-load path)             a loaded shared library
;;;   (compat-symbol lib name)       a function's address, or #f
;;;   (compat-call fn in out)        calls the nccc_fn at address fn with
;;;                                  two slot bytevectors (8 bytes a slot,
;;;                                  native-endian), kept in place meanwhile
;;;   (compat-dispatcher handler)    the address of the one C-callable
;;;                                  void f(const uint64_t *, uint64_t *)
;;;                                  of the process, made on first request;
;;;                                  it calls (handler in-address out-address)
;;;   compat-implementation          a symbol, for messages
;;; Everything else — the built-ins, signatures, conversions, strings,
;;; callbacks — is here, on top of the root and the slot ABI (docs/ABI.md).
;;;
;;; Values: integers are exact (unsigned never wrap, everything is range
;;; checked going in), floats travel by their bits, strings are copied
;;; into C memory with the alloc/write built-ins and freed after the call,
;;; [out] values and errno come back as extra values. Collections come
;;; back as vectors, which Racket code reads like R6RS code does.
(library (nccc core)
  (export
   ;; runtime
   nccc-load nccc-runtime? nccc-runtime-path nccc-symbol nccc-version
   nccc-last-error nccc-implementation
   ;; functions and calls
   nccc-lookup nccc-function-at nccc-function? nccc-function-name
   nccc-function-signature nccc-function-address nccc-function-handle
   nccc-call nccc-call* nccc-procedure nccc-primitive-call
   ;; registry: listing, constants, layouts
   nccc-modules nccc-functions nccc-constant nccc-constants nccc-layout
   nccc-layout? nccc-layout-name nccc-layout-size nccc-layout-align
   nccc-layout-kind nccc-layout-fields nccc-layout-field
   nccc-field? nccc-field-name nccc-field-code nccc-field-offset
   nccc-field-size nccc-field-count
   nccc-make-struct nccc-struct-ref nccc-struct-set!
   ;; memory
   nccc-alloc nccc-free nccc-peek nccc-poke nccc-read nccc-write
   nccc-string-at nccc-string->c
   ;; callbacks
   nccc-callback nccc-callback-group nccc-callback? nccc-callback-context
   nccc-callback-live? nccc-release nccc-closure-stats nccc-callbacks-held
   ;; owned pointers, packed functions
   nccc-own nccc-owned? nccc-owned-address nccc-owned-live? nccc-close nccc-collect!
   nccc-packed-call nccc-register-packed
   ;; errors
   &nccc nccc-error? nccc-error-status nccc-error-kind
   ;; for generated libraries (docs/SCHEME.md, "Generated modules")
   slot-s64-ref slot-u64-ref slot-f64-ref slot-s64-set! slot-u64-set! slot-f64-set!
   arg-int? arg-flonum? %nccc-bind-call %nccc-slots %nccc-pending %nccc-raise-pending %nccc-int
   %nccc-real %nccc-float %nccc-pointer %nccc-string-result %nccc-owned-result
   %nccc-misuse %nccc-callback-arg %nccc-arity %nccc-thunk-call)
  (import (rnrs) (nccc compat))

  ;; ---- errors --------------------------------------------------------

  ;; status: the runtime's nccc_status for failures it reported, #f for
  ;; misuse found on this side (wrong count, type or range, unknown name).
  ;; kind: a symbol naming the misuse (count type range integral unknown
  ;; callback nul field scope released closed pool packed null) or, for
  ;; a failure the runtime reported, runtime (pool, released and null
  ;; when its status says so).
  (define-condition-type &nccc &error make-nccc-condition nccc-error?
    (status nccc-error-status) (kind nccc-error-kind))

  (define (raise-nccc who status kind message irritants)
    (raise (condition (make-nccc-condition status kind) (make-who-condition who)
                      (make-message-condition message)
                      (make-irritants-condition irritants))))

  (define (fail who status message . irritants)
    (raise-nccc who status
                (case status
                  [(#x4007) 'pool] [(#x4006) 'released] [(#x4004) 'null]
                  [else 'runtime])
                message irritants))

  ;; Misuse found on this side; its kind from the message when not given.
  (define (misuse who message . irritants)
    (raise-nccc who #f (message-kind message irritants) message irritants))
  (define (%nccc-misuse who kind message . irritants)
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

  (define nccc-implementation compat-implementation)

  ;; ---- slots ----------------------------------------------------------

  (define two^64 (expt 2 64))
  (define u64-max (- two^64 1))

  ;; A slot buffer of n slots (never empty: C gets a valid address).
  (define (make-slots n) (make-bytevector (* 8 (max n 1)) 0))
  (define (slot-ref bv i) (bytevector-u64-native-ref bv (* 8 i)))
  (define (slot-set! bv i v) (bytevector-u64-native-set! bv (* 8 i) v))
  (define (slots-of nbytes) (div (+ nbytes 7) 8))

  (define (exact-int? v) (and (integer? v) (exact? v)))

  ;; Integer codes: code, signed?, bits, least and greatest value.
  (define (int-spec code signed bits)
    (list code signed bits
          (if signed (- (expt 2 (- bits 1))) 0)
          (- (expt 2 (if signed (- bits 1) bits)) 1)))
  (define int-specs
    (list (int-spec #\b #t 8) (int-spec #\B #f 8) (int-spec #\h #t 16)
          (int-spec #\H #f 16) (int-spec #\i #t 32) (int-spec #\I #f 32)
          (int-spec #\l #t 64) (int-spec #\L #f 64) (int-spec #\e #t 32)))

  ;; The low bits of slot s as the code's integer (the ABI takes the low
  ;; bits when narrowing).
  (define (slot->int spec s)
    (let* ([bits (caddr spec)] [m (bitwise-bit-field s 0 bits)])
      (if (and (cadr spec) (bitwise-bit-set? m (- bits 1)))
          (- m (expt 2 bits))
          m)))

  (define (int->slot v) (if (< v 0) (+ v two^64) v))

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

  ;; ---- signatures ------------------------------------------------------

  ;; A parsed signature side is a list of items: a character (one slot),
  ;; an sref (a struct by value) or the symbol rest ('*').
  (define-record-type sref (fields name slots size layout))

  (define scalar-codes (string->list "?bBhHiIlLfdpsFc"))

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
          (when (and (pair? (items)) (eq? (car (items)) 'rest) (not (char=? c #\:)))
            (bad "'*' is not the last code of its side"))
          (cond
           [(char=? c #\:)
            (unless (eq? side 'in) (bad "more than one ':'"))
            (loop (+ i 1) 'out in out)]
           [(char=? c #\{)
            (let find ([j (+ i 1)])
              (cond
               [(= j n) (bad "'{' without '}'")]
               [(char=? (string-ref sig j) #\})
                (let-values ([(name slots) (parse-struct-code (substring sig (+ i 1) j) bad)])
                  (let-values ([(in out) (add (make-sref name slots #f #f))])
                    (loop (+ j 1) side in out)))]
               [else (find (+ j 1))]))]
           [(char=? c #\*)
            (let-values ([(in out) (add 'rest)]) (loop (+ i 1) side in out))]
           [(or (memv c scalar-codes) (and (char=? c #\e) (eq? side 'out)))
            (let-values ([(in out) (add c)]) (loop (+ i 1) side in out))]
           [else (bad (string-append "unknown code '" (string c) "'"))]))])))

  ;; "name" or "name:N" -> (values name N-or-#f)
  (define (parse-struct-code text bad)
    (let loop ([k 0])
      (cond
       [(= k (string-length text))
        (when (= k 0) (bad "empty struct name"))
        (values text #f)]
       [(char=? (string-ref text k) #\:)
        (let ([count (string->number (substring text (+ k 1) (string-length text)))])
          (unless (and (> k 0) count (exact-int? count) (> count 0))
            (bad "bad struct slot count"))
          (values (substring text 0 k) count))]
       [else (loop (+ k 1))])))

  (define (item-slots item)
    (cond [(char? item) 1] [(sref? item) (sref-slots item)] [else 0]))
  (define (items-slots items)
    (fold-left (lambda (n item) (+ n (item-slots item))) 0 items))
  (define (items-rest? items) (and (memq 'rest items) #t))

  ;; ---- the runtime ----------------------------------------------------

  (define-record-type (runtime make-runtime nccc-runtime?)
    (fields lib path root builtins
            (mutable layouts)    ; module index -> (name . vector of layouts)
            (mutable constants)  ; module index -> (name . vector of #(name value))
            (mutable dispatcher)))

  (define (nccc-runtime-path rt) (runtime-path rt))

  ;; Built-in indices and names (docs/ABI.md; fixed forever).
  (define builtin-names
    '#("builtin" "version" "last_error" "lookup" "function" "call"
       "call_checked" "register" "module_count" "module_info" "module_find"
       "module_type" "module_field" "module_constant" "alloc" "free" "peek"
       "poke" "read" "write" "strlen" "closure_claim" "closure_claim_group"
       "closure_release" "closure_stats" "trace_enable" "trace_enable_module"
       "trace_buffer" "trace_stats" "trace_read" "trace_clear" "fault_arm"
       "fault_disarm" "fault_query" "clear_error"))
  (define B-VERSION 1) (define B-LAST-ERROR 2) (define B-LOOKUP 3)
  (define B-FUNCTION 4) (define B-REGISTER 7) (define B-MODULE-COUNT 8)
  (define B-MODULE-INFO 9) (define B-MODULE-FIND 10) (define B-MODULE-TYPE 11)
  (define B-MODULE-FIELD 12) (define B-MODULE-CONSTANT 13) (define B-ALLOC 14)
  (define B-FREE 15) (define B-PEEK 16) (define B-POKE 17) (define B-READ 18)
  (define B-WRITE 19) (define B-STRLEN 20) (define B-CLAIM 21)
  (define B-CLAIM-GROUP 22) (define B-RELEASE 23) (define B-STATS 24)
  (define B-CLEAR-ERROR 34)

  (define NCCC-ERR-NAME-NOT-FOUND #x0100)

  (define (nccc-primitive-call fn in out)
    (unless (and (exact-int? fn) (< 0 fn two^64))
      (misuse 'nccc-primitive-call "not a function address" fn))
    (unless (and (bytevector? in) (bytevector? out))
      (misuse 'nccc-primitive-call "slot buffers must be bytevectors" in out))
    (compat-call fn in out))

  ;; Calls built-in index with in-slots (a slot bytevector) and room for
  ;; n-out results after the status; -> (values status out).
  (define (builtin/status rt index in n-out)
    (let ([out (make-slots (+ 1 n-out))])
      (compat-call (vector-ref (runtime-builtins rt) index) in out)
      (values (slot-ref out 0) out)))

  (define (slots . words)
    (let ([bv (make-slots (length words))])
      (let loop ([k 0] [vs words])
        (unless (null? vs)
          (slot-set! bv k (car vs))
          (loop (+ k 1) (cdr vs))))
      bv))

  ;; The same, raising the runtime's last error on a failed status.
  (define (builtin rt who index n-out . in)
    (builtin-raw rt who index (apply slots in) n-out))
  (define (builtin-raw rt who index in n-out)
    (let-values ([(status out) (builtin/status rt index in n-out)])
      (unless (= status 0) (runtime-fail rt who status))
      out))

  (define (runtime-fail rt who status)
    (let-values ([(st out) (builtin/status rt B-LAST-ERROR (make-slots 0) 2)])
      (fail who status
            (if (= st 0)
                (or (string-at rt (slot-ref out 2)) "")
                "failed (no message)"))))

  ;; ---- C strings and memory ---------------------------------------------

  (define (string-at rt address)
    (if (= address 0)
        #f
        (let* ([n (slot-ref (builtin rt 'nccc-string-at B-STRLEN 1 address) 1)])
          (bytes->string (read-bytes rt 'nccc-string-at address n)))))

  ;; C strings need not be UTF-8: a byte that starts no valid sequence
  ;; becomes U+FFFD on every implementation (Guile's utf8->string raises).
  (define (bytes->string bv)
    (guard (e (#t (decode-utf8-leniently bv))) (utf8->string bv)))

  (define (decode-utf8-leniently bv)
    (let ([n (bytevector-length bv)])
      (let loop ([i 0] [acc '()])
        (if (= i n)
            (list->string (reverse acc))
            (let* ([b (bytevector-u8-ref bv i)]
                   [len (cond [(< b #x80) 1] [(<= #xc2 b #xdf) 2] [(<= #xe0 b #xef) 3]
                              [(<= #xf0 b #xf4) 4] [else 0])]
                   [cp (and (> len 0) (<= (+ i len) n) (utf8-sequence bv i len))])
              (if cp
                  (loop (+ i len) (cons (integer->char cp) acc))
                  (loop (+ i 1) (cons #\xFFFD acc))))))))

  ;; The code point of the len-byte sequence at i, or #f when malformed.
  (define (utf8-sequence bv i len)
    (let loop ([k 1]
               [cp (bitwise-and (bytevector-u8-ref bv i)
                                (case len [(1) #x7f] [(2) #x1f] [(3) #x0f] [else #x07]))])
      (if (= k len)
          (and (>= cp (case len [(1) 0] [(2) #x80] [(3) #x800] [else #x10000]))
               (<= cp #x10ffff) (not (<= #xd800 cp #xdfff)) cp)
          (let ([b (bytevector-u8-ref bv (+ i k))])
            (and (= (bitwise-and b #xc0) #x80)
                 (loop (+ k 1) (bitwise-ior (bitwise-arithmetic-shift-left cp 6)
                                            (bitwise-and b #x3f))))))))

  (define (read-bytes rt who address n)
    (let ([out (builtin rt who B-READ (slots-of n) address n)]
          [bv (make-bytevector n)])
      (bytevector-copy! out 8 bv 0 n)
      bv))

  (define (write-bytes rt who address bv)
    (let* ([n (bytevector-length bv)] [in (make-slots (+ 2 (slots-of n)))])
      (slot-set! in 0 address)
      (slot-set! in 1 n)
      (bytevector-copy! bv 0 in 16 n)
      (builtin-raw rt who B-WRITE in 0)
      (if #f #f)))

  (define (alloc rt who n) (slot-ref (builtin rt who B-ALLOC 1 n) 1))
  (define (free rt who p) (builtin rt who B-FREE 0 p) (if #f #f))

  ;; A copy of s in C memory, NUL-terminated; the caller frees it.
  (define (string->c rt who s)
    (let* ([bytes (string->utf8 s)] [n (bytevector-length bytes)])
      (let scan ([k 0])
        (when (< k n)
          (when (= 0 (bytevector-u8-ref bytes k))
            (misuse who "string holds a NUL character" s))
          (scan (+ k 1))))
      (let ([p (alloc rt who (+ n 1))] [z (make-bytevector (+ n 1) 0)])
        (bytevector-copy! bytes 0 z 0 n)
        (write-bytes rt who p z)
        p)))

  ;; Runs (proc c-string) with name copied into C memory for the call.
  (define (with-c-string rt who name proc)
    (unless (string? name) (misuse who "not a string" name))
    (let ([p (string->c rt who name)])
      (let ([result (guard (e (#t (free rt who p) (raise e))) (proc p))])
        (free rt who p)
        result)))

  (define (check-rt who rt)
    (unless (nccc-runtime? rt) (misuse who "not an nccc runtime" rt)))
  (define (check-address who p)
    (unless (and (exact-int? p) (<= 0 p u64-max)) (misuse who "not an address" p)))

  (define (nccc-alloc rt n)
    (check-rt 'nccc-alloc rt)
    (unless (and (exact-int? n) (<= 0 n u64-max)) (misuse 'nccc-alloc "bad size" n))
    (alloc rt 'nccc-alloc n))
  (define (nccc-free rt p)
    (check-rt 'nccc-free rt) (check-address 'nccc-free p)
    (free rt 'nccc-free p))
  (define (nccc-read rt p n)
    (check-rt 'nccc-read rt) (check-address 'nccc-read p)
    (unless (and (exact-int? n) (<= 0 n u64-max)) (misuse 'nccc-read "bad size" n))
    (read-bytes rt 'nccc-read p n))
  (define (nccc-write rt p bv)
    (check-rt 'nccc-write rt) (check-address 'nccc-write p)
    (unless (bytevector? bv) (misuse 'nccc-write "not a bytevector" bv))
    (write-bytes rt 'nccc-write p bv))
  (define (nccc-string-at rt p)
    (check-rt 'nccc-string-at rt) (check-address 'nccc-string-at p)
    (string-at rt p))
  (define (nccc-string->c rt s)
    (check-rt 'nccc-string->c rt)
    (unless (string? s) (misuse 'nccc-string->c "not a string" s))
    (string->c rt 'nccc-string->c s))

  ;; peek/poke take a one-character code ("i", "d", ...).
  (define (memory-code who code)
    (unless (and (string? code) (= 1 (string-length code))
                 (memv (string-ref code 0) scalar-codes))
      (misuse who "not a scalar type code" code))
    (string-ref code 0))
  (define (nccc-peek rt p code)
    (check-rt 'nccc-peek rt) (check-address 'nccc-peek p)
    (let ([c (memory-code 'nccc-peek code)])
      ;; "s" reads the char * stored at p and gives its string
      (decode rt c (slot-ref (builtin rt 'nccc-peek B-PEEK 1 p (char->integer c)) 1))))
  (define (nccc-poke rt p code value)
    (check-rt 'nccc-poke rt) (check-address 'nccc-poke p)
    (let ([c (memory-code 'nccc-poke code)])
      (when (char=? c #\s) (misuse 'nccc-poke "poke a string's address with code \"p\"" code))
      (builtin rt 'nccc-poke B-POKE 0 p (char->integer c)
               (encode rt 'nccc-poke c value 1 (lambda (x) #f)))
      (if #f #f)))

  ;; ---- loading ------------------------------------------------------------

  (define (nccc-load path)
    (unless (string? path) (misuse 'nccc-load "not a path" path))
    (let* ([lib (guard (e (#t (misuse 'nccc-load "cannot load the library" path)))
                  (compat-load path))]
           [root (compat-symbol lib "nccc_root")])
      (unless root (misuse 'nccc-load "the library has no nccc_root" path))
      (let* ([n (vector-length builtin-names)] [fns (make-vector n #f)])
        ;; the root hands out each built-in by index
        (do ([k 0 (+ k 1)]) ((= k n))
          (let ([out (make-slots 4)])
            (compat-call root (slots k) out)
            (unless (= 0 (slot-ref out 0))
              (misuse 'nccc-load "the runtime lacks a built-in" (vector-ref builtin-names k)))
            (vector-set! fns k (cons (slot-ref out 1) (slot-ref out 2)))))
        (let ([rt (make-runtime lib path root (vector-map car fns) '() '() #f)])
          ;; the names prove the indices mean what this library thinks
          (vector-for-each
           (lambda (expected fn)
             (let ([name (string-at rt (cdr fn))])
               (unless (equal? name expected)
                 (misuse 'nccc-load "built-in index mismatch" expected name))))
           builtin-names fns)
          (register-dispatcher rt)
          rt))))

  (define (nccc-symbol rt name)
    (check-rt 'nccc-symbol rt)
    (unless (string? name) (misuse 'nccc-symbol "not a string" name))
    (compat-symbol (runtime-lib rt) name))

  (define (nccc-version rt)
    (check-rt 'nccc-version rt)
    (let ([out (builtin rt 'nccc-version B-VERSION 2)])
      (values (slot-ref out 1) (string-at rt (slot-ref out 2)))))

  (define (nccc-last-error rt)
    (check-rt 'nccc-last-error rt)
    (let ([out (builtin rt 'nccc-last-error B-LAST-ERROR 2)])
      (values (slot->int (assv #\i int-specs) (slot-ref out 1))
              (string-at rt (slot-ref out 2)))))

  ;; ---- modules, layouts, constants ---------------------------------------

  (define (module-count rt)
    (slot-ref (builtin rt 'nccc-modules B-MODULE-COUNT 1) 1))

  ;; -> (values name n-functions n-types n-constants), or #f for no module
  (define (module-info rt index)
    (let-values ([(st out) (builtin/status rt B-MODULE-INFO (slots index) 4)])
      (if (= st 0)
          (values (string-at rt (slot-ref out 1)) (slot-ref out 2)
                  (slot-ref out 3) (slot-ref out 4))
          (values #f 0 0 0))))

  ;; Module index of name, or #f.
  (define (module-find rt who name)
    (with-c-string rt who name
      (lambda (p)
        (let-values ([(st out) (builtin/status rt B-MODULE-FIND (slots p) 1)])
          (cond [(= st 0) (slot-ref out 1)]
                [(= st NCCC-ERR-NAME-NOT-FOUND) #f]
                [else (runtime-fail rt who st)])))))

  (define (nccc-modules rt)
    (check-rt 'nccc-modules rt)
    (let ([n (module-count rt)])
      (let loop ([k 0] [acc '()])
        (if (= k (- n 1))   ; the last position is the global registry
            (list->vector (reverse acc))
            (let-values ([(name . _) (module-info rt k)])
              (loop (+ k 1) (if name (cons name acc) acc)))))))

  ;; "module.rest" -> (values module-index rest), raising for no module.
  (define (split-qualified rt who qualified)
    (unless (string? qualified) (misuse who "not a string" qualified))
    (let loop ([k 0])
      (cond
       [(= k (string-length qualified))
        (misuse who "expected \"module.name\"" qualified)]
       [(char=? (string-ref qualified k) #\.)
        (let ([m (module-find rt who (substring qualified 0 k))])
          (unless m (misuse who "no such module" (substring qualified 0 k)))
          (values m (substring qualified (+ k 1) (string-length qualified))))]
       [else (loop (+ k 1))])))

  (define-record-type (layout make-layout nccc-layout?)
    (fields (immutable name nccc-layout-name) (immutable size nccc-layout-size)
            (immutable align nccc-layout-align) (immutable kind nccc-layout-kind)
            (immutable fields nccc-layout-fields) module))
  (define-record-type (field make-field nccc-field?)
    (fields (immutable name nccc-field-name) (immutable code nccc-field-code)
            (immutable offset nccc-field-offset) (immutable size nccc-field-size)
            (immutable count nccc-field-count)))

  ;; Cached per module index, checked against the module's name (an index
  ;; can hold another module after a removal).
  (define (cached rt get set index name load)
    (let ([hit (assv index (get rt))])
      (if (and hit (equal? (cadr hit) name))
          (cddr hit)
          (let ([v (load)])
            (set rt (cons (cons index (cons name v)) (get rt)))
            v))))

  (define (module-layouts rt m)
    (let-values ([(name n-fns n-types n-consts) (module-info rt m)])
      (if (not name)
          '#()
          (cached rt runtime-layouts runtime-layouts-set! m name
                  (lambda ()
                    (let ([v (make-vector n-types)])
                      (do ([t 0 (+ t 1)]) ((= t n-types) v)
                        (vector-set! v t (load-layout rt m t)))))))))

  (define (load-layout rt m t)
    (let* ([out (builtin rt 'nccc-layout B-MODULE-TYPE 5 m t)]
           [n (slot-ref out 5)] [fields (make-vector n)])
      (do ([f 0 (+ f 1)]) ((= f n))
        (let ([o (builtin rt 'nccc-layout B-MODULE-FIELD 5 m t f)])
          (vector-set! fields f
                       (make-field (string-at rt (slot-ref o 1)) (string-at rt (slot-ref o 2))
                                   (slot-ref o 3) (slot-ref o 4) (slot-ref o 5)))))
      (make-layout (string-at rt (slot-ref out 1)) (slot-ref out 2) (slot-ref out 3)
                   (case (slot-ref out 4) [(1) 'struct] [(2) 'union] [else 'opaque])
                   fields m)))

  (define (find-layout-in rt m name)
    (let ([v (module-layouts rt m)])
      (let loop ([k 0])
        (cond [(= k (vector-length v)) #f]
              [(string=? (nccc-layout-name (vector-ref v k)) name) (vector-ref v k)]
              [else (loop (+ k 1))]))))

  (define (nccc-layout rt qualified)
    (check-rt 'nccc-layout rt)
    (let-values ([(m name) (split-qualified rt 'nccc-layout qualified)])
      (or (find-layout-in rt m name)
          (misuse 'nccc-layout "no such type" qualified))))

  (define (nccc-layout-field layout name)
    (unless (nccc-layout? layout) (misuse 'nccc-layout-field "not a layout" layout))
    (let ([v (nccc-layout-fields layout)])
      (let loop ([k 0])
        (cond [(= k (vector-length v))
               (misuse 'nccc-layout-field "no such field" (nccc-layout-name layout) name)]
              [(equal? (nccc-field-name (vector-ref v k)) name) (vector-ref v k)]
              [else (loop (+ k 1))]))))

  (define (module-constants rt m)
    (let-values ([(name n-fns n-types n-consts) (module-info rt m)])
      (if (not name)
          '#()
          (cached rt runtime-constants runtime-constants-set! m name
                  (lambda ()
                    (let ([v (make-vector n-consts)])
                      (do ([c 0 (+ c 1)]) ((= c n-consts) v)
                        (let* ([o (builtin rt 'nccc-constant B-MODULE-CONSTANT 3 m c)]
                               [code (string-at rt (slot-ref o 2))])
                          (vector-set! v c (vector (string-at rt (slot-ref o 1))
                                                   (decode-constant rt code (slot-ref o 3))))))))))))

  (define (decode-constant rt code slot)
    (let-values ([(items _) (parse-signature 'nccc-constant (string-append code ":"))])
      (if (and (= 1 (length items)) (char? (car items)))
          (decode rt (car items) slot)
          slot)))

  (define (nccc-constants rt module)
    (check-rt 'nccc-constants rt)
    (let ([m (module-find rt 'nccc-constants module)])
      (unless m (misuse 'nccc-constants "no such module" module))
      (vector-map (lambda (e) (vector (vector-ref e 0) (vector-ref e 1)))
                  (module-constants rt m))))

  (define (nccc-constant rt qualified)
    (check-rt 'nccc-constant rt)
    (let-values ([(m name) (split-qualified rt 'nccc-constant qualified)])
      (let ([v (module-constants rt m)])
        (let loop ([k 0])
          (cond [(= k (vector-length v)) (misuse 'nccc-constant "no such constant" qualified)]
                [(string=? (vector-ref (vector-ref v k) 0) name) (vector-ref (vector-ref v k) 1)]
                [else (loop (+ k 1))])))))

  ;; Struct codes get their size from the layout table of module m (the
  ;; function's own), else of any module, else from an explicit :N.
  (define (resolve-items rt who items m)
    (map (lambda (item)
           (if (not (sref? item))
               item
               (let* ([name (sref-name item)]
                      [layout (or (and m (find-layout-in rt m name))
                                  (let loop ([k 0] [n (- (module-count rt) 1)])
                                    (and (< k n)
                                         (or (find-layout-in rt k name) (loop (+ k 1) n)))))])
                 (cond
                  [(and layout (memq (nccc-layout-kind layout) '(struct union)))
                   (let ([slots (slots-of (nccc-layout-size layout))])
                     (when (and (sref-slots item) (not (= slots (sref-slots item))))
                       (misuse who "struct slot count disagrees with its layout" name))
                     (make-sref name slots (nccc-layout-size layout) layout))]
                  [(sref-slots item)
                   (make-sref name (sref-slots item) (* 8 (sref-slots item)) #f)]
                  [else (misuse who "no layout for struct type" name)]))))
         items))

  ;; ---- structs as bytevectors ----------------------------------------------

  (define (nccc-make-struct layout)
    (unless (nccc-layout? layout) (misuse 'nccc-make-struct "not a layout" layout))
    (make-bytevector (nccc-layout-size layout) 0))

  ;; -> (values offset element-size code) of element index of field name
  (define (field-place who layout bv name index)
    (unless (nccc-layout? layout) (misuse who "not a layout" layout))
    (unless (and (bytevector? bv) (= (bytevector-length bv) (nccc-layout-size layout)))
      (misuse who "not a bytevector of the layout's size" bv))
    (let* ([f (nccc-layout-field layout name)]
           [count (nccc-field-count f)]
           [esize (div (nccc-field-size f) (max count 1))])
      (unless (and (exact-int? index) (< -1 index count))
        (misuse who "field index out of range" name index))
      (values (+ (nccc-field-offset f) (* index esize)) esize (nccc-field-code f))))

  (define (nccc-struct-ref layout bv name . index)
    (let-values ([(offset size code)
                  (field-place 'nccc-struct-ref layout bv name (if (null? index) 0 (car index)))])
      (let ([c (string-ref code 0)] [e (native-endianness)])
        (case c
          [(#\f) (bytevector-ieee-single-ref bv offset e)]
          [(#\d) (bytevector-ieee-double-ref bv offset e)]
          [(#\?) (not (= 0 (bytevector-u8-ref bv offset)))]
          [(#\{) (let ([sub (make-bytevector size)])
                   (bytevector-copy! bv offset sub 0 size)
                   sub)]
          [(#\b #\h #\i #\l) (bytevector-sint-ref bv offset e size)]
          [else (bytevector-uint-ref bv offset e size)]))))

  (define (nccc-struct-set! layout bv name value . index)
    (let-values ([(offset size code)
                  (field-place 'nccc-struct-set! layout bv name (if (null? index) 0 (car index)))])
      (let ([c (string-ref code 0)] [e (native-endianness)])
        (case c
          [(#\f #\d)
           (unless (real? value)
             (%nccc-misuse 'nccc-struct-set! 'type "not a real number for the field" name value))
           (if (char=? c #\f)
               (bytevector-ieee-single-set! bv offset (inexact value) e)
               (bytevector-ieee-double-set! bv offset (inexact value) e))]
          [(#\?)
           (unless (boolean? value) (misuse 'nccc-struct-set! "not a boolean" name value))
           (bytevector-u8-set! bv offset (if value 1 0))]
          [(#\{)
           (unless (and (bytevector? value) (= size (bytevector-length value)))
             (misuse 'nccc-struct-set! "not a bytevector of the field's size" name value))
           (bytevector-copy! value 0 bv offset size)]
          [else
           (let* ([signed (memv c '(#\b #\h #\i #\l))]
                  [lo (if signed (- (expt 2 (- (* 8 size) 1))) 0)]
                  [hi (- (expt 2 (if signed (- (* 8 size) 1) (* 8 size))) 1)])
             (unless (exact-int? value)
               (%nccc-misuse 'nccc-struct-set! 'type "not an exact integer for the field" name value))
             (unless (<= lo value hi)
               (%nccc-misuse 'nccc-struct-set! 'range "value out of the field's range" name value))
             (if signed
                 (bytevector-sint-set! bv offset value e size)
                 (bytevector-uint-set! bv offset value e size)))]))))

  ;; ---- conversions by type code ----------------------------------------------

  ;; One value for a one-slot item; strings are allocated and recorded
  ;; with (keep! address) so that the caller frees them.
  (define (encode rt who c v position keep!)
    (define (wrong what) (misuse who (string-append "bad argument #" (number->string position)
                                                    ": expected " what) v))
    (case c
      [(#\?) (if (boolean? v) (if v 1 0) (wrong "a boolean"))]
      [(#\f) (if (real? v) (float->slot (float-in-range who position (inexact v))) (wrong "a real number"))]
      [(#\d) (if (real? v) (double->slot (inexact v)) (wrong "a real number"))]
      [(#\p #\F #\c)
       ;; c: a closure context, made from a callback (docs/CALLBACKS.md)
       (cond [(not v) 0]
             [(and (nccc-callback? v) (not (char=? c #\F))) (callback-slot who v)]
             [(nccc-owned? v)
              (or (nccc-owned-address v)
                  (%nccc-misuse who 'closed (string-append "bad argument #" (number->string position)
                                                          ": the owned object is closed")
                                v))]
             [(exact-int? v) (if (<= 0 v u64-max) v (wrong "an address (0..2^64-1)"))]
             [else (wrong (if (char=? c #\F) "an address or #f" "an address, a callback or #f"))])]
      [(#\s)
       (cond [(not v) 0]
             [(string? v) (let ([p (string->c rt who v)]) (keep! p) p)]
             [else (wrong "a string or #f")])]
      [else
       (let ([spec (assv c int-specs)])
         (cond [(not (exact-int? v)) (wrong "an exact integer")]
               [(<= (cadddr spec) v (car (cddddr spec))) (int->slot v)]
               [else (%nccc-int who position v c)]))]))

  (define (decode rt c s)
    (case c
      [(#\?) (not (= s 0))]
      [(#\f #\d) (slot->double s)]
      [(#\p #\F #\c) s]
      [(#\s) (string-at rt s)]
      [else (slot->int (assv c int-specs) s)]))

  ;; Writes the arguments into in (from slot 0) by items; -> unspecified.
  (define (encode-args rt who items args in keep!)
    (let loop ([items items] [args args] [k 0] [position 1])
      (cond
       [(null? items) #t]
       [(eq? (car items) 'rest)
        (for-each (lambda (v i) (slot-set! in i (encode-raw who v position)))
                  args (iota-from k (length args)))]
       [(sref? (car items))
        (let* ([r (car items)] [v (car args)] [size (sref-size r)])
          (unless (bytevector? v)
            (%nccc-misuse who 'type (string-append "bad argument #" (number->string position)
                                                   ": expected a bytevector for {"
                                                   (sref-name r) "}")
                          v))
          (unless (if (sref-layout r) (= (bytevector-length v) size)
                      (<= (bytevector-length v) size))
            (misuse who (string-append "argument " (number->string position)
                                       ": expected a bytevector of "
                                       (number->string size) " bytes for {"
                                       (sref-name r) "}")
                    v))
          (bytevector-copy! v 0 in (* 8 k) (bytevector-length v))
          (loop (cdr items) (cdr args) (+ k (sref-slots r)) (+ position 1)))]
       [else
        (slot-set! in k (encode rt who (car items) (car args) position keep!))
        (loop (cdr items) (cdr args) (+ k 1) (+ position 1))])))

  (define (iota-from start n)
    (let loop ([k (- n 1)] [acc '()])
      (if (< k 0) acc (loop (- k 1) (cons (+ start k) acc)))))

  ;; A '*' slot: any integer in -2^63..2^64-1, a real number (as double
  ;; bits) or a boolean.
  (define (encode-raw who v position)
    (cond [(and (exact-int? v) (<= (- (expt 2 63)) v u64-max)) (int->slot v)]
          [(boolean? v) (if v 1 0)]
          [(and (real? v) (inexact? v)) (double->slot v)]
          [else (misuse who (string-append "argument " (number->string position)
                                           ": expected a slot value") v)]))

  ;; The results in out (from slot 0) by items, as a list; n-extra raw
  ;; slots after them for a side ending in '*'.
  (define (decode-results rt items out n-extra)
    (let loop ([items items] [k 0] [acc '()])
      (cond
       [(or (null? items) (eq? (car items) 'rest))
        (append (reverse acc) (map (lambda (i) (slot-ref out i)) (iota-from k n-extra)))]
       [(sref? (car items))
        (let* ([r (car items)] [bv (make-bytevector (sref-size r))])
          (bytevector-copy! out (* 8 k) bv 0 (sref-size r))
          (loop (cdr items) (+ k (sref-slots r)) (cons bv acc)))]
       [else (loop (cdr items) (+ k 1) (cons (decode rt (car items) (slot-ref out k)) acc))])))

  ;; ---- functions -----------------------------------------------------------------

  (define-record-type (fn make-fn nccc-function?)
    (fields rt (immutable name nccc-function-name)
            (immutable signature nccc-function-signature)
            (immutable address nccc-function-address)
            (immutable handle nccc-function-handle)
            in-items out-items n-in n-out))

  (define VARIABLE #x8000)

  (define (make-function rt who name address handle signature m n-in n-out)
    (let-values ([(in out) (parse-signature who signature)])
      (let* ([in (resolve-items rt who in m)] [out (resolve-items rt who out m)]
             [n-in* (items-slots in)] [n-out* (items-slots out)])
        ;; the registry's counts must agree with the parsed signature
        (when n-in
          (unless (and (= n-in* (bitwise-and n-in (- VARIABLE 1)))
                       (eq? (items-rest? in) (not (= 0 (bitwise-and n-in VARIABLE))))
                       (= n-out* (bitwise-and n-out (- VARIABLE 1)))
                       (eq? (items-rest? out) (not (= 0 (bitwise-and n-out VARIABLE)))))
            (misuse who "slot counts disagree with the signature" name signature)))
        (make-fn rt name signature address handle in out n-in* n-out*))))

  (define (nccc-lookup rt name)
    (check-rt 'nccc-lookup rt)
    (let ([handle (with-c-string rt 'nccc-lookup name
                    (lambda (p)
                      (let-values ([(st out) (builtin/status rt B-LOOKUP (slots p) 1)])
                        (cond [(= st 0) (slot-ref out 1)]
                              [(= st NCCC-ERR-NAME-NOT-FOUND)
                               (misuse 'nccc-lookup "no such function" name)]
                              [else (runtime-fail rt 'nccc-lookup st)]))))])
      (function-of-handle rt 'nccc-lookup handle name)))

  (define (function-of-handle rt who handle name)
    (let ([out (builtin rt who B-FUNCTION 5 handle)])
      (make-function rt who name (slot-ref out 1) handle (string-at rt (slot-ref out 3))
                     (bitwise-bit-field handle 16 31) (slot-ref out 4) (slot-ref out 5))))

  ;; An nccc_fn at a raw address (another symbol of a library, a function
  ;; pointer a C function returned) with the signature the caller states.
  (define (nccc-function-at rt address signature . name)
    (check-rt 'nccc-function-at rt)
    (unless (and (exact-int? address) (< 0 address two^64))
      (misuse 'nccc-function-at "not a function address" address))
    (unless (string? signature) (misuse 'nccc-function-at "not a signature" signature))
    (make-function rt 'nccc-function-at (if (null? name) "<address>" (car name))
                   address 0 signature #f #f #f))

  (define (nccc-call f . args) (call f #f args))

  ;; For a function whose out side ends in '*': n-extra more out slots,
  ;; returned raw after the other results.
  (define (nccc-call* f n-extra . args)
    (unless (and (exact-int? n-extra) (<= 0 n-extra 4096))
      (misuse 'nccc-call* "bad count of extra out slots" n-extra))
    (call f n-extra args))

  (define (nccc-procedure rt name)
    (let ([f (nccc-lookup rt name)])
      (lambda args (call f #f args))))

  (define (call f n-extra args)
    (unless (nccc-function? f) (misuse 'nccc-call "not an nccc function" f))
    (let* ([who (string->symbol (nccc-function-name f))]
           [rt (fn-rt f)] [in-items (fn-in-items f)]
           [n-args (length args)]
           [n-fixed (length (remq 'rest in-items))])
      (unless (if (items-rest? in-items) (>= n-args n-fixed) (= n-args n-fixed))
        (count-error who n-fixed (items-rest? in-items) n-args))
      ;; a C function may write any number of slots after a '*': only the
      ;; caller knows how many, so it must say
      (unless (eq? (items-rest? (fn-out-items f)) (and n-extra #t))
        (%nccc-misuse who (if n-extra 'type 'count)
                      (if n-extra
                          "nccc-call* is for functions whose results end in '*'"
                          "results end in '*': call with nccc-call* and a slot count")))
      (check-byte-slots rt who f args n-extra)
      (let* ([n-extra (or n-extra 0)]
             [in (make-slots (+ (fn-n-in f) (- n-args n-fixed)))]
             [out (make-slots (+ (fn-n-out f) n-extra))]
             ;; C strings to free, and the callbacks among the arguments
             [kept (filter nccc-callback? args)]
             [called #f]
             [cleanup
              (lambda ()
                (for-each (lambda (x)
                            (cond [(not (nccc-callback? x)) (free rt who x)]
                                  ;; only C's wrapper ends a call-scope
                                  ;; closure, and C was not called
                                  [(and (not called) (eq? (callback-scope x) 'call))
                                   (nccc-release x)]))
                          kept))])
        (let ([results
               (guard (e (#t (cleanup) (raise e)))
                 (encode-args rt who in-items args in (lambda (x) (set! kept (cons x kept))))
                 (set! called #t)
                 (compat-call (nccc-function-address f) in out)
                 (let ([e (take-pending!)]) (when e (raise e)))
                 ;; results before the frees: an out string may point
                 ;; into an argument string
                 (decode-results rt (fn-out-items f) out n-extra))])
          (cleanup)
          (apply values results)))))

  ;; The built-ins read and write move n bytes through their '*' slots:
  ;; fewer slots than the bytes need would let C read or write past the
  ;; buffer, so that is refused (kind count) before the call.
  (define (check-byte-slots rt who f args n-extra)
    (let ([a (nccc-function-address f)] [b (runtime-builtins rt)])
      (when (and (or (= a (vector-ref b B-READ)) (= a (vector-ref b B-WRITE)))
                 (>= (length args) 2) (exact-int? (cadr args)) (>= (cadr args) 0))
        (let ([need (slots-of (cadr args))]
              [have (if (= a (vector-ref b B-READ)) (or n-extra 0) (- (length args) 2))])
          (when (< have need)
            (%nccc-misuse who 'count
                          (string-append "wrong number of '*' slots: "
                                         (number->string (cadr args)) " bytes need "
                                         (number->string need) ", got "
                                         (number->string have))))))))

  ;; ---- registry listing ------------------------------------------------------------

  (define (handle-of m k)
    (bitwise-ior #x80000000 (bitwise-arithmetic-shift-left m 16) #x8000 k))

  (define (module-function-names rt m prefix)
    (let-values ([(name n-fns n-types n-consts) (module-info rt m)])
      (let loop ([k (- n-fns 1)] [acc '()])
        (if (< k 0)
            acc
            (let ([out (builtin rt 'nccc-functions B-FUNCTION 5 (handle-of m k))])
              (loop (- k 1) (cons (string-append prefix (string-at rt (slot-ref out 2))) acc)))))))

  ;; Every function as "module.name" (module order, then registry order),
  ;; the global registry's names last; or those of one module.
  (define (nccc-functions rt . module)
    (check-rt 'nccc-functions rt)
    (if (pair? module)
        (let ([m (module-find rt 'nccc-functions (car module))])
          (unless m (misuse 'nccc-functions "no such module" (car module)))
          (list->vector (module-function-names rt m (string-append (car module) "."))))
        (let ([n (module-count rt)])
          (let loop ([k 0] [acc '()])
            (if (= k n)
                (list->vector (apply append (reverse acc)))
                (let-values ([(name . _) (module-info rt k)])
                  (loop (+ k 1)
                        (cond [(not name) acc]
                              [(= k (- n 1)) (cons (module-function-names rt k "") acc)]
                              [else (cons (module-function-names rt k (string-append name "."))
                                          acc)]))))))))

  ;; ---- callbacks --------------------------------------------------------------

  ;; Process-wide, like the dispatcher: the entries by environment word (a
  ;; vector indexed by the word; words come back after their release
  ;; notice), the runtime, and what a procedure raised inside C, raised
  ;; again when the forward call returns: %nccc-pending is #(condition
  ;; count), read by generated code after every call.
  (define entries (make-vector 64 #f))
  (define free-words '())
  (define next-env 1)
  (define n-held 0)
  (define dispatch-rt #f)
  (define %nccc-pending (vector #f 0))

  (define (new-word!)
    (if (pair? free-words)
        (let ([w (car free-words)]) (set! free-words (cdr free-words)) w)
        (let ([w next-env])
          (set! next-env (+ w 1))
          (when (>= w (vector-length entries))
            (let ([v (make-vector (* 2 w) #f)])
              (do ([k 0 (+ k 1)]) ((= k (vector-length entries)))
                (vector-set! v k (vector-ref entries k)))
              (set! entries v)))
          w)))

  (define (take-pending!)
    (let ([e (vector-ref %nccc-pending 0)] [more (vector-ref %nccc-pending 1)])
      (vector-set! %nccc-pending 0 #f)
      (vector-set! %nccc-pending 1 0)
      (and e (callback-condition e more))))
  (define (%nccc-raise-pending) (raise (take-pending!)))

  ;; What the forward call raises for an error inside a callback: an
  ;; &nccc of kind callback holding the first error's message (the error
  ;; itself is the first irritant) and how many more came after it.
  (define (callback-condition e more)
    (raise-nccc 'callback #f 'callback
                (string-append (if (and (condition? e) (message-condition? e))
                                   (condition-message e)
                                   "a callback raised a non-condition")
                               (if (> more 0)
                                   (string-append " (and " (number->string more)
                                                  " more errors in callbacks)")
                                   ""))
                (list e)))

  (define (note-pending! e)
    (if (vector-ref %nccc-pending 0)
        (vector-set! %nccc-pending 1 (+ 1 (vector-ref %nccc-pending 1)))
        (vector-set! %nccc-pending 0 e)))

  ;; proc, its converter (conv proc in-view out-view) and on-error (what
  ;; to do with an error: keep it pending, or fail a packed call).
  (define-record-type entry (fields proc conv on-error callback))

  (define-record-type (callback make-callback nccc-callback?)
    (fields rt (immutable context nccc-callback-context) scope
            (mutable held)))   ; members whose release notice has not come

  (define (nccc-callback-live? cb)
    (unless (nccc-callback? cb) (misuse 'nccc-callback-live? "not a callback" cb))
    (> (callback-held cb) 0))

  (define (nccc-callbacks-held) n-held)

  (define (callback-slot who cb)
    (unless (nccc-callback-live? cb)
      (misuse who "the callback was released" (nccc-callback-context cb)))
    (nccc-callback-context cb))

  (define (register-dispatcher rt)
    (let ([d (compat-dispatcher dispatch)])
      (unless dispatch-rt (set! dispatch-rt rt))
      (runtime-dispatcher-set! rt d)
      ;; visible to other code and tools under one name (docs/CALLBACKS.md)
      (with-c-string rt 'nccc-load "scheme.dispatch"
        (lambda (name)
          (with-c-string rt 'nccc-load "L*:*"
            (lambda (sig) (builtin rt 'nccc-load B-REGISTER 1 name d sig 1)))))))

  ;; C calls this (through the compat dispatcher) for every callback of
  ;; every closure and packed function this library made; views of in[]
  ;; and out[] (out #f for a release notice). Nothing may escape into C.
  (define (dispatch in out)
    (let* ([env (view-u64-ref in 0)]
           [entry (and (< env (vector-length entries)) (vector-ref entries env))])
      (cond
       [(not entry)
        (note-pending! (make-message-condition "callback for an unknown environment word"))]
       [(not out)   ; a release notice
        (vector-set! entries env #f)
        (set! free-words (cons env free-words))
        (set! n-held (- n-held 1))
        (let ([cb (entry-callback entry)])
          (callback-held-set! cb (- (callback-held cb) 1)))]
       [else
        (guard (e (#t ((entry-on-error entry) e out)))
          ((entry-conv entry) (entry-proc entry) in out))])))

  ;; A converter per signature, made once and cached: readers of the
  ;; arguments (in[] from slot first), writers of the results (out[] from
  ;; slot out-first).
  (define converters (make-hashtable string-hash string=?))

  (define (converter rt who sig first out-first)
    (let ([key (string-append sig "/" (number->string first) (number->string out-first))])
      (or (hashtable-ref converters key #f)
          (let-values ([(in-items out-items) (parse-signature who sig)])
            (when (or (items-rest? in-items) (items-rest? out-items))
              (misuse who "a callback signature cannot hold '*'" sig))
            (when (memv #\s out-items)
              (misuse who "a callback cannot return a string (use 'p')" sig))
            (let ([c (make-converter rt (resolve-items rt who in-items #f)
                                     (resolve-items rt who out-items #f) first out-first)])
              (hashtable-set! converters key c)
              c)))))

  (define (reader rt item offset)
    (cond
     [(sref? item)
      (let ([size (sref-size item)] [n (sref-slots item)])
        (lambda (in)
          (let ([b (make-bytevector (* 8 n))] [bv (make-bytevector size)])
            (do ([k 0 (+ k 1)]) ((= k n))
              (slot-u64-set! b (* 8 k) (view-u64-ref in (+ offset (* 8 k)))))
            (bytevector-copy! b 0 bv 0 size)
            bv)))]
     [else
      (case item
        [(#\b #\h #\i #\l #\e) (lambda (in) (view-s64-ref in offset))]
        [(#\f #\d) (lambda (in) (view-f64-ref in offset))]
        [(#\?) (lambda (in) (not (= 0 (view-u64-ref in offset))))]
        [(#\s) (lambda (in) (string-at rt (view-u64-ref in offset)))]
        [else (lambda (in) (view-u64-ref in offset))])]))

  ;; -> (lambda (out value) ...), raising "bad result #k" for a wrong value
  (define (writer rt item offset position)
    (define who 'callback)
    (define (check v)
      (guard (e [(nccc-error? e)
                 (%nccc-misuse who (nccc-error-kind e)
                               (string-append "bad result #" (number->string position) ": "
                                              (condition-message e))
                               v)])
        (encode rt who item v position (lambda (p) #f))))
    (cond
     [(sref? item)
      (let ([n (sref-slots item)] [size (sref-size item)])
        (lambda (out v)
          (unless (and (bytevector? v) (= (bytevector-length v) size))
            (%nccc-misuse who 'type (string-append "bad result #" (number->string position)
                                                   ": expected a bytevector of "
                                                   (number->string size) " bytes")
                          v))
          (let ([b (make-bytevector (* 8 n) 0)])
            (bytevector-copy! v 0 b 0 size)
            (do ([k 0 (+ k 1)]) ((= k n))
              (view-u64-set! out (+ offset (* 8 k)) (slot-u64-ref b (* 8 k)))))))]
     [(memv item '(#\l #\i))
      (let ([lo (if (char=? item #\l) (- (expt 2 63)) (- (expt 2 31)))]
            [hi (if (char=? item #\l) (- (expt 2 63) 1) (- (expt 2 31) 1))])
        (lambda (out v)
          (if (and (integer? v) (exact? v) (<= lo v hi))
              (view-s64-set! out offset v)
              (view-u64-set! out offset (check v)))))]
     [(memv item '(#\f #\d))
      (lambda (out v)
        (if (and (flonum? v) (char=? item #\d))
            (view-f64-set! out offset v)
            (view-u64-set! out offset (check v))))]
     [else (lambda (out v) (view-u64-set! out offset (check v)))]))

  (define (offsets items start)
    (let loop ([items items] [o start] [acc '()])
      (if (null? items)
          (reverse acc)
          (loop (cdr items) (+ o (* 8 (item-slots (car items)))) (cons o acc)))))

  (define (make-converter rt in-items out-items first out-first)
    (let* ([rs (map (lambda (i o) (reader rt i o)) in-items (offsets in-items (* 8 first)))]
           [ws (map (lambda (i o k) (writer rt i o k)) out-items
                    (offsets out-items (* 8 out-first)) (iota-from 1 (length out-items)))]
           [n-out (length ws)]
           [call
            (case (length rs)
              [(0) (lambda (proc in) (proc))]
              [(1) (let ([r0 (car rs)]) (lambda (proc in) (proc (r0 in))))]
              [(2) (let ([r0 (car rs)] [r1 (cadr rs)]) (lambda (proc in) (proc (r0 in) (r1 in))))]
              [(3) (let ([r0 (car rs)] [r1 (cadr rs)] [r2 (caddr rs)])
                     (lambda (proc in) (proc (r0 in) (r1 in) (r2 in))))]
              [else (lambda (proc in) (apply proc (map (lambda (r) (r in)) rs)))])])
      (define (wrong-count vs)
        (%nccc-misuse 'callback 'callback
                      (string-append "bad result count: the procedure returned "
                                     (number->string (length vs)) " values, expected "
                                     (number->string n-out))))
      (case n-out
        [(0) (lambda (proc in out) (call-with-values (lambda () (call proc in)) (lambda vs #f)))]
        [(1) (let ([w0 (car ws)])
               (lambda (proc in out)
                 (call-with-values (lambda () (call proc in))
                   (case-lambda [(v) (w0 out v)] [vs (wrong-count vs)]))))]
        [else
         (lambda (proc in out)
           (call-with-values (lambda () (call proc in))
             (lambda vs
               (unless (= (length vs) n-out) (wrong-count vs))
               ;; every value checked before any is written
               (let ([tmp (make-bytevector (* 8 (+ out-first (items-slots out-items))) 0)])
                 (for-each (lambda (w v) (w tmp v)) (map (lambda (i o k) (writer-bv rt i o k))
                                                         out-items
                                                         (offsets out-items (* 8 out-first))
                                                         (iota-from 1 n-out))
                           vs)
                 (do ([k out-first (+ k 1)]) ((= k (+ out-first (items-slots out-items))))
                   (view-u64-set! out (* 8 k) (slot-u64-ref tmp (* 8 k))))))))])))

  ;; The same as writer, into a bytevector (several results are checked
  ;; all before the first reaches out[]).
  (define (writer-bv rt item offset position)
    (lambda (bv v)
      (if (sref? item)
          (begin
            (unless (and (bytevector? v) (= (bytevector-length v) (sref-size item)))
              (%nccc-misuse 'callback 'type (string-append "bad result #" (number->string position)
                                                          ": expected a bytevector")
                            v))
            (bytevector-copy! v 0 bv offset (sref-size item)))
          (slot-u64-set! bv offset
                         (guard (e [(nccc-error? e)
                                    (%nccc-misuse 'callback (nccc-error-kind e)
                                                  (string-append "bad result #"
                                                                 (number->string position) ": "
                                                                 (condition-message e))
                                                  v)])
                           (encode rt 'callback item v position (lambda (p) #f)))))))

  (define (keep-pending e out) (note-pending! e))

  (define scopes '((call . 1) (async . 2) (notified . 3) (forever . 4)))
  (define NOTIFY #x100)

  (define (nccc-callback rt signature scope proc)
    (nccc-callback-group rt scope 0 signature proc))

  ;; Members share one context: signature and procedure per member, in the
  ;; order of the C function's callbacks; final is the member whose call
  ;; ends an async group.
  (define (nccc-callback-group rt scope final . members)
    (define who 'nccc-callback)
    (check-rt who rt)
    (unless (assq scope scopes)
      (misuse who "scope must be call, async, notified or forever" scope))
    (let ([n (div (length members) 2)])
      (unless (and (even? (length members)) (<= 1 n 255))
        (misuse who "expected signature and procedure pairs" members))
      (unless (and (exact-int? final) (< -1 final n))
        (misuse who "final member out of range" final))
      ;; members as (proc . converter), all checked before a claim
      (let* ([parsed
              (let loop ([ms members] [acc '()])
                (if (null? ms)
                    (reverse acc)
                    (let ([sig (car ms)] [proc (cadr ms)])
                      (unless (string? sig) (misuse who "not a signature" sig))
                      (unless (procedure? proc) (misuse who "not a procedure" proc))
                      (loop (cddr ms) (cons (cons proc (converter rt who sig 1 0)) acc)))))]
             [flags (+ (cdr (assq scope scopes)) NOTIFY)]
             [d (runtime-dispatcher rt)]
             [words (map (lambda (m) (new-word!)) parsed)])
        (let-values ([(st out)
                      (if (= n 1)
                          (builtin/status rt B-CLAIM (slots d (car words) flags) 1)
                          (builtin/status rt B-CLAIM-GROUP
                                          (apply slots flags final n
                                                 (apply append (map (lambda (w) (list d w)) words)))
                                          1))])
          (unless (= st 0)
            (set! free-words (append words free-words))
            (runtime-fail rt who st))
          ;; nothing calls the target before the claim returns
          (let ([cb (make-callback rt (slot-ref out 1) scope n)])
            (for-each (lambda (w m)
                        (set! n-held (+ n-held 1))
                        (vector-set! entries w (make-entry (car m) (cdr m) keep-pending cb)))
                      words parsed)
            cb)))))

  ;; Releases a callback of any scope now (its notices drop the procedures).
  (define (nccc-release cb)
    (unless (nccc-callback? cb) (misuse 'nccc-release "not a callback" cb))
    (when (nccc-callback-live? cb)
      (builtin (callback-rt cb) 'nccc-release B-RELEASE 0 (nccc-callback-context cb)))
    (if #f #f))

  ;; ---- for generated libraries ------------------------------------------------

  (define (count-error who n at-least? got)
    (%nccc-misuse who 'count
                  (string-append "wrong number of arguments: expects "
                                 (if at-least? "at least " "") (number->string n)
                                 " arguments, got " (number->string got))))

  (define int-names
    '((#\b . "int8") (#\B . "uint8") (#\h . "int16") (#\H . "uint16") (#\i . "int32")
      (#\I . "uint32") (#\l . "int64") (#\L . "uint64") (#\e . "int32")))

  ;; v when it is an exact integer in the range of code c, else raises
  ;; (type, integral or range).
  (define (%nccc-int who position v c)
    (let ([spec (assv c int-specs)]
          [arg (string-append "bad argument #" (number->string position) ": ")])
      (cond
       [(not (real? v))
        (%nccc-misuse who 'type (string-append arg "expected an exact integer, "
                                               (cdr (assv c int-names))) v)]
       [(not (and (integer? v) (exact? v)))
        (%nccc-misuse who 'integral (string-append arg "expected an exact integer, "
                                                   (cdr (assv c int-names))) v)]
       [(<= (cadddr spec) v (car (cddddr spec))) v]
       [else (%nccc-misuse who 'range
                           (string-append arg "value " (number->string v) " out of range for "
                                          (cdr (assv c int-names)) " ("
                                          (number->string (cadddr spec)) ".."
                                          (number->string (car (cddddr spec))) ")")
                           v)])))

  (define (%nccc-real who position v)
    (if (real? v)
        (inexact v)
        (%nccc-misuse who 'type (string-append "bad argument #" (number->string position)
                                               ": expected a real number") v)))
  (define (%nccc-float who position v)
    (float->slot (float-in-range who position (%nccc-real who position v))))
  ;; a finite double beyond float's range is refused (infinities and
  ;; NaNs pass)
  (define (float-in-range who position x)
    (if (and (< 3.4028235677973366e38 (abs x)) (not (= x (* 2 x))) (= x x))
        (%nccc-misuse who 'range (string-append "bad argument #" (number->string position)
                                                ": value out of range for float")
                      x)
        x))

  ;; A p argument: an address, #f (NULL), an owned object or a callback;
  ;; NULL refused unless nullable (kind null).
  (define (%nccc-pointer who position v nullable)
    (let ([a (encode dispatch-rt who #\p v position (lambda (x) #f))])
      (when (and (= a 0) (not nullable))
        (%nccc-misuse who 'null (string-append "bad argument #" (number->string position)
                                               ": NULL where the IDL says nonnull")
                      v))
      a))

  ;; A closure slot: a live callback, or #f when nullable.
  (define (%nccc-callback-arg who position v nullable)
    (cond [(nccc-callback? v) (callback-slot who v) v]
          [(and (not v) nullable) v]
          [(not v) (%nccc-misuse who 'null (string-append "bad argument #" (number->string position)
                                                          ": a callback is not nullable here"))]
          [else (%nccc-misuse who 'type (string-append "bad argument #" (number->string position)
                                                       ": closure expected")
                              v)]))

  (define (%nccc-arity who n args) (count-error who n #f (length args)))

  ;; A call of f that binds a thunk of a pool (a callback parameter with
  ;; no context): the wrapper refuses the call with a zeroed out[] when
  ;; the pool is full and says so only in the thread's last error, so the
  ;; error is cleared before and read after.
  (define (%nccc-thunk-call f . args)
    (let ([rt (fn-rt f)])
      (builtin/status rt B-CLEAR-ERROR (make-slots 0) 0)
      (call-with-values (lambda () (call f #f args))
        (lambda results
          (let-values ([(st out) (builtin/status rt B-LAST-ERROR (make-slots 0) 2)])
            (when (and (= st 0) (= (slot->int (assv #\i int-specs) (slot-ref out 1)) #x4007))
              (fail (string->symbol (nccc-function-name f)) #x4007
                    (string-append "thunk pool exhausted: "
                                   (or (string-at rt (slot-ref out 2)) "")))))
          (apply values results)))))

  ;; Buffers and the primitive of one function, made at bind:
  ;; -> (values call in out), (call) calling f with in and out.
  (define (%nccc-bind-call f n-in n-out)
    (let ([in (make-slots n-in)] [out (make-slots n-out)])
      (values (compat-bound-call (nccc-function-address f) in out) in out)))
  (define (%nccc-slots n) (make-slots n))

  ;; A string result: its copy (#f for NULL), the C string freed at once
  ;; by free (an nccc function) when it is owned.
  (define (%nccc-string-result address free)
    (if (= address 0)
        #f
        (let ([s (string-at dispatch-rt address)])
          (when free (call free #f (list address)))
          s)))
  (define (%nccc-owned-result address free name)
    (if (= address 0) #f (nccc-own dispatch-rt address free name)))

  ;; ---- owned pointers -------------------------------------------------------------

  ;; address #f once closed; free: the destructor, an nccc function.
  (define-record-type (owned make-owned nccc-owned?)
    (fields (mutable address nccc-owned-address nccc-owned-address-set!) free name))

  (define guardian #f)
  (define (the-guardian)
    (unless guardian (set! guardian (compat-guardian)))
    guardian)

  ;; Frees what the guardian found collected and never closed.
  (define (poll-owned!)
    (let loop ()
      (let ([o ((the-guardian))])
        (when o (close-owned o) (loop)))))

  (define (close-owned o)
    (let ([a (nccc-owned-address o)])
      (and a
           (begin (nccc-owned-address-set! o #f)
                  (call (owned-free o) #f (list a))
                  #t))))

  (define (nccc-own rt address free . name)
    (check-rt 'nccc-own rt) (check-address 'nccc-own address)
    (unless (nccc-function? free) (misuse 'nccc-own "not an nccc function" free))
    (poll-owned!)
    (let ([o (make-owned address free (if (pair? name) (car name) "owned"))])
      ((the-guardian) o)
      o))

  (define (nccc-owned-live? o)
    (unless (nccc-owned? o) (misuse 'nccc-owned-live? "not an owned object" o))
    (and (nccc-owned-address o) #t))

  ;; #t when this call freed it, #f when it was closed already.
  (define (nccc-close o)
    (unless (nccc-owned? o) (misuse 'nccc-close "not an owned object" o))
    (close-owned o))

  ;; A full collection, then the destructors of what it found.
  (define (nccc-collect!)
    (compat-collect)
    (poll-owned!))

  ;; ---- packed functions -------------------------------------------------------------

  (define packed-codes '((0 . int) (1 . uint) (2 . float) (4 . null) (11 . str)))

  ;; Calls the global packed function name (tvm.call_global, docs/PACKED.md
  ;; "Dynamic calls"): exact integers go as kDLInt, other reals as
  ;; kDLFloat, strings as kTVMStr, #f as kTVMNullptr. -> the result (no
  ;; value for kTVMNullptr); a failed call raises kind packed.
  (define (nccc-packed-call rt name . args)
    (check-rt 'nccc-packed-call rt)
    (unless (string? name) (misuse 'nccc-packed-call "not a string" name))
    (let* ([who (string->symbol name)]
           [f (nccc-lookup rt "tvm.call_global")]
           [strings '()]
           [pairs
            (guard (e (#t (for-each (lambda (p) (free rt who p)) strings) (raise e)))
              (apply append
                     (map (lambda (v)
                            (cond
                             [(and (integer? v) (exact? v) (<= (- (expt 2 63)) v u64-max))
                              (list 0 (int->slot v))]
                             [(real? v) (list 2 (double->slot (inexact v)))]
                             [(string? v) (let ([p (string->c rt who v)])
                                            (set! strings (cons p strings))
                                            (list 11 p))]
                             [(not v) (list 4 0)]
                             [else (%nccc-misuse who 'type "packed call: unsupported argument" v)]))
                          args)))])
      (let-values ([(status code value)
                    (guard (e (#t (for-each (lambda (p) (free rt who p)) strings) (raise e)))
                      (apply nccc-call f name (length args) pairs))])
        (for-each (lambda (p) (free rt who p)) strings)
        (unless (= status 0)
          (let-values ([(st message) (nccc-last-error rt)])
            (raise-nccc who status 'packed
                        (string-append "packed call " name " failed: " (or message "")) '())))
        (case code
          [(0) (slot->int (assv #\l int-specs) value)]
          [(1) value]
          [(2) (slot->double value)]
          [(4) (values)]
          [(11) (string-at rt value)]
          [else value]))))

  (define PACKED-FLAGS 3)   ; NCCC_PACKED_OVERRIDE | NCCC_PACKED_STATUS
  (define PACKED-FAILED #x0802)

  ;; Registers proc as the global packed function name with packed
  ;; signature psig (scalar codes and s): C calls it through the one
  ;; dispatcher. An error proc raises fails the packed call (its message
  ;; becomes the last error). Registered for good.
  (define (nccc-register-packed rt name psig proc)
    (define who 'nccc-register-packed)
    (check-rt who rt)
    (unless (string? name) (misuse who "not a string" name))
    (unless (procedure? proc) (misuse who "not a procedure" proc))
    (unless (string? psig) (misuse who "not a signature" psig))
    (let* ([conv (converter rt who psig 1 1)]
           [set-error (nccc-lookup rt "tvm.set_last_error")]
           [w (new-word!)]
           [on-error
            (lambda (e out)
              (view-u64-set! out 0 PACKED-FAILED)
              (guard (e2 (#t #f))
                (nccc-call set-error (if (and (condition? e) (message-condition? e))
                                         (condition-message e)
                                         "a host packed function failed")))
              ;; after the call above, which would raise it
              (note-pending! e))])
      (vector-set! entries w
                   (make-entry proc (lambda (proc in out) (conv proc in out) (view-u64-set! out 0 0))
                               on-error #f))
      (let ([status (nccc-call (nccc-lookup rt "tvm.register_env")
                               name (runtime-dispatcher rt) w psig PACKED-FLAGS)])
        (unless (= status 0)
          (vector-set! entries w #f)
          (runtime-fail rt who status)))
      (if #f #f)))

  (define (nccc-closure-stats rt)
    (check-rt 'nccc-closure-stats rt)
    (let ([out (builtin rt 'nccc-closure-stats B-STATS 3)])
      (values (slot-ref out 1) (slot-ref out 2) (slot-ref out 3)))))
