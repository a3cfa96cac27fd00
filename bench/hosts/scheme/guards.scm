;;; bench/hosts/scheme/guards.scm — what an error guard costs a Guile
;;; callback (docs/BENCHMARKS.md, "Guile's error guards"): each guard
;;; form of (hbench guards) around a procedure->pointer callback, and
;;; nccc's callback, called back N times by bench_fold; per callback,
;;; processor time and bytes allocated ((gc-stats) after a warm-up of
;;; 1,000), or with --instructions the instructions under callgrind (a
;;; process making N callbacks less one making none). A benchmark, not
;;; a test.
;;;   guile -x .sls -L bindings/scheme -L bench/hosts/scheme \
;;;     bench/hosts/scheme/guards.scm [--instructions] LIB [N]
;;; LIB: a build's bench/hosts/libnccc_hbench.so (target nccc_hbench).
(use-modules (hbench guards) (ice-9 format) (ice-9 rdelim))

(define (measure fold n)
  (fold 1000)
  (gc)
  (let* ([a0 (assq-ref (gc-stats) 'heap-total-allocated)]
         [t0 (get-internal-run-time)]
         [r (fold n)]
         [t1 (get-internal-run-time)]
         [a1 (assq-ref (gc-stats) 'heap-total-allocated)])
    (unless (= r (quotient (* n (- n 1)) 2)) (error "wrong sum" r))
    (values (/ (* 1e9 (- t1 t0)) internal-time-units-per-second n) (/ (- a1 a0) 1.0 n))))

;; Instructions of this program running one variant n times (callgrind).
(define here (dirname (car (command-line))))
(define (instructions lib name n)
  (let* ([out (string-append (or (getenv "TMPDIR") "/tmp") "/nccc-guards-"
                             (number->string (getpid)) ".cg")]
         [status (system* "valgrind" "--tool=callgrind" "--log-file=/dev/null"
                          (string-append "--callgrind-out-file=" out)
                          "guile" "-x" ".sls" "-L" (string-append here "/../../../bindings/scheme")
                          "-L" here (car (command-line)) "--one" lib name (number->string n))])
    (unless (eqv? 0 (status:exit-val status)) (error "callgrind failed" name))
    (call-with-input-file out
      (lambda (p)
        (let loop ()
          (let ([line (read-line p)])
            (cond
             [(eof-object? line) (error "no callgrind summary" out)]
             [(string-prefix? "summary: " line)
              (delete-file out)
              (string->number (substring line 9))]
             [else (loop)])))))))

(define names (append (map car variants) '("nccc")))

(let ([args (cdr (command-line))])
  (cond
   [(equal? (car args) "--one")   ; a callgrind child
    ((fold-with (cadr args) (caddr args)) (string->number (cadddr args)))]
   [(equal? (car args) "--instructions")
    (let ([lib (cadr args)] [n (if (pair? (cddr args)) (string->number (caddr args)) 20000)])
      (for-each (lambda (name)
                  ((fold-with lib name) 10)   ; compiled before the counted runs
                  (format #t "~8,1f instructions  ~a~%"
                          (/ (- (instructions lib name n) (instructions lib name 0))
                             1.0 n)
                          name))
                names))]
   [else
    (let ([lib (car args)] [n (if (pair? (cdr args)) (string->number (cadr args)) 300000)])
      (for-each (lambda (name)
                  (call-with-values (lambda () (measure (fold-with lib name) n))
                    (lambda (ns bytes) (format #t "~8,1f ns ~6,1f bytes  ~a~%" ns bytes name))))
                names))]))
