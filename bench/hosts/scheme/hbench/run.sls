#!r6rs
;;; hbench/run.sls — the body of bench/hosts/scheme/bench.sps, a library
;;; so that Guile runs it compiled (run.sh compiles it with guild; Chez and
;;; Racket compile what they load anyway). (run path n) prints
;;; "variant ns_per_call" lines; each variant runs n iterations three
;;; times and the best counts. (count path variant n), for count.sps, runs
;;; one variant of the generated library once, untimed.
(library (hbench run)
  (export run count)
  (import (rnrs) (nccc core) (only (nccc private args) bind-call)
          (only (nccc compat) slot-s64-set! slot-s64-ref)
          (hbench own) (prefix (nccc bench) bench:))

  (define (best name n expect thunk)
    (let loop ([k 0] [t #f])
      (if (= k 3)
          (begin (display name) (display " ")
                 (display (/ (round (/ (* 100 t) n)) 100.0)) (newline))
          (let* ([t0 (now-ns)] [r (thunk)] [dt (- (now-ns) t0)])
            ;; every variant computes the same sum: one that skipped its calls shows
            (unless (eqv? r expect) (error 'bench "wrong result" name r))
            (loop (+ k 1) (if (and t (< t dt)) t dt))))))

  ;; the primitive by hand: fill in, call the wrapper, read out[0]
  (define (primitive-loop addr n)
    (let ([in (make-bytevector 16 0)] [out (make-bytevector 8 0)])
      (let loop ([i 0] [acc 0])
        (if (= i n)
            acc
            (begin
              (bytevector-s64-native-set! in 0 acc)
              (bytevector-s64-native-set! in 8 i)
              (nccc-primitive-call addr in out)
              (loop (+ i 1) (bytevector-s64-native-ref out 0)))))))

  ;; the support library, as generated code calls it: a function looked up once
  (define (lib-loop add n)
    (let loop ([i 0] [acc 0])
      (if (= i n) acc (loop (+ i 1) (nccc-call add acc i)))))

  ;; a hand-written nccc call, what a person would write with the
  ;; adapter: the primitive bound once to two kept buffers, raw slot
  ;; stores and load, no checks; called like the generated procedure
  (define (hand-add f)
    (let-values ([(call in out) (bind-call f 2 1)])
      (lambda (a b)
        (slot-s64-set! in 0 a)
        (slot-s64-set! in 8 b)
        (call)
        (slot-s64-ref out 0))))

  (define (proc-loop add n)
    (let loop ([i 0] [acc 0])
      (if (= i n) acc (loop (+ i 1) (add acc i)))))

  (define (run path n)
    (let* ([expect (div (* n (- n 1)) 2)]
           [rt (nccc-load path)]
           [open (nccc-function-at rt (nccc-symbol rt "nccc_hbench_open") ":i")])
      (unless (eqv? 0 (nccc-call open)) (error 'bench "nccc_hbench_open failed"))
      (let ([add (nccc-lookup rt "bench.add")]
            [fold (nccc-lookup rt "bench.fold")])
        (best "add.own" n expect (lambda () (own-add-loop path n)))
        (best "add.primitive" n expect
              (lambda () (primitive-loop (nccc-function-address add) n)))
        (best "add.lib" n expect (lambda () (lib-loop add n)))
        (let ([p (nccc-procedure rt "bench.add")])
          (best "add.lib_proc" n expect (lambda () (proc-loop p n))))
        (best "add.hand" n expect (lambda () (proc-loop (hand-add add) n)))
        ;; the generated library (nccc bench) from bench/bench.idl
        (bench:bench-bind! rt)
        (best "add.generated" n expect (lambda () (proc-loop bench:add n)))
        ;; callbacks: the host's own mechanism, then nccc's backward wrapper
        ;; and the process's one dispatcher (a 'forever closure made once)
        (best "cb.own" n expect (lambda () (own-fold path n)))
        (let ([step (nccc-callback rt "ll:l" 'forever (lambda (acc i) (+ acc i)))])
          (best "cb.nccc" n expect (lambda () (nccc-call fold n step)))
          (best "cb.generated" n expect (lambda () (bench:fold n step)))
          (nccc-release step)))))

  ;; n calls of the generated add or mix6 (variant "add" or "mix6"), or n
  ;; callbacks of one fold with a 'forever closure of step_fn
  ;; ("callback"), or the same through the host's own FFI ("add.own",
  ;; "callback.own"), or n calls of the hand-written add ("add.hand");
  ;; raises unless the result is the one they compute
  (define (count path variant n)
    (let ([rt (nccc-load path)] [expect (div (* n (- n 1)) 2)])
      (unless (eqv? 0 (nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_hbench_open") ":i")))
        (error 'count "nccc_hbench_open failed"))
      (bench:bench-bind! rt)
      (let ([r (cond
                [(string=? variant "add") (proc-loop bench:add n)]
                [(string=? variant "mix6")
                 (let loop ([i 0] [acc 0.0])
                   (if (= i n) (exact (round acc)) (loop (+ i 1) (+ acc (bench:mix6 i 0.0 0 0.0 0 0.0)))))]
                [(string=? variant "callback")
                 (let* ([step (bench:bench-callback "step_fn" 'forever (lambda (acc i) (+ acc i)))]
                        [r (bench:fold n step)])
                   (nccc-release step)
                   r)]
                [(string=? variant "add.own") (own-add-loop path n)]
                [(string=? variant "callback.own") (own-fold path n)]
                [(string=? variant "add.hand")
                 (proc-loop (hand-add (nccc-lookup rt "bench.add")) n)]
                [else (error 'count "variant: add, mix6, callback, add.own, callback.own or add.hand"
                             variant)])])
        (unless (eqv? r expect) (error 'count "wrong result" variant r))))))
