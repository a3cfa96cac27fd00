#!r6rs
;;; bytes_cases.sps FIXTURE — byte buffers and closure scopes through the
;;; generated library (nccc hcb) (docs/SCHEME.md, "Generated libraries"),
;;; by Guile 3, Chez Scheme and Racket alike (test/scheme/CMakeLists.txt,
;;; label cdata): a bytevector for a [bytes] argument, a [bytes]
;;; callback argument as a bytevector, a buffer a
;;; callback fills copied back from its bytevector, a call-scope callback
;;; refused where the scope is another. Prints "N passed, M failed";
;;; exits 1 on a failure.
(import (rnrs) (nccc core) (prefix (nccc hcb) hcb:))

(define rt (nccc-load (cadr (command-line))))
(nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_fixture_open") ":iI"))
(hcb:hcb-bind! rt)

(define passed 0)
(define failed 0)
(define (check name ok)
  (if ok
      (set! passed (+ passed 1))
      (begin (set! failed (+ failed 1))
             (display (string-append "FAIL " name "\n")))))
(define (in-use)
  (let-values ([(capacity used stale mismatched wrong-thread) (nccc-closure-stats rt)]) used))

;; a bytevector passes as a [bytes] argument (a copy for the call)
(check "bytes in: a bytevector" (= (hcb:byte_sum (u8-list->bytevector '(1 2 255)) 3) 258))
(check "bytes in: empty" (= (hcb:byte_sum (make-bytevector 0) 0) 0))
(let ([p (nccc-alloc rt 2)])
  (nccc-write rt p (u8-list->bytevector '(16 32)))
  (check "bytes in: an address as before" (= (hcb:byte_sum p 2) 48))
  (nccc-free rt p))

;; a callback fills the buffer it is given: what it writes into the
;; bytevector reaches C; the buffer arrives as a bytevector of its size
(let* ([source (string->utf8 "hello, bytes!")] [at 0] [sizes '()]
       [dest (nccc-alloc rt 32)]
       [reader (hcb:hcb-callback "fill_fn" 'call
                 (lambda (buffer size)
                   (set! sizes (cons (list (bytevector? buffer) (bytevector-length buffer) size) sizes))
                   (let ([k (min size (- (bytevector-length source) at))])
                     (bytevector-copy! source at buffer 0 k)
                     (set! at (+ at k))
                     k)))]
       [n (hcb:fill_from reader dest 32)])
  (check "fill: C got every byte" (= n (bytevector-length source)))
  (check "fill: the bytes are the source's"
         (equal? (nccc-read rt dest (bytevector-length source)) source))
  (check "fill: a bytevector of the buffer's size" (equal? (car (reverse sizes)) '(#t 4 4)))
  (nccc-free rt dest))

;; a call-scope callback passed where the scope is forever is refused
;; before C, naming both scopes, and released; a forever one passes
(let* ([before (in-use)]
       [cb (hcb:hcb-callback "plain_fn" 'call (lambda (x) x))]
       [e (guard (e (#t e)) (hcb:keep cb) #f)])
  (check "scope: refused" (and (nccc-error? e) (eq? (nccc-error-kind e) 'scope)))
  (check "scope: both scopes named"
         (and e (message-condition? e)
              (equal? (condition-message e)
                      "bad argument #1: a callback of scope 'forever expected, got one of scope 'call")))
  (check "scope: released" (not (nccc-callback-live? cb)))
  (check "scope: nothing left in use" (= (in-use) before)))
(let* ([cb (hcb:hcb-callback "later_fn" 'call (lambda (v) #f))]
       [e (guard (e (#t e)) (hcb:later 1 cb) #f)])
  (check "scope: async refuses call" (and (nccc-error? e) (eq? (nccc-error-kind e) 'scope))))
(let ([cb (hcb:hcb-callback "handler_fn" 'forever (lambda (x) (* 10 x)))])
  (hcb:on_fire cb)
  (check "scope: the same scope passes" (= (hcb:fire 4) 40))
  (hcb:clear_fire)
  (nccc-release cb))

;; a procedure becomes a callback of the parameter's scope
(let ([before (in-use)])
  (hcb:on_fire (lambda (x) (* 10 x)))
  (check "procedure: forever kept" (= (in-use) (+ before 1)))
  (check "procedure: called" (= (hcb:fire 4) 40))
  (hcb:clear_fire)
  (let ([got '()])
    (hcb:later 5 (lambda (v) (set! got (cons v got))))
    (check "procedure: async claimed" (= (in-use) (+ before 2)))
    (check "procedure: async ran" (and (= (hcb:run_pending) 1) (equal? got '(5))))
    (check "procedure: async released" (= (in-use) (+ before 1))))
  (check "procedure: call" (= (hcb:fold 3 (lambda (acc i) (+ acc i))) 3))
  (check "procedure: call released" (= (in-use) (+ before 1))))

(display (string-append (number->string passed) " passed, "
                        (number->string failed) " failed\n"))
(exit (if (= failed 0) 0 1))
