#lang racket/base
;;; check_racket_pkg.rkt ADDONDIR VERSION FIXTURE — the Racket package's
;;; test (racket.sh): the package nccc is installed in the user scope of
;;; ADDONDIR at VERSION; nccc/core from it loads FIXTURE (the host test
;;; fixture), calls tour.add and hcb.fold with a callback by name.
;;; Prints "racket: nccc VERSION from the package, add 42, fold 6".
(require racket/string pkg/lib setup/getinfo nccc/core)

(define-values (addon version fixture)
  (apply values (vector->list (current-command-line-arguments))))
(define dir (path->string (simplify-path (pkg-directory "nccc"))))
(unless (string-prefix? dir addon)
  (error 'check "the package nccc is in ~a, not under ~a" dir addon))
(define installed ((get-info/full dir) 'version))
(unless (equal? installed version)
  (error 'check "the package nccc is version ~a, not ~a" installed version))

(define rt (nccc-load fixture))
(define open (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI"))
(call-with-values (lambda () (nccc-call open)) void)   ; adds tour and hcb
(define sum (nccc-call (nccc-lookup rt "tour.add") 40 2))
(define folded
  (nccc-call (nccc-lookup rt "hcb.fold") 4
             (nccc-callback rt "ii:i" 'call (lambda (acc i) (+ acc i)))))
(printf "racket: nccc ~a from the package, add ~a, fold ~a\n" installed sum folded)
(exit (if (and (eqv? sum 42) (eqv? folded 6)) 0 1))
