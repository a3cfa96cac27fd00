#!r6rs
;;; nccc/private/convert.sls — (nccc private convert): Scheme values to
;;; slots and back by signature code. Callbacks, owned objects and C
;;; objects are values an argument may be, so their records are here;
;;; making and releasing them is (nccc private callbacks), (nccc private
;;; calls) and (nccc private cdata).
(library (nccc private convert)
  (export make-callback nccc-callback? callback-rt nccc-callback-context callback-scope
          callback-held callback-held-set! callback-signatures nccc-callback-live? callback-slot
          owned make-owned nccc-owned? nccc-owned-address nccc-owned-address-set!
          owned-free owned-name
          make-cdata nccc-cdata? cdata-type cdata-address cdata-count cdata-state cdata-root?
          cdata-live-address pointer->slot scalar->slot
          encode check-int check-int-as decode encode-args decode-results nccc-peek nccc-poke)
  (import (rnrs) (nccc private values) (nccc private runtime))

  ;; signatures: each member's callback signature, as claimed
  (define-record-type (callback make-callback nccc-callback?)
    (fields rt (immutable context nccc-callback-context) scope
            (mutable held)     ; members whose release notice has not come
            signatures))

  (define (nccc-callback-live? cb)
    (unless (nccc-callback? cb) (misuse 'nccc-callback-live? "not a callback" cb))
    (> (callback-held cb) 0))

  (define (callback-slot who cb)
    (unless (nccc-callback-live? cb)
      (misuse who "the callback was released" (nccc-callback-context cb)))
    (nccc-callback-context cb))

  ;; address #f once closed; free: the destructor, an nccc function.
  (define-record-type (owned make-owned nccc-owned?)
    (fields (mutable address nccc-owned-address nccc-owned-address-set!) free name))

  ;; A C object (nccc private cdata): type, its class or, for an array
  ;; of scalars, their code; address; count, #f for one record, else the
  ;; elements of an array view; state, the owned record that says whether
  ;; the memory is live (address #f once freed), shared by every view
  ;; taken from the object; root?, #t for what new or view returned (what
  ;; nccc-close frees or stops).
  (define-record-type (cdata make-cdata nccc-cdata?)
    (fields type address count state root?))

  ;; The address of a C object that is not freed, else raises (kind
  ;; closed, "cd_big object was freed").
  (define (cdata-live-address who v what)
    (let ([state (cdata-state v)])
      (if (nccc-owned-address state)
          (cdata-address v)
          (misuse/kind who 'closed (string-append what (owned-name state) " object was freed")
                       v))))

  ;; One value for a one-slot item; strings are allocated and recorded
  ;; with (keep! address) so that the caller frees them.
  (define (encode rt who c v position keep!)
    (case c
      [(#\p #\F #\c) (pointer->slot who c v position)]
      [(#\s)
       (cond [(not v) 0]
             [(string? v) (let ([p (string->c rt who v)]) (keep! p) p)]
             [(bytevector? v) (let ([p (bytes->c rt who v v)]) (keep! p) p)]
             [else (misuse who (string-append (arg-text position) "expected a string or #f") v)])]
      [else (scalar->slot who c v position)]))

  ;; The words a message about arg begins with: arg itself (a string, such
  ;; as "field 'type' of cdata.cd_event: ") or an argument's position.
  (define (arg-text arg)
    (if (string? arg) arg (string-append "bad argument #" (number->string arg) ": ")))

  ;; The slot of v for a scalar code c (bool, int, float), checked.
  (define (scalar->slot who c v arg)
    (define (wrong what) (misuse who (string-append (arg-text arg) "expected " what) v))
    (case c
      [(#\?) (if (boolean? v) (if v 1 0) (wrong "a boolean"))]
      [(#\f) (cond [(not (real? v)) (wrong "a real number")]
                   [(float-fits? (inexact v)) (float->slot (inexact v))]
                   [else (misuse/kind who 'range (string-append (arg-text arg)
                                                                "value out of range for float")
                                      (inexact v))])]
      [(#\d) (if (real? v) (double->slot (inexact v)) (wrong "a real number"))]
      [else
       (cond [(not (exact-int? v)) (wrong "an exact integer")]
             [(code-holds? c v) (int->slot v)]
             [else (check-int-as who (arg-text arg) v c)])]))

  ;; The slot of a pointer value v for code c (p, F, or c: a closure
  ;; context, made from a callback, docs/CALLBACKS.md): #f for NULL, an
  ;; address, a callback (not for F), an owned object or a C object (their
  ;; addresses, refused once closed or freed); arg as for arg-text.
  (define (pointer->slot who c v arg)
    (cond [(not v) 0]
          [(and (nccc-callback? v) (not (char=? c #\F))) (callback-slot who v)]
          [(nccc-owned? v)
           (or (nccc-owned-address v)
               (misuse/kind who 'closed (string-append (arg-text arg) "the owned object is closed")
                            v))]
          [(nccc-cdata? v) (cdata-live-address who v (string-append (arg-text arg) "the "))]
          [(exact-int? v)
           (if (<= 0 v u64-max)
               v
               (misuse who (string-append (arg-text arg) "expected an address (0..2^64-1)") v))]
          [else (misuse who (string-append (arg-text arg)
                                           "expected " (if (char=? c #\F) "an address or #f"
                                                           "an address, a callback or #f"))
                        v)]))

  ;; v when it is an exact integer in the range of code c, else raises
  ;; (type, integral or range).
  (define (check-int who position v c) (check-int-as who (arg-text position) v c))

  ;; The same, its message after arg ("field 'type' of cdata.cd_event: ").
  (define (check-int-as who arg v c)
    (cond
     [(not (real? v))
      (misuse/kind who 'type (string-append arg "expected an exact integer, "
                                            (code-type-name c)) v)]
     [(not (and (integer? v) (exact? v)))
      (misuse/kind who 'integral (string-append arg "expected an exact integer, "
                                                (code-type-name c)) v)]
     [(code-holds? c v) v]
     [else (misuse/kind who 'range
                        (string-append arg "value " (number->string v) " out of range for "
                                       (code-type-name c) " ("
                                       (number->string (code-min c)) ".."
                                       (number->string (code-max c)) ")")
                        v)]))

  (define (decode rt c s)
    (case c
      [(#\?) (not (= s 0))]
      [(#\f #\d) (slot->double s)]
      [(#\p #\F #\c) s]
      [(#\s) (string-at rt s)]
      [else (slot->int c s)]))

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
            (misuse/kind who 'type (string-append "bad argument #" (number->string position)
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

  ;; A '*' slot: any integer in -2^63..2^64-1, a real number (as double
  ;; bits) or a boolean.
  (define (encode-raw who v position)
    (cond [(and (exact-int? v) (<= (code-min #\l) v u64-max)) (int->slot v)]
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

  ;; peek/poke take a one-character code ("i", "d", ...).
  (define (memory-code who code)
    (unless (and (string? code) (= 1 (string-length code))
                 (scalar-code? (string-ref code 0)))
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
      (if #f #f))))
