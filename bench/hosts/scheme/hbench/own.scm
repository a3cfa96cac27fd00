;;; hbench/own.scm — Guile's own FFI for bench/hosts (bench.sps): the
;;; baseline the nccc calls are compared with. Guile finds this file as
;;; (hbench own) by its .scm extension, as it finds (nccc compat).
(define-module (hbench own)
  #:use-module (system foreign)
  #:use-module (system foreign-library)
  #:export (own-name own-add-loop own-fold now-ns))

(define own-name "pointer->procedure / procedure->pointer")

;; acc = bench_add(acc, i) for i below n, through pointer->procedure.
(define (own-add-loop path n)
  (let ((add (pointer->procedure int64 (foreign-library-pointer path "bench_add")
                                 (list int64 int64))))
    (let loop ((i 0) (acc 0))
      (if (= i n) acc (loop (+ i 1) (add acc i))))))

;; bench_fold(n, step, NULL) with step made by procedure->pointer.
(define (own-fold path n)
  (let ((fold (pointer->procedure int64 (foreign-library-pointer path "bench_fold")
                                  (list int64 '* '*)))
        (step (procedure->pointer int64 (lambda (acc i ctx) (+ acc i))
                                  (list int64 int64 '*))))
    (fold n step %null-pointer)))

;; Processor time in nanoseconds.
(define (now-ns)
  (quotient (* (get-internal-run-time) 1000000000) internal-time-units-per-second))
