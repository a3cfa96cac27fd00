#lang racket/base
;;; bench/hosts/scheme/guards.rkt — what an error guard costs a Racket
;;; callback (docs/BENCHMARKS.md, "Hosts"): bench_fold calls back a
;;; `_fun` callback N times, its body inside each guard form Racket
;;; offers (VARIANT none, guard, with-handlers or call/ec). A benchmark,
;;; not a test.
;;;   racket bench/hosts/scheme/guards.rkt LIB VARIANT N
;;;     one untimed run, the sum checked
;;;   racket bench/hosts/scheme/guards.rkt --instructions LIB
;;;     every variant under callgrind for N 20,000 and 220,000:
;;;     instructions per callback, (Ir(N2) - Ir(N1)) / (N2 - N1)
;;; LIB: a build's bench/hosts/libnccc_hbench.so (target nccc_hbench).
;;; Run a copy compiled by raco make (it writes compiled/ beside the
;;; source): start-up under callgrind stays short.
(require ffi/unsafe racket/runtime-path racket/system racket/port
         (only-in rnrs/exceptions-6 guard))

(define-runtime-path self "guards.rkt")
(define variants '("none" "guard" "with-handlers" "call/ec"))

;; the callback's body (+ acc i) inside the variant's guard; a caught
;; error would give 0
(define (step-of variant)
  (cond
    [(equal? variant "none") (lambda (acc i ctx) (+ acc i))]
    [(equal? variant "guard") (lambda (acc i ctx) (guard (e (#t 0)) (+ acc i)))]
    [(equal? variant "with-handlers")
     (lambda (acc i ctx) (with-handlers ([(lambda (e) #t) (lambda (e) 0)]) (+ acc i)))]
    [(equal? variant "call/ec")
     (lambda (acc i ctx)
       (call/ec (lambda (k)
                  (call-with-exception-handler (lambda (e) (k 0)) (lambda () (+ acc i))))))]
    [else (error 'guards "variant: none, guard, with-handlers or call/ec, not ~a" variant)]))

(define (fold-once lib variant n)
  (let* ([fold (get-ffi-obj "bench_fold" (ffi-lib lib)
                            (_fun _int64 (_fun _int64 _int64 _pointer -> _int64)
                                  _pointer -> _int64))]
         [r (fold n (step-of variant) #f)])
    (unless (= r (quotient (* n (- n 1)) 2)) (error 'guards "~a: wrong sum ~a" variant r))))

;; instructions of one run of this program (callgrind's "Collected")
(define (collected lib variant n)
  (let* ([err (open-output-string)]
         [ok (parameterize ([current-error-port err] [current-output-port (open-output-nowhere)])
               (system* (find-executable-path "valgrind") "--tool=callgrind"
                        "--callgrind-out-file=/dev/null" (find-system-path 'exec-file)
                        self lib variant (number->string n)))]
         [m (regexp-match #rx"Collected : *([0-9]+)" (get-output-string err))])
    (unless (and ok m) (error 'guards "~a: callgrind failed\n~a" variant (get-output-string err)))
    (string->number (cadr m))))

(define (instructions lib)
  (for ([v variants])
    (let ([a (collected lib v 20000)] [b (collected lib v 220000)])
      (printf "~a ~a\n" v (/ (round (* 10 (/ (- b a) 200000))) 10.0)))))

(let ([args (current-command-line-arguments)])
  (if (equal? (vector-ref args 0) "--instructions")
      (instructions (vector-ref args 1))
      (fold-once (vector-ref args 0) (vector-ref args 1) (string->number (vector-ref args 2)))))
