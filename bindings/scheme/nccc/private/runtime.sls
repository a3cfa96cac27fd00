#!r6rs
;;; nccc/private/runtime.sls — (nccc private runtime): a loaded runtime
;;; and its built-ins (docs/ABI.md), called by index through the adapter's
;;; primitive; C strings and memory on top of them.
(library (nccc private runtime)
  (export make-runtime nccc-runtime? runtime-lib runtime-builtins
          runtime-layouts runtime-layouts-set! runtime-constants runtime-constants-set!
          runtime-dispatcher runtime-dispatcher-set!
          nccc-runtime-path nccc-symbol nccc-version nccc-last-error nccc-primitive-call
          builtin-names builtin-address builtin/status builtin builtin-raw runtime-fail
          B-LAST-ERROR B-LOOKUP B-FUNCTION B-REGISTER B-MODULE-COUNT B-MODULE-INFO
          B-MODULE-FIND B-MODULE-TYPE B-MODULE-FIELD B-MODULE-CONSTANT B-PEEK B-POKE
          B-READ B-WRITE B-CLAIM-GROUP-TYPED B-RELEASE B-STATS B-CLEAR-ERROR
          NCCC-ERR-NAME-NOT-FOUND
          string-at bytes->string read-bytes string->c bytes->c with-c-string free check-rt check-address
          nccc-alloc nccc-free nccc-read nccc-write nccc-string-at nccc-string->c)
  (import (rnrs) (nccc abi) (nccc compat) (nccc private values))

  (define-record-type (runtime make-runtime nccc-runtime?)
    (fields lib path root builtins
            (mutable layouts)    ; module index -> (name . vector of layouts)
            (mutable constants)  ; module index -> (name . vector of #(name value))
            (mutable dispatcher)))

  (define (nccc-runtime-path rt) (runtime-path rt))

  ;; Built-in indices (docs/ABI.md; fixed forever), by name from
  ;; (nccc abi).
  (define (builtin-index name) (abi-builtin-index (symbol->string name)))
  (define B-VERSION (builtin-index 'version))
  (define B-LAST-ERROR (builtin-index 'last_error))
  (define B-LOOKUP (builtin-index 'lookup))
  (define B-FUNCTION (builtin-index 'function))
  (define B-REGISTER (builtin-index 'register))
  (define B-MODULE-COUNT (builtin-index 'module_count))
  (define B-MODULE-INFO (builtin-index 'module_info))
  (define B-MODULE-FIND (builtin-index 'module_find))
  (define B-MODULE-TYPE (builtin-index 'module_type))
  (define B-MODULE-FIELD (builtin-index 'module_field))
  (define B-MODULE-CONSTANT (builtin-index 'module_constant))
  (define B-ALLOC (builtin-index 'alloc))
  (define B-FREE (builtin-index 'free))
  (define B-PEEK (builtin-index 'peek))
  (define B-POKE (builtin-index 'poke))
  (define B-READ (builtin-index 'read))
  (define B-WRITE (builtin-index 'write))
  (define B-STRLEN (builtin-index 'strlen))
  (define B-CLAIM-GROUP-TYPED (builtin-index 'closure_claim_group_typed))
  (define B-RELEASE (builtin-index 'closure_release))
  (define B-STATS (builtin-index 'closure_stats))
  (define B-CLEAR-ERROR (builtin-index 'clear_error))

  ;; The names of every built-in, in index order.
  (define builtin-names (vector-map (lambda (b) (vector-ref b 1)) abi-builtins))

  (define NCCC-ERR-NAME-NOT-FOUND (status-value 'err-name-not-found))

  (define (builtin-address rt index) (vector-ref (runtime-builtins rt) index))

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
      (compat-call (builtin-address rt index) in out)
      (values (slot-ref out 0) out)))

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

  (define (check-rt who rt)
    (unless (nccc-runtime? rt) (misuse who "not an nccc runtime" rt)))
  (define (check-address who p)
    (unless (and (exact-int? p) (<= 0 p u64-max)) (misuse who "not an address" p)))

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
      (values (slot->int #\i (slot-ref out 1)) (string-at rt (slot-ref out 2)))))

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
          ;; no overlong form: at least the least code point len bytes need
          (and (>= cp (case len [(1) 0] [(2) 128] [(3) 2048] [else 65536]))
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
  (define (string->c rt who s) (bytes->c rt who (string->utf8 s) s))

  ;; The same of bytes (what holds them: s), which hold no NUL.
  (define (bytes->c rt who bytes s)
    (let ([n (bytevector-length bytes)])
      (let scan ([k 0])
        (when (< k n)
          (when (= 0 (bytevector-u8-ref bytes k))
            (misuse who (if (string? s) "string holds a NUL character" "bytes hold a NUL byte") s))
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
    (string->c rt 'nccc-string->c s)))
