#!r6rs
;;; nccc/private/calls.sls — (nccc private calls): loading a runtime,
;;; functions by name or address, calls with every argument converted by
;;; its code, the function listing, owned objects and packed functions.
(library (nccc private calls)
  (export nccc-load nccc-lookup nccc-function-at nccc-function? nccc-function-name
          nccc-function-signature nccc-function-address nccc-function-handle fn-rt
          nccc-call nccc-call* nccc-procedure call nccc-functions release-refused
          nccc-own guard-owned! nccc-owned-live? nccc-close nccc-collect!
          nccc-packed-call nccc-register-packed)
  (import (rnrs) (nccc abi) (nccc compat) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private registry) (nccc private callbacks))

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

  ;; ---- functions -----------------------------------------------------------------

  (define-record-type (fn make-fn nccc-function?)
    (fields rt (immutable name nccc-function-name)
            (immutable signature nccc-function-signature)
            (immutable address nccc-function-address)
            (immutable handle nccc-function-handle)
            in-items out-items n-in n-out))

  ;; A side's slot count in the registry: the fixed slots, and
  ;; abi-slots-variable set when the side ends in '*'.
  (define (count-agrees? registry parsed items)
    (and (= parsed (bitwise-and registry (- abi-slots-variable 1)))
         (eq? (items-rest? items) (not (= 0 (bitwise-and registry abi-slots-variable))))))

  (define (make-function rt who name address handle signature m n-in n-out)
    (let-values ([(in out) (parse-signature who signature)])
      (let* ([in (resolve-items rt who in m)] [out (resolve-items rt who out m)]
             [n-in* (items-slots in)] [n-out* (items-slots out)])
        ;; the registry's counts must agree with the parsed signature
        (when n-in
          (unless (and (count-agrees? n-in n-in* in) (count-agrees? n-out n-out* out))
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
                     (handle-module handle) (slot-ref out 4) (slot-ref out 5))))

  ;; An nccc_fn at a raw address (another symbol of a library, a function
  ;; pointer a C function returned) with the signature the caller states.
  (define (nccc-function-at rt address signature . name)
    (check-rt 'nccc-function-at rt)
    (unless (and (exact-int? address) (< 0 address two^64))
      (misuse 'nccc-function-at "not a function address" address))
    (unless (string? signature) (misuse 'nccc-function-at "not a signature" signature))
    (make-function rt 'nccc-function-at (if (null? name) "<address>" (car name))
                   address 0 signature #f #f #f))

  (define (nccc-call f . args)
    (unless (nccc-function? f) (misuse 'nccc-call "not an nccc function" f))
    (if (refusable? f) (refusal-checked f args) (call f #f args)))

  ;; What C's wrapper refuses itself (abi-refusal-kinds): a call through
  ;; nccc-call, which no generated module checks first, of a function with
  ;; an argument of such a kind is checked for C's refusal (CALLBACKS.md,
  ;; "Refused calls"). The built-ins and packed calls give a status.
  (define (refusable? f)
    (let* ([name (nccc-function-name f)]
           [dot (let loop ([k 0])
                  (cond [(= k (string-length name)) k]
                        [(char=? (string-ref name k) #\.) k]
                        [else (loop (+ k 1))]))]
           [module (substring name 0 dot)])
      (and (not (member module (list abi-builtins-module abi-packed-module)))
           (exists (lambda (item)
                     (and (char? item)
                          (memq (vector-ref (abi-code item) 2) abi-refusal-kinds)
                          #t))
                   (fn-in-items f)))))

  ;; The call, raising the error of a refusal by C's wrapper, which shows
  ;; only as the runtime's last error, cleared before the call.
  (define (refusal-checked f args)
    (let ([rt (fn-rt f)] [name (nccc-function-name f)])
      (builtin rt 'nccc-call B-CLEAR-ERROR 0)
      (call-with-values (lambda () (call f #f args))
        (lambda results
          (let-values ([(st message) (nccc-last-error rt)])
            (when (memv st (map status-value abi-refusal-statuses))
              (raise-nccc (string->symbol name) st
                          (cond [(= st (status-value 'err-null-pointer)) 'null]
                                [(= st (status-value 'err-stale-closure)) 'released]
                                [(= st (status-value 'err-pool-exhausted)) 'pool]
                                [else 'status])
                          (string-append "'" name "': " (or message "")) '()))
            (apply values results))))))

  ;; For a function whose out side ends in '*': n-extra more out slots,
  ;; returned raw after the other results.
  (define (nccc-call* f n-extra . args)
    (unless (and (exact-int? n-extra) (<= 0 n-extra 4096))
      (misuse 'nccc-call* "bad count of extra out slots" n-extra))
    (call f n-extra args))

  (define (nccc-procedure rt name)
    (let ([f (nccc-lookup rt name)])
      (lambda args (call f #f args))))

  ;; A call refused before C runs ends the closures C's wrapper would
  ;; have ended: the call-scope callbacks among its arguments (the wrapper
  ;; releases them when the call returns, and when it refuses the call
  ;; itself). Callbacks of other scopes stay.
  (define (release-refused args)
    (for-each (lambda (x)
                (when (and (nccc-callback? x) (eq? (callback-scope x) 'call))
                  (nccc-release x)))
              args))

  (define (call f n-extra args)
    (unless (nccc-function? f) (misuse 'nccc-call "not an nccc function" f))
    (let* ([who (string->symbol (nccc-function-name f))]
           [rt (fn-rt f)] [in-items (fn-in-items f)]
           [n-args (length args)]
           [n-fixed (length (remq 'rest in-items))])
      (unless (if (items-rest? in-items) (>= n-args n-fixed) (= n-args n-fixed))
        (release-refused args)
        (count-error who n-fixed (items-rest? in-items) n-args))
      ;; a C function may write any number of slots after a '*': only the
      ;; caller knows how many, so it must say
      (unless (eq? (items-rest? (fn-out-items f)) (and n-extra #t))
        (release-refused args)
        (misuse/kind who (if n-extra 'type 'count)
                      (if n-extra
                          "nccc-call* is for functions whose results end in '*'"
                          "results end in '*': call with nccc-call* and a slot count")))
      (check-rest-slots rt who f args n-fixed n-extra)
      (let* ([n-extra (or n-extra 0)]
             [in (make-slots (+ (fn-n-in f) (- n-args n-fixed)))]
             [out (make-slots (+ (fn-n-out f) n-extra))]
             ;; C strings to free, and the callbacks among the arguments
             [kept (filter nccc-callback? args)]
             [called #f]
             [cleanup
              (lambda ()
                (for-each (lambda (x) (unless (nccc-callback? x) (free rt who x))) kept)
                (unless called (release-refused kept)))])
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

  ;; A built-in whose '*' side one of its arguments sizes (the rest of
  ;; abi-builtins: argument arg holds n units, the side takes
  ;; ceil(n * mul / div) slots): fewer slots would let C read or write
  ;; past the buffer, so that is refused (kind count) before the call.
  (define (check-rest-slots rt who f args n-fixed n-extra)
    (let ([rest (and (or (items-rest? (fn-in-items f)) (items-rest? (fn-out-items f)))
                     (builtin-rest rt (nccc-function-address f)))])
      (when (and rest (> (length args) (vector-ref rest 0)))
        (let ([n (list-ref args (vector-ref rest 0))])
          (when (and (exact-int? n) (>= n 0))
            (let ([need (div (+ (* n (vector-ref rest 2)) (vector-ref rest 3) -1)
                             (vector-ref rest 3))]
                  [have (if (vector-ref rest 4) (or n-extra 0) (- (length args) n-fixed))])
              (when (< have need)
                (misuse/kind who 'count
                              (string-append "wrong number of '*' slots: "
                                             (number->string n) " " (vector-ref rest 1)
                                             "s need " (number->string need) ", got "
                                             (number->string have))))))))))

  ;; The rest of the built-in at address a, or #f.
  (define (builtin-rest rt a)
    (let ([b (runtime-builtins rt)])
      (let loop ([k 0])
        (cond [(= k (vector-length b)) #f]
              [(= a (vector-ref b k)) (vector-ref (vector-ref abi-builtins k) 5)]
              [else (loop (+ k 1))]))))

  ;; ---- registry listing ------------------------------------------------------------

  ;; The handle of function k of module m, and back (docs/ABI.md).
  (define (handle-of m k)
    (bitwise-ior abi-handle-module-marker
                 (bitwise-arithmetic-shift-left m abi-handle-module-shift)
                 abi-handle-function-marker k))
  (define (handle-module handle)
    (bitwise-and (bitwise-arithmetic-shift-right handle abi-handle-module-shift)
                 abi-handle-index-mask))

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

  ;; ---- owned pointers -------------------------------------------------------------

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
                  (let ([free (owned-free o)])
                    (if (procedure? free) (free a) (call free #f (list a))))
                  #t))))

  ;; free: the nccc function that frees it, or a procedure of its address
  (define (nccc-own rt address free . name)
    (check-rt 'nccc-own rt) (check-address 'nccc-own address)
    (unless (or (nccc-function? free) (procedure? free))
      (misuse 'nccc-own "not an nccc function" free))
    (guard-owned! (make-owned address free (if (pair? name) (car name) "owned"))))

  ;; o, an owned record, freed by the guardian once unreachable (what
  ;; it found before is freed first).
  (define (guard-owned! o)
    (poll-owned!)
    ((the-guardian) o)
    o)

  (define (nccc-owned-live? o)
    (unless (nccc-owned? o) (misuse 'nccc-owned-live? "not an owned object" o))
    (and (nccc-owned-address o) #t))

  ;; #t when this call freed it, #f when it was closed already. A C
  ;; object (nccc private cdata) that new or view returned closes its
  ;; state: new's frees the memory, a view of an address stops.
  (define (nccc-close o)
    (cond [(nccc-owned? o) (close-owned o)]
          [(and (nccc-cdata? o) (cdata-root? o)) (close-owned (cdata-state o))]
          [(nccc-cdata? o)
           (misuse/kind 'nccc-close 'type
                        "a view of a part of a C object: close the object it came from" o)]
          [else (misuse 'nccc-close "not an owned object" o)]))

  ;; A full collection, then the destructors of what it found.
  (define (nccc-collect!)
    (compat-collect)
    (poll-owned!))

  ;; ---- packed functions -------------------------------------------------------------

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
                              (list (type-code 'int) (int->slot v))]
                             [(real? v) (list (type-code 'float) (double->slot (inexact v)))]
                             [(string? v) (let ([p (string->c rt who v)])
                                            (set! strings (cons p strings))
                                            (list (type-code 'str) p))]
                             [(not v) (list (type-code 'null) 0)]
                             [else (misuse/kind who 'type "packed call: unsupported argument" v)]))
                          args)))])
      (let-values ([(status code value)
                    (guard (e (#t (for-each (lambda (p) (free rt who p)) strings) (raise e)))
                      (apply nccc-call f name (length args) pairs))])
        (for-each (lambda (p) (free rt who p)) strings)
        (unless (= status 0)
          (let-values ([(st message) (nccc-last-error rt)])
            (raise-nccc who status 'packed
                        (string-append "packed call " name " failed: " (or message "")) '())))
        (cond
          [(= code (type-code 'int)) (slot->int #\l value)]
          [(= code (type-code 'float)) (slot->double value)]
          [(= code (type-code 'null)) (values)]
          [(= code (type-code 'str)) (string-at rt value)]
          [else value]))))

  ;; TVM's type code and the registering flag called name (the ABI's).
  (define (type-code name) (cdr (assq name abi-packed-type-codes)))
  (define (packed-flag name) (cdr (assq name abi-packed-flags)))

  (define PACKED-FLAGS (bitwise-ior (packed-flag 'override) (packed-flag 'status)))
  (define PACKED-FAILED (status-value 'err-not-implemented))

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
      (entry-set! w (make-entry proc (lambda (proc in out) (conv proc in out) (view-u64-set! out 0 0))
                                on-error #f))
      (let ([status (nccc-call (nccc-lookup rt "tvm.register_env")
                               name (runtime-dispatcher rt) w psig PACKED-FLAGS)])
        (unless (= status 0)
          (entry-set! w #f)
          (runtime-fail rt who status)))
      (if #f #f))))
