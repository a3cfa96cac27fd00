;;; hbench/guards.scm — the error guards Guile offers, each around the
;;; body of a procedure->pointer callback that bench_fold calls, beside
;;; nccc's own callback (one 'forever closure through the dispatcher of
;;; (nccc private callbacks)). Run by bench/hosts/scheme/guards.scm; a
;;; module so that Guile compiles it (docs/BENCHMARKS.md, "Guile's
;;; error guards").
(define-module (hbench guards)
  #:use-module (system foreign)
  #:use-module (system foreign-library)
  #:use-module ((rnrs exceptions) #:select (guard))
  #:use-module (ice-9 control)
  #:use-module (nccc core)
  #:use-module ((nccc compat) #:select (compat-guarded))
  #:export (variants fold-with))

(define tag (make-prompt-tag "guard"))
(define (to-prompt e) (abort-to-prompt tag e))
(define kept #f)
(define (keep e) (set! kept e) 0)
(define (add acc i ctx) (+ acc i))

;; name -> the callback's body: a procedure of (acc i ctx)
(define variants
  `(("none" . ,(lambda (acc i ctx) (+ acc i)))
    ("call-with-prompt alone (catches nothing)"
     . ,(lambda (acc i ctx) (call-with-prompt tag (lambda () (+ acc i)) (lambda (k e) (keep e)))))
    ("R6RS guard" . ,(lambda (acc i ctx) (guard (e (#t (keep e))) (+ acc i))))
    ("with-exception-handler #:unwind? #t"
     . ,(lambda (acc i ctx) (with-exception-handler keep (lambda () (+ acc i)) #:unwind? #t)))
    ("call-with-prompt, with-exception-handler #:unwind? #f"
     . ,(lambda (acc i ctx)
          (call-with-prompt tag
            (lambda () (with-exception-handler to-prompt (lambda () (+ acc i))))
            (lambda (k e) (keep e)))))
    ("the adapter's compat-guarded"
     . ,(lambda (acc i ctx) (compat-guarded (e) (add acc i ctx) (keep e))))
    ("catch #t" . ,(lambda (acc i ctx) (catch #t (lambda () (+ acc i)) (lambda args (keep args)))))
    ("call/ec, with-exception-handler"
     . ,(lambda (acc i ctx)
          (call/ec (lambda (k) (with-exception-handler (lambda (e) (k (keep e)))
                                 (lambda () (+ acc i)))))))))

;; (fold-with lib name) -> a procedure of n running bench_fold(n, ...)
;; with the variant's callback, or nccc's ("nccc") 
(define (fold-with lib name)
  (if (string=? name "nccc")
      (let* ([rt (nccc-load lib)]
             [open (nccc-function-at rt (nccc-symbol rt "nccc_hbench_open") ":i")])
        (unless (eqv? 0 (nccc-call open)) (error "nccc_hbench_open failed"))
        (let ([fold (nccc-lookup rt "bench.fold")]
              [step (nccc-callback rt "ll:l" 'forever (lambda (acc i) (+ acc i)))])
          (lambda (n) (nccc-call fold n step))))
      (let ([fold (pointer->procedure int64 (foreign-library-pointer lib "bench_fold")
                                      (list int64 '* '*))]
            [step (procedure->pointer int64 (assoc-ref variants name) (list int64 int64 '*))])
        (lambda (n) (fold n step %null-pointer)))))
