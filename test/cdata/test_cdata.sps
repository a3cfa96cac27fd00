#!r6rs
;;; test_cdata.sps LIBRARY — C objects in Guile, Chez Scheme and Racket
;;; (docs/SCHEME.md, "C objects") over the cdata fixture (cdata.idl,
;;; cdata.c) as a shared library, through the generated (nccc cdata):
;;; new, fields by name through nested records, unions and arrays, the
;;; object passed as a T *, borrowed views, whole-record copies, the
;;; errors (an array's or a view's bounds, a wrong type, a freed object),
;;; and bytevectors for [bytes] arguments (C's writes copied back, a kept
;;; input held by its owner).
;;; ctest runs it as cdata_guile, cdata_chez and cdata_racket. Prints "N
;;; passed, M failed"; exits 1 on a failure.
(import (rnrs) (nccc core) (prefix (nccc cdata) cd:))

(define rt (nccc-load (cadr (command-line))))
(cd:cdata-bind! rt)

(define passed 0)
(define failed 0)
(define (check name thunk)
  (guard (e [#t (set! failed (+ failed 1))
                (display (string-append "FAIL " name ": "))
                (display (if (message-condition? e) (condition-message e) e))
                (when (irritants-condition? e) (display " ") (write (condition-irritants e)))
                (newline)])
    (thunk)
    (set! passed (+ passed 1))))
(define (fail what got want)
  (raise (condition (make-error) (make-message-condition what)
                    (make-irritants-condition (list 'got got 'want want)))))
