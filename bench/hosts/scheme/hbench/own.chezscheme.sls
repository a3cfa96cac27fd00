;;; hbench/own.chezscheme.sls — Chez Scheme's own FFI for bench/hosts
;;; (bench.sps): the baseline the nccc calls are compared with.
(library (hbench own)
  (export own-name own-add-loop own-fold now-ns)
  (import (chezscheme))

  (define own-name "foreign-procedure / foreign-callable")

  ;; nccc-load has loaded the library: its symbols are in Chez's table.
  (define (own-add-loop path n)
    (let ([add (foreign-procedure "bench_add" (integer-64 integer-64) integer-64)])
      (let loop ([i 0] [acc 0])
        (if (= i n) acc (loop (+ i 1) (add acc i))))))

  (define (own-fold path n)
    (let ([fold (foreign-procedure "bench_fold" (integer-64 uptr uptr) integer-64)]
          [code (foreign-callable (lambda (acc i ctx) (+ acc i))
                                  (integer-64 integer-64 uptr) integer-64)])
      (lock-object code)
      (let ([r (fold n (foreign-callable-entry-point code) 0)])
        (unlock-object code)
        r)))

  (define (now-ns)
    (let ([t (current-time 'time-process)])
      (+ (* (time-second t) 1000000000) (time-nanosecond t)))))
