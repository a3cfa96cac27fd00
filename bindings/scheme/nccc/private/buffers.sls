#!r6rs
;;; nccc/private/buffers.sls — (nccc private buffers): bytevectors for
;;; the [bytes] arguments of a generated library's procedures
;;; (docs/SCHEME.md, "Generated modules"), both ways: copied into the
;;; module's memory (nccc private memory: this process's, or the
;;; device's for a module bound from one) for the call and back into the
;;; bytevector when it returns;
;;; one the library keeps ([kept=OWNER]) is copied into C memory that the
;;; owner argument, a C object made by new, holds until a later call
;;; keeps another in its place or the object is freed (nccc private
;;; cdata); on a device such a bytevector is refused.
(library (nccc private buffers)
  (export with-buffers map-args refusal?)
  (import (rnrs) (nccc private values) (nccc private cdata) (nccc private memory))

  ;; args with (convert a position) in place of each argument a for which
  ;; (takes? a position) holds, converted from the first.
  (define (map-args args takes? convert)
    (let loop ([as args] [i 1])
      (cond [(null? as) '()]
            [(takes? (car as) i) (let ([v (convert (car as) i)]) (cons v (loop (cdr as) (+ i 1))))]
            [else (cons (car as) (loop (cdr as) (+ i 1)))])))

  ;; A refusal raised before C ran (not a callback's error, nor the
  ;; wrapper's own full thunk pool).
  (define (refusal? e)
    (and (nccc-error? e) (not (memq (nccc-error-kind e) '(callback pool)))))

  ;; proc taking a bytevector for each [bytes] argument of row, (name
  ;; (position . owner-or-#f) ...) (nccc private records, bytes-row); who
  ;; names the procedure in errors. What a call keeps is held by its
  ;; owner unless the call is refused before C runs (then C never saw it).
  (define (with-buffers rt who row proc)
    (let ([places (cdr row)] [module (module-of who)] [mem #f])
      (lambda args
        (let ([copies '()] [kept '()])
          (define (convert a i)
            (let* ([owner (cdr (assv i places))]
                   [state (and owner (keeper who (list-ref args (- owner 1)) owner))]
                   [p (begin (unless mem (set! mem (module-memory rt who module)))
                             (when (and owner (memory-device? mem))
                               (misuse/kind who 'type
                                            (string-append "bad argument #" (number->string i)
                                                           ": the device keeps this pointer after the call: a bytevector cannot be kept there; pass device memory from "
                                                           module "_memory's alloc and write")
                                            a))
                             (memory-alloc mem (max 1 (bytevector-length a))))])
              (if state
                  (set! kept (cons (list state (cons who i) p) kept))
                  (set! copies (cons (cons a p) copies)))
              (when (> (bytevector-length a) 0) (memory-write mem p a))
              p))
          (define (end-kept! keep?)
            (for-each (lambda (k) (if keep? (apply keep! mem k) (memory-free mem (caddr k)))) kept)
            (set! kept '()))
          (dynamic-wind
            (lambda () #f)
            (lambda ()
              (guard (e [(refusal? e) (end-kept! #f) (raise e)])
                (call-with-values
                  (lambda ()
                    (apply proc (map-args args (lambda (a i) (and (bytevector? a) (assv i places)))
                                          convert)))
                  (lambda results
                    (for-each (lambda (c) (copy-back! mem (car c) (cdr c))) copies)
                    (apply values results)))))
            (lambda ()
              (end-kept! #t)
              (for-each (lambda (c) (memory-free mem (cdr c))) copies)
              (set! copies '())))))))

  ;; The module of who ('M.f).
  (define (module-of who)
    (let ([s (symbol->string who)])
      (let loop ([k 0])
        (cond [(= k (string-length s)) s]
              [(char=? (string-ref s k) #\.) (substring s 0 k)]
              [else (loop (+ k 1))]))))

  ;; What C wrote at p, copied into bv when it differs (an unchanged
  ;; input is never written, so an immutable bytevector may pass it).
  (define (copy-back! mem bv p)
    (let ([n (bytevector-length bv)])
      (when (> n 0)
        (let ([now (memory-read mem p n)])
          (unless (bytevector=? now bv) (bytevector-copy! now 0 bv 0 n)))))))
