#lang racket/base
;;; hbench/own.mzscheme.sls — Racket's own FFI for bench/hosts
;;; (bench.sps): the baseline the nccc calls are compared with.
(require ffi/unsafe)
(provide own-name own-add-loop own-fold now-ns)

(define own-name "_fun (foreign call and callback)")

(define (own-add-loop path n)
  (let ([add (get-ffi-obj "bench_add" (ffi-lib path) (_fun _int64 _int64 -> _int64))])
    (let loop ([i 0] [acc 0])
      (if (= i n) acc (loop (+ i 1) (add acc i))))))

(define (own-fold path n)
  (let ([fold (get-ffi-obj "bench_fold" (ffi-lib path)
                           (_fun _int64 (_fun _int64 _int64 _pointer -> _int64)
                                 _pointer -> _int64))])
    (fold n (lambda (acc i ctx) (+ acc i)) #f)))

(define (now-ns)
  (inexact->exact (round (* (current-process-milliseconds) 1000000))))
