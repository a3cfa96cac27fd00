#!r6rs
;;; nccc/private/callbacks.sls — (nccc private callbacks): Scheme
;;; procedures C can call. One dispatcher per process (the adapter's),
;;; registered with every runtime; closures claimed from the runtime whose
;;; environment word names an entry here; a converter per signature; the
;;; error a procedure raised, kept until the forward call returns.
(library (nccc private callbacks)
  (export register-dispatcher first-runtime new-word! entry-set! make-entry converter
          note-pending! take-pending! pending raise-pending
          nccc-callback nccc-callback-group nccc-release nccc-callbacks-held
          nccc-closure-stats)
  (import (rnrs) (nccc abi) (nccc compat) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private registry))

  ;; Process-wide, like the dispatcher: the entries by environment word (a
  ;; vector indexed by the word; words come back after their release
  ;; notice), the runtime, and what a procedure raised inside C, raised
  ;; again when the forward call returns: pending is #(condition
  ;; count), read by generated code after every call.
  (define entries (make-vector 64 #f))
  (define free-words '())
  (define next-env 1)
  (define n-held 0)
  (define dispatch-rt #f)
  (define pending (vector #f 0))

  ;; The runtime the first nccc-load made: generated code converts its
  ;; values with it (every runtime's built-ins read the same memory).
  (define (first-runtime) dispatch-rt)

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
    (let ([e (vector-ref pending 0)] [more (vector-ref pending 1)])
      (vector-set! pending 0 #f)
      (vector-set! pending 1 0)
      (and e (callback-condition e more))))
  (define (raise-pending) (raise (take-pending!)))

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
    (if (vector-ref pending 0)
        (vector-set! pending 1 (+ 1 (vector-ref pending 1)))
        (vector-set! pending 0 e)))

  ;; proc, its converter (conv proc in-view out-view) and on-error (what
  ;; to do with an error: keep it pending, or fail a packed call).
  (define-record-type entry (fields proc conv on-error callback))

  (define (entry-set! word entry) (vector-set! entries word entry))

  (define (nccc-callbacks-held) n-held)

  (define (register-dispatcher rt)
    (let ([d (compat-dispatcher dispatch)])
      (unless dispatch-rt (set! dispatch-rt rt))
      (runtime-dispatcher-set! rt d)
      ;; visible to other code and tools under one name (docs/CALLBACKS.md)
      (with-c-string rt 'nccc-load "scheme.dispatch"
        (lambda (name)
          (with-c-string rt 'nccc-load abi-closure-target-signature
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
        ;; the adapter's cheapest guard (compat-guarded)
        (compat-guarded (e) ((entry-conv entry) (entry-proc entry) in out)
          ((entry-on-error entry) e out))])))

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
      (case (code-kind item)
        [(float) (lambda (in) (view-f64-ref in offset))]
        [(bool) (lambda (in) (not (= 0 (view-u64-ref in offset))))]
        [(string) (lambda (in) (string-at rt (view-u64-ref in offset)))]
        [else (if (code-signed? item)
                  (lambda (in) (view-s64-ref in offset))
                  (lambda (in) (view-u64-ref in offset)))])]))

  ;; -> (lambda (out value) ...), raising "bad result #k" for a wrong value
  (define (writer rt item offset position)
    (define who 'callback)
    (define (check v)
      (guard (e [(nccc-error? e)
                 (misuse/kind who (nccc-error-kind e)
                               (string-append "bad result #" (number->string position) ": "
                                              (condition-message e))
                               v)])
        (encode rt who item v position (lambda (p) #f))))
    (cond
     [(sref? item)
      (let ([n (sref-slots item)] [size (sref-size item)])
        (lambda (out v)
          (unless (and (bytevector? v) (= (bytevector-length v) size))
            (misuse/kind who 'type (string-append "bad result #" (number->string position)
                                                   ": expected a bytevector of "
                                                   (number->string size) " bytes")
                          v))
          (let ([b (make-bytevector (* 8 n) 0)])
            (bytevector-copy! v 0 b 0 size)
            (do ([k 0 (+ k 1)]) ((= k n))
              (view-u64-set! out (+ offset (* 8 k)) (slot-u64-ref b (* 8 k)))))))]
     [(and (eq? (code-kind item) 'int) (code-signed? item))
      ;; compared first with the fixnum bounds inside the code's range:
      ;; with a 64-bit code's bignum bounds alone, about 500 instructions
      ;; on Guile
      (let* ([lo (code-min item)] [hi (code-max item)]
             [fixnum-lo (max lo (least-fixnum))] [fixnum-hi (min hi (greatest-fixnum))])
        (lambda (out v)
          (if (and (integer? v) (exact? v)
                   (or (and (<= fixnum-lo v) (<= v fixnum-hi)) (<= lo v hi)))
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
        (misuse/kind 'callback 'callback
                      (string-append "bad result count: the procedure returned "
                                     (number->string (length vs)) " values, expected "
                                     (number->string n-out))))
      (case n-out
        [(0) (lambda (proc in out) (call-with-values (lambda () (call proc in)) (lambda vs #f)))]
        [(1) (let ([w0 (car ws)])
               (lambda (proc in out)
                 (call-with-values (lambda () (call proc in))
                   (lambda vs
                     (if (and (pair? vs) (null? (cdr vs))) (w0 out (car vs)) (wrong-count vs))))))]
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
              (misuse/kind 'callback 'type (string-append "bad result #" (number->string position)
                                                          ": expected a bytevector")
                            v))
            (bytevector-copy! v 0 bv offset (sref-size item)))
          (slot-u64-set! bv offset
                         (guard (e [(nccc-error? e)
                                    (misuse/kind 'callback (nccc-error-kind e)
                                                  (string-append "bad result #"
                                                                 (number->string position) ": "
                                                                 (condition-message e))
                                                  v)])
                           (encode rt 'callback item v position (lambda (p) #f)))))))

  (define (keep-pending e out) (note-pending! e))


  ;; The signatures of signature-procedure pairs.
  (define (signatures-of members)
    (if (null? members) '() (cons (car members) (signatures-of (cddr members)))))

  ;; Claims a typed group (one member or more) on dispatcher d: the
  ;; runtime records each member's type from its signature, copied into C
  ;; memory for the claim.
  (define (claim-typed rt who flags final d words sigs)
    (let ([cs (map (lambda (s) (string->c rt who s)) sigs)])
      (let-values ([(st out)
                    (builtin/status rt B-CLAIM-GROUP-TYPED
                                    (apply slots flags final (length words)
                                           (apply append (map (lambda (w c) (list d w c))
                                                              words cs)))
                                    1)])
        (for-each (lambda (c) (free rt who c)) cs)
        (values st out))))

  (define (nccc-callback rt signature scope proc)
    (nccc-callback-group rt scope 0 signature proc))

  ;; Members share one context: signature and procedure per member, in the
  ;; order of the C function's callbacks; final is the member whose call
  ;; ends an async group.
  (define (nccc-callback-group rt scope final . members)
    (define who 'nccc-callback)
    (check-rt who rt)
    (unless (assq scope abi-scopes)
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
             ;; notices, and calls only on the claiming thread: no Scheme
             ;; here runs on a thread it did not start (docs/SCHEME.md)
             [flags (+ (cdr (assq scope abi-scopes)) abi-closure-notify abi-closure-thread)]
             [d (runtime-dispatcher rt)]
             [words (map (lambda (m) (new-word!)) parsed)])
        (let-values ([(st out) (claim-typed rt who flags final d words (signatures-of members))])
          (unless (= st 0)
            (set! free-words (append words free-words))
            (runtime-fail rt who st))
          ;; nothing calls the target before the claim returns
          (let ([cb (make-callback rt (slot-ref out 1) scope n (signatures-of members))])
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

  ;; capacity, in use, stale calls, type mismatches, wrong-thread calls
  (define (nccc-closure-stats rt)
    (check-rt 'nccc-closure-stats rt)
    (let ([out (builtin rt 'nccc-closure-stats B-STATS 5)])
      (values (slot-ref out 1) (slot-ref out 2) (slot-ref out 3) (slot-ref out 4)
              (slot-ref out 5)))))