(define (eq got want what) (unless (equal? got want) (fail what got want)))
;; (refuses kind word thunk): thunk raises an &nccc condition of kind
;; whose message holds word
(define (refuses kind word thunk)
  (let ([e (guard (e [#t e]) (thunk) #f)])
    (cond [(not e) (fail "no error" #f word)]
          [(not (nccc-error? e)) (raise e)]
          [(not (eq? (nccc-error-kind e) kind)) (fail (condition-message e) (nccc-error-kind e) kind)]
          [(not (contains? (condition-message e) word)) (fail "message" (condition-message e) word)])))
(define (contains? s part)
  (let ([n (string-length s)] [m (string-length part)])
    (let loop ([k 0])
      (and (<= (+ k m) n) (or (string=? (substring s k (+ k m)) part) (loop (+ k 1)))))))

(define event-size (nccc-layout-size (cd:cdata-layout "cd_event")))

(define (bytevector-head bv n)
  (let ([head (make-bytevector n)]) (bytevector-copy! bv 0 head 0 n) head))

;; the words cd_parser_next reads from parser's input, into ev
(define (words parser ev)
  (let loop ([acc '()])
    (if (= (cd:cd_parser_next parser ev) 1)
        (loop (cons (nccc-ref ev 'data 'scalar 'value) acc))
        (reverse acc))))

(check "new is zeroed and sized"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")])
      (eq event-size 64 "the layout's size")
      (eq (nccc-cdata-bytes ev) (make-bytevector 64 0) "zeroed bytes")
      (eq (nccc-ref ev 'type) 0 "type")
      (eq (nccc-cdata-length (nccc-ref ev 'stamps)) 3 "stamps' length")
      (eq (nccc-ref ev 'stamps 2) 0.0 "stamps 2")
      (eq (nccc-ref ev 'data 'scalar 'value) #f "a NULL text"))))

(check "C fills an object passed as a pointer"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")])
      (eq (cd:cd_event_fill ev 2) 0 "fill")
      (eq (nccc-ref ev 'type) 2 "type")
      (eq (nccc-ref ev 'data 'shape 'corners 0 'x) -3 "corners 0 x")
      (eq (nccc-ref ev "data" "shape" "corners" 1 "y") 7 "by strings")
      (eq (nccc-ref ev 'data 'shape 'weight) 0.5 "an anonymous union's member")
      (eq (nccc-ref ev 'stamps 2) 2.25 "stamps 2")
      (eq (nccc-ref ev 'ranges 1 'hi) -2 "ranges 1 hi")
      (eq (nccc-ref (nccc-ref ev 'ranges) 1 'hi) -2 "through an array view")
      (eq (cd:cd_event_fill ev 1) 0 "fill")
      (eq (nccc-ref ev 'data 'scalar 'value) "caf\xe9;" "a text read by its count")
      (eq (nccc-ref ev 'data 'scalar 'length) 5 "length"))))

(check "fields written by name reach C"
  (lambda ()
    (let ([big (cd:cdata-new "cd_big")] [ev (cd:cdata-new "cd_event")]
          [layout (cd:cdata-layout "cd_event")])
      (nccc-set! big 'used 41)
      (eq (cd:cd_big_used big) 41 "used")
      (nccc-set! big 'used (+ 1 (nccc-ref big 'used)))
      (eq (cd:cd_big_used big) 42 "used again")
      (nccc-set! ev 'data 'shape 'corners 1 'x 9)
      (nccc-set! ev 'data 'shape 'tag 5)
      (nccc-set! ev 'stamps 0 1.5)
      (let ([bytes (nccc-cdata-bytes ev)])
        (eq (nccc-struct-ref layout bytes "stamps" 0) 1.5 "stamps 0 in the record's bytes")
        (eq (bytevector-s32-native-ref bytes (+ 8 8)) 9 "corners 1 x in the record's bytes"))
      (eq (nccc-ref ev 'data 'shape 'tag) 5 "tag")
      (nccc-set! ev 'data 'shape 'weight 1.0)
      (eq (nccc-ref ev 'data 'shape 'tag) #x3F800000 "union members share memory"))))

(check "records and arrays written whole"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")] [pt (cd:cdata-new "cd_point")]
          [bytes (make-bytevector 8 0)])
      (bytevector-s32-native-set! bytes 0 4)
      (bytevector-s32-native-set! bytes 4 5)
      (nccc-set! ev 'data 'shape 'corners 0 bytes)
      (eq (nccc-ref ev 'data 'shape 'corners 0 'y) 5 "a bytevector into a record element")
      (nccc-set! pt 'x -8)
      (nccc-set! ev 'data 'shape 'corners 1 pt)
      (eq (nccc-ref ev 'data 'shape 'corners 1 'x) -8 "a C object into a record element")
      (nccc-set! ev 'ranges (make-bytevector 8 #xff))
      (eq (nccc-ref ev 'ranges 1 'lo) -1 "a bytevector into an array field")
      (eq (nccc-cdata-bytes ev 'data 'shape 'corners 1) (nccc-cdata-bytes pt) "a part's bytes"))))

(check "borrowed view of C memory"
  (lambda ()
    (let* ([p (nccc-alloc rt event-size)] [v (cd:cdata-view "cd_event" p)])
      (eq (cd:cd_event_fill p 2) 0 "fill")
      (eq (nccc-ref v 'data 'shape 'corners 1 'y) 7 "corners 1 y")
      (nccc-set! v 'type 12)
      (eq (nccc-peek rt p "i") 12 "peek")
      (eq (nccc-cdata-address v) p "address")
      (eq (nccc-close v) #t "close")
      (eq (nccc-close v) #f "close again")
      (refuses 'closed "freed" (lambda () (nccc-ref v 'type)))
      (eq (nccc-peek rt p "i") 12 "the view never frees")
      (let ([rs (cd:cdata-view "cd_event__ranges" (+ p 56) 2)])
        (nccc-set! rs 1 'lo 3)
        (eq (nccc-ref rs 1 'lo) 3 "ranges view")
        (eq (nccc-cdata-length rs) 2 "its length")
        (refuses 'range "index 2 out of range 0..1" (lambda () (nccc-ref rs 2))))
      (nccc-free rt p))))

(check "a view of a C object shares its memory and its end"
  (lambda ()
    (let* ([ev (cd:cdata-new "cd_event")] [v (cd:cdata-view "cd_event" ev)]
           [shape (nccc-ref ev 'data 'shape)])
      (nccc-set! v 'type 3)
      (eq (nccc-ref ev 'type) 3 "written through the view")
      (refuses 'type "close the object it came from" (lambda () (nccc-close v)))
      (refuses 'type "close the object it came from" (lambda () (nccc-close shape)))
      (eq (nccc-close ev) #t "close")
      (eq (nccc-cdata-live? v) #f "the view ended")
      (refuses 'closed "cd_event object was freed" (lambda () (nccc-ref v 'type)))
      (refuses 'closed "freed" (lambda () (nccc-ref shape 'tag)))
      (refuses 'closed "freed" (lambda () (cd:cdata-view "cd_event" ev))))))

(check "a field view keeps its object"
  (lambda ()
    (let ([shape (let ([ev (cd:cdata-new "cd_event")])
                   (cd:cd_event_fill ev 2)
                   (nccc-ref ev 'data 'shape))])
      (nccc-collect!)
      (eq (nccc-ref shape 'corners 1 'y) 7 "after a collection"))))

(check "whole-record copies"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")])
      (cd:cd_event_fill ev 2)
      (let ([copy (cd:cdata-new "cd_event" (nccc-cdata-bytes ev))])
        (eq (nccc-ref copy 'ranges 1 'hi) -2 "copied from bytes")
        (nccc-set! copy (make-bytevector 64 0))
        (eq (nccc-ref copy 'ranges 1 'hi) 0 "zeroed whole")
        (nccc-set! copy ev)
        (eq (nccc-cdata-bytes copy) (nccc-cdata-bytes ev) "from a C object")
        (eq (nccc-cdata-bytes (cd:cdata-new "cd_event" ev)) (nccc-cdata-bytes ev) "new from one")
        (refuses 'type "64 bytes expected, got 3" (lambda () (nccc-set! copy (make-bytevector 3 0))))
        (refuses 'type "a bytevector, a C object of its type or a record value"
                 (lambda () (nccc-set! copy (cd:cdata-new "cd_big"))))))))

(check "record values out and in"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")])
      (cd:cd_event_fill ev 2)
      (let ([r (nccc-cdata-record ev)])
        (eq (cdr (assq 'type r)) 2 "type")
        (eq (cdr (assq 'stamps r)) '#(0.0 0.0 2.25) "an array as a vector")
        (eq (cdr (assq 'x (vector-ref (cdr (assq 'corners (cdr (assq 'shape (cdr (assq 'data r))))))
                                     0)))
            -3 "nested records as alists")
        (eq (nccc-cdata-bytes (cd:cdata-new "cd_event" r)) (nccc-cdata-bytes ev) "the same bytes back")
        (eq (nccc-cdata-record ev 'ranges 1) '((lo . 0) (hi . -2)) "a part's record"))
      (nccc-set! ev '((type . 7) (stamps . #(0.25 0.5))))
      (eq (nccc-ref ev 'type) 7 "written by name")
      (eq (nccc-ref ev 'stamps 1) 0.5 "an array from a vector")
      (eq (nccc-ref ev 'ranges 1 'hi) 0 "a field left out is zero")
      (nccc-set! ev 'ranges 1 '((hi . 4)))
      (eq (nccc-ref ev 'ranges 1 'hi) 4 "a part written by name")
      (let ([before (nccc-cdata-bytes ev)])
        (refuses 'type "expected a real number" (lambda () (nccc-set! ev '((type . 1) (stamps . #("x"))))))
        (refuses 'field "no such field" (lambda () (nccc-set! ev '((nothing . 1)))))
        (refuses 'range "at most 3 elements" (lambda () (nccc-set! ev 'stamps '#(1.0 2.0 3.0 4.0))))
        (eq (nccc-cdata-bytes ev) before "a refused record value changes nothing")))))

(check "unsigned-char text from a string or a bytevector"
  (lambda ()
    (eq (cd:cd_text_length "caf\xe9;") 5 "a string")
    (eq (cd:cd_text_length (string->utf8 "caf\xe9;")) 5 "a bytevector")
    (refuses 'nul "NUL" (lambda () (cd:cd_text_length (make-bytevector 2 0))))))

(check "errors, never a crash"
  (lambda ()
    (let ([ev (cd:cdata-new "cd_event")] [big (cd:cdata-new "cd_big")])
      (refuses 'range "index 3 out of range 0..2 of field 'stamps' of cdata.cd_event"
               (lambda () (nccc-ref ev 'stamps 3)))
      (refuses 'range "out of range" (lambda () (nccc-set! ev 'stamps -1 1.0)))
      (refuses 'type "out of range" (lambda () (nccc-ref ev 'stamps 'x)))
      (refuses 'type "element 0 of field 'stamps' of cdata.cd_event: expected a real number"
               (lambda () (nccc-set! ev 'stamps 0 "x")))
      (refuses 'integral "field 'type' of cdata.cd_event: expected an exact integer"
               (lambda () (nccc-set! ev 'type 1.5)))
      (refuses 'range "value 40000 out of range for int16"
               (lambda () (nccc-set! ev 'ranges 0 'lo 40000)))
      (refuses 'range "out of range for float" (lambda () (nccc-set! ev 'data 'shape 'weight 1e300)))
      (refuses 'field "cdata.cd_event has no such field" (lambda () (nccc-ref ev 'nothing)))
      (refuses 'field "has no such field" (lambda () (nccc-set! ev 'nothing 1)))
      (refuses 'field "holds no fields" (lambda () (nccc-ref ev 'type 'x)))
      (refuses 'type "would not outlive"
               (lambda () (nccc-set! ev 'data 'scalar 'value "abc")))
      (refuses 'type "not a C object" (lambda () (nccc-ref 42 'type)))
      (refuses 'unknown "a struct or union of cdata expected" (lambda () (cd:cdata-new "cd_nothing")))
      (refuses 'null "non-NULL address" (lambda () (cd:cdata-view "cd_event" 0)))
      (refuses 'null "non-NULL address" (lambda () (cd:cdata-view "cd_event" #f)))
      (refuses 'type "non-NULL address" (lambda () (cd:cdata-view "cd_event" "x")))
      (refuses 'count "expects 1 or 2 arguments" (lambda () (cd:cdata-new "cd_event" #f #f)))
      (eq (nccc-ref ev 'type) 0 "nothing written by a refused write")
      (nccc-set! big 'used 3)
      (eq (nccc-close big) #t "close")
      (eq (nccc-close big) #f "close again")
      (refuses 'closed "cd_big object was freed" (lambda () (nccc-ref big 'used)))
      (refuses 'closed "freed" (lambda () (nccc-set! big 'used 1)))
      (refuses 'closed "bad argument #1: the cd_big object was freed" (lambda () (cd:cd_big_used big)))
      (refuses 'closed "freed" (lambda () (nccc-cdata-address big)))
      (refuses 'closed "freed" (lambda () (nccc-set! ev 'data 'scalar 'value big))))))

(check "pointer fields"
  (lambda ()
    (let ([parser (cd:cdata-new "cd_parser")] [big (cd:cdata-new "cd_big")])
      (nccc-set! parser 'input big)
      (eq (nccc-ref parser 'input) (nccc-cdata-address big) "a C object's address")
      (nccc-set! parser 'input #f)
      (eq (nccc-ref parser 'input) 0 "NULL"))))

(check "parser fills events from kept input"
  (lambda ()
    (let ([parser (cd:cdata-new "cd_parser")] [ev (cd:cdata-new "cd_event")]
          [text (nccc-alloc rt 6)])
      (nccc-write rt text (string->utf8 "ab cde"))
      (cd:cd_parser_set_input parser text 6)
      (eq (nccc-ref parser 'length) 6 "length")
      (eq (nccc-ref parser 'input) text "input")
      (eq (words parser ev) '("ab" "cde") "words")
      (eq (nccc-ref parser 'at) 6 "at")
      (nccc-free rt text))))

(check "bytes both ways: C's writes come back into the bytevector"
  (lambda ()
    (let* ([source (string->utf8 "hello, bytes")] [at 0] [dest (make-bytevector 16 0)]
           [n (cd:cd_read_all (lambda (buffer size)
                                (let ([k (min size (- (bytevector-length source) at))])
                                  (bytevector-copy! source at buffer 0 k)
                                  (set! at (+ at k))
                                  k))
                              dest 16)])
      (eq n 12 "bytes read")
      (eq (utf8->string (bytevector-head dest 12)) "hello, bytes" "dest")
      (eq (bytevector-u8-ref dest 12) 0 "the rest as it was"))))

(check "kept bytes are held by their owner"
  (lambda ()
    (let ([parser (cd:cdata-new "cd_parser")] [ev (cd:cdata-new "cd_event")]
          [text (string->utf8 "one two")])
      (cd:cd_parser_set_input parser text 7)
      (bytevector-u8-set! text 0 (char->integer #\X))
      (let ([first (nccc-ref parser 'input)])
        (eq (words parser ev) '("one" "two") "C reads the copy its owner holds")
        (cd:cd_parser_set_input parser (string->utf8 "x") 1)
        (eq (words parser ev) '("x") "a later call keeps another")
        (eq (= (nccc-ref parser 'input) first) #f "in other memory"))
      (refuses 'type "a C object made by new expected"
               (lambda () (cd:cd_parser_set_input (nccc-cdata-address parser) text 7)))
      (let ([p (nccc-alloc rt 24)])
        (refuses 'type "made by new" (lambda () (cd:cd_parser_set_input (cd:cdata-view "cd_parser" p)
                                                                        text 7)))
        (nccc-free rt p))
      (eq (nccc-close parser) #t "the owner freed with what it keeps")
      (refuses 'closed "bad argument #1: the cd_parser object was freed"
               (lambda () (cd:cd_parser_set_input parser text 7))))))

(nccc-collect!)
(display (string-append (number->string passed) " passed, " (number->string failed) " failed\n"))
(exit (if (= failed 0) 0 1))
