#!r6rs
;;; nccc/private/buffers.sls — (nccc private buffers): bytevectors for
;;; the [bytes] arguments of a generated library's procedures
;;; (docs/SCHEME.md, "Generated modules"), both ways: copied into C
;;; memory for the call and back into the bytevector when it returns;
;;; one the library keeps ([kept=OWNER]) is copied into C memory that the
;;; owner argument, a C object made by new, holds until a later call
;;; keeps another in its place or the object is freed (nccc private
;;; cdata).
(library (nccc private buffers)
  (export with-buffers map-args refusal?)
  (import (rnrs) (nccc private values) (nccc private runtime) (nccc private cdata))

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
    (let ([places (cdr row)])
      (lambda args
        (let ([copies '()] [kept '()])
          (define (convert a i)
            (let* ([owner (cdr (assv i places))]
                   [state (and owner (keeper who (list-ref args (- owner 1)) owner))]
                   [p (nccc-alloc rt (max 1 (bytevector-length a)))])
              (if state
                  (set! kept (cons (list state (cons who i) p) kept))
                  (set! copies (cons (cons a p) copies)))
              (when (> (bytevector-length a) 0) (nccc-write rt p a))
              p))
          (define (end-kept! keep?)
            (for-each (lambda (k) (if keep? (apply keep! rt k) (nccc-free rt (caddr k)))) kept)
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
                    (for-each (lambda (c) (copy-back! rt (car c) (cdr c))) copies)
                    (apply values results)))))
            (lambda ()
              (end-kept! #t)
              (for-each (lambda (c) (nccc-free rt (cdr c))) copies)
              (set! copies '())))))))

  ;; What C wrote at p, copied into bv when it differs (an unchanged
  ;; input is never written, so an immutable bytevector may pass it).
  (define (copy-back! rt bv p)
    (let ([n (bytevector-length bv)])
      (when (> n 0)
        (let ([now (nccc-read rt p n)])
          (unless (bytevector=? now bv) (bytevector-copy! now 0 bv 0 n)))))))
