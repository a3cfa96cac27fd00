#!r6rs
;;; run_cases.sps CASES.json FIXTURE [DEVICE] — the Scheme host suite: the one
;;; shared table test/hosts/cases.json (its "about" is the vocabulary),
;;; run through the generated libraries (nccc tour), (nccc hcb) and
;;; (nccc cdata) by Guile 3, Chez Scheme and Racket alike
;;; (test/scheme/CMakeLists.txt); the C object steps through cdata-new,
;;; cdata-view and (nccc core)'s nccc-ref, nccc-set!, nccc-cdata-record
;;; (docs/SCHEME.md, "C objects"). Prints failures and one "NOT RUN" line
;;; per case whose "needs" this runner does not implement, then "N
;;; passed, M failed, K not run"; exits 1 on a failure. With DEVICE (a link
;;; for the client's connect; test/remote), FIXTURE is that client: cdata and its
;;; memory (the memory steps') are the device's; only the cdata cases run.
(import (rnrs) (nccc core) (prefix (nccc tour) tour:) (prefix (nccc hcb) hcb:)
        (prefix (nccc cdata) cdata:) (nccc private memory))

;; ---- a small JSON reader: objects are (obj (key . value) ...), arrays
;; lists, integers exact, other numbers flonums, null the symbol null ---

(define (json-read port)
  (define (peek) (skip) (lookahead-char port))
  (define (skip)
    (let ([c (lookahead-char port)])
      (when (and (char? c) (char-whitespace? c)) (get-char port) (skip))))
  (define (expect c) (skip) (unless (eqv? (get-char port) c) (error 'json "expected" c)))
  (define (value)
    (let ([c (peek)])
      (cond
       [(eqv? c #\{) (get-char port)
        (if (eqv? (peek) #\}) (begin (get-char port) (list 'obj))
            (let loop ([acc '()])
              (let ([k (begin (skip) (str))])
                (expect #\:)
                (let* ([v (value)] [acc (cons (cons k v) acc)])
                  (if (eqv? (peek) #\,) (begin (get-char port) (loop acc))
                      (begin (expect #\}) (cons 'obj (reverse acc))))))))]
       [(eqv? c #\[) (get-char port)
        (if (eqv? (peek) #\]) (begin (get-char port) '())
            (let loop ([acc '()])
              (let ([acc (cons (value) acc)])
                (if (eqv? (peek) #\,) (begin (get-char port) (loop acc))
                    (begin (expect #\]) (reverse acc))))))]
       [(eqv? c #\") (str)]
       [(eqv? c #\t) (word "true") #t]
       [(eqv? c #\f) (word "false") #f]
       [(eqv? c #\n) (word "null") 'null]
       [else (num)])))
  (define (word w) (string-for-each (lambda (c) (unless (eqv? (get-char port) c) (error 'json "bad word" w))) w))
  (define (str)
    (get-char port)
    (let loop ([acc '()])
      (let ([c (get-char port)])
        (cond
         [(eqv? c #\") (list->string (reverse acc))]
         [(eqv? c #\\)
          (let ([e (get-char port)])
            (case e
              [(#\n) (loop (cons #\newline acc))] [(#\t) (loop (cons #\tab acc))]
              ;; the four digits in order (argument order is unspecified)
              [(#\u) (let* ([a (get-char port)] [b (get-char port)] [c (get-char port)]
                            [d (get-char port)] [h (string a b c d)])
                       (loop (cons (integer->char (string->number h 16)) acc)))]
              [else (loop (cons e acc))]))]
         [else (loop (cons c acc))]))))
  (define (num)
    (let loop ([acc '()])
      (let ([c (lookahead-char port)])
        (if (and (char? c) (memv c (string->list "0123456789+-.eE")))
            (begin (get-char port) (loop (cons c acc)))
            (let* ([text (list->string (reverse acc))] [n (string->number text)])
              (if (exists (lambda (c) (memv c '(#\. #\e #\E))) (reverse acc)) (inexact n) n))))))
  (value))

(define (obj? x) (and (pair? x) (eq? (car x) 'obj)))
(define (get o key . default)
  (let ([hit (and (obj? o) (assoc key (cdr o)))])
    (if hit (cdr hit) (if (pair? default) (car default) #f))))
(define (has? o key) (and (obj? o) (assoc key (cdr o)) #t))

;; ---- setup ----------------------------------------------------------------------

(define args (command-line))
(define table (call-with-input-file (cadr args) json-read))
(define rt (nccc-load (caddr args)))
(define device (and (= (length args) 4) (cadddr args)))
(define (checked name . in)             ; a function of the client, status 0 checked
  (let ([r (call-with-values (lambda () (apply (nccc-procedure rt name) in)) list)])
    (if (eqv? (car r) 0) (cdr r) (error 'run_cases.sps "failed" name (car r)))))
(if device
    (let ([link (begin (nccc-call (nccc-function-at rt (nccc-symbol rt "nccc_remotes_open") ":i"))
                       (car (checked "remotes.connect" device #f)))])
      (checked "remotes.bind" link "cdata" #f) (checked "remotes.bind_memory" link "cdata_memory"))
    (let ([fx (get table "fixture")])
      (nccc-call (nccc-function-at rt (nccc-symbol rt (get fx "open")) (get fx "signature")))
      (tour:tour-bind! rt) (hcb:hcb-bind! rt)))
(cdata:cdata-bind! rt)
(define memory (module-memory rt 'run_cases.sps "cdata")) ; the memory steps'

(define passed 0) (define failed 0) (define not-run 0)
;; the "needs" of the table this runner implements
(define has '("cdata"))
(define (show v) (call-with-string-output-port (lambda (p) (write v p))))

;; per case: saved values, closures (id -> #(callback calls collected))
(define saved '()) (define closures '())

;; a double's bits, and the double of bits
(define (bits x) (let ([b (make-bytevector 8)]) (bytevector-ieee-double-native-set! b 0 x) (bytevector-u64-native-ref b 0)))
(define (from-bits s) (let ([b (make-bytevector 8)]) (bytevector-u64-native-set! b 0 s) (bytevector-ieee-double-native-ref b 0)))
(define (parse-int text)
  (if (and (> (string-length text) 2) (string=? (substring text 0 2) "0x"))
      (string->number (substring text 2 (string-length text)) 16)
      (string->number text)))
(define (hex->bytes h)
  (let ([bv (make-bytevector (div (string-length h) 2))])
    (do ([k 0 (+ k 1)]) ((= k (bytevector-length bv)) bv)
      (bytevector-u8-set! bv k (string->number (substring h (* 2 k) (+ 2 (* 2 k))) 16)))))

;; struct type names of a signature side ("{point}" items), in order
(define (struct-names sig side)
  (let* ([colon (let loop ([i 0]) (if (char=? (string-ref sig i) #\:) i (loop (+ i 1))))]
         [text (if (eq? side 'in) (substring sig 0 colon)
                   (substring sig (+ colon 1) (string-length sig)))])
    (let loop ([i 0] [acc '()])
      (cond [(= i (string-length text)) (reverse acc)]
            [(char=? (string-ref text i) #\{)
             (let find ([j i])
               (if (char=? (string-ref text j) #\})
                   (loop (+ j 1) (cons (substring text (+ i 1) j) acc))
                   (find (+ j 1))))]
            [else (loop (+ i 1) (cons #f acc))]))))

(define (module-of name)
  (let loop ([i 0]) (if (char=? (string-ref name i) #\.) (substring name 0 i) (loop (+ i 1)))))
(define (after-dot name)
  (let loop ([i 0]) (if (char=? (string-ref name i) #\.) (substring name (+ i 1) (string-length name)) (loop (+ i 1)))))

;; A JSON value as a Scheme argument; layout for {struct: ...}.
(define (arg v layout)
  (cond
   [(obj? v)
    (cond
     [(has? v "i64") (parse-int (get v "i64"))]
     [(has? v "u64") (parse-int (get v "u64"))]
     [(has? v "f64") (from-bits (parse-int (get v "f64")))]
     [(has? v "null") #f]
     [(has? v "bytes") (hex->bytes (get v "bytes"))]
     [(and (has? v "struct") layout)
      (let ([bv (nccc-make-struct layout)])
        (for-each (lambda (kv) (nccc-struct-set! layout bv (car kv) (arg (cdr kv) #f)))
                  (cdr (get v "struct")))
        bv)]
     [(and (has? v "struct") (not layout)) (record-value v)]
     [(has? v "closure") (vector-ref (cdr (assoc (get v "closure") closures)) 0)]
     [(has? v "procedure") (vector-ref (cdr (assoc (get v "procedure") closures)) 0)]
     [(has? v "saved") (let ([hit (assoc (get v "saved") saved)]) (and hit (cdr hit)))]
     [(has? v "constant") (nccc-constant rt (get v "constant"))]
     [(has? v "symbol") (nccc-symbol rt (get v "symbol"))]
     [else (error 'runner "unknown value" v)])]
   [else v]))

;; {struct: ...} as a C object's record value (docs/SCHEME.md, "C
;; objects"): an alist of fields by name, arrays as vectors
(define (record-value v)
  (cond [(and (obj? v) (has? v "struct"))
         (map (lambda (kv) (cons (string->symbol (car kv)) (record-value (cdr kv))))
              (cdr (get v "struct")))]
        [(list? v) (list->vector (map record-value v))]
        [else (arg v #f)]))

(define (same-number? want got)
  (and (number? got)
       (if (and (exact? want) (exact? got)) (= want got)
           (and (real? got) (= want got)))))

;; Does result got match expected e? (saves on {save})
(define (match? e got layout)
  (cond
   [(obj? e)
    (cond
     [(has? e "save") (set! saved (cons (cons (get e "save") got) saved)) #t]
     [(has? e "any") #t]
     [(has? e "nonnull") (and got (not (eqv? got 0)))]
     [(has? e "null") (or (not got) (eqv? got 0))]
     [(has? e "f64") (and (flonum? got) (= (bits got) (parse-int (get e "f64"))))]
     [(or (has? e "i64") (has? e "u64")) (eqv? got (arg e #f))]
     [(has? e "bytes") (equal? got (hex->bytes (get e "bytes")))]
     [(and (has? e "struct") (bytevector? got))
      (for-all (lambda (kv) (match? (cdr kv) (nccc-struct-ref layout got (car kv)) #f))
               (cdr (get e "struct")))]
     ;; a C object's record value: fields by name, a field left out zero
     [(has? e "struct")
      (and (list? got)
           (for-all (lambda (kv)
                      (let ([hit (assq (string->symbol (car kv)) got)])
                        (and hit (match? (cdr kv) (cdr hit) #f))))
                    (cdr (get e "struct"))))]
     [(has? e "constant") (eqv? got (nccc-constant rt (get e "constant")))]
     [(has? e "saved") (eqv? got (arg e #f))]
     [else #f])]
   [(number? e) (same-number? e got)]
   [(and (list? e) (list? got)) (match-list? e got (map (lambda (x) #f) e))]
   ;; a callback's array argument arrives as a vector
   [(and (list? e) (vector? got)) (match? e (vector->list got) layout)]
   [else (equal? e got)]))

(define (match-list? want got layouts)
  (and (= (length want) (length got))
       (for-all (lambda (w g l) (match? w g l)) want got layouts)))

;; A condition as its host shows it: 'who' (the function's qualified
;; name, docs/CALLBACKS.md, "Error messages"), message and irritants.
(define (condition-text e)
  (if (and (condition? e) (message-condition? e))
      (string-append (if (who-condition? e) (string-append "'" (let ([w (condition-who e)]) (if (symbol? w) (symbol->string w) (show w))) "' ") "")
                     (condition-message e)
                     (if (irritants-condition? e) (show (condition-irritants e)) ""))
      (show e)))
(define (contains? s part)
  (let ([n (string-length s)] [m (string-length part)])
    (let loop ([k 0])
      (and (<= (+ k m) n) (or (string=? (substring s k (+ k m)) part) (loop (+ k 1)))))))

;; The kind Scheme's C objects raise for the table's words of C objects
;; (docs/SCHEME.md, "C objects").
(define (scheme-kind kind)
  (cond [(assoc kind '(("record" . "unknown") ("index" . "range") ("freed" . "closed")
                       ("size" . "type") ("outlive" . "type") ("kept" . "type")))
         => cdr]
        [else kind]))

;; Runs thunk (-> list of results) against step's expect or error;
;; -> #f or a failure text.
(define (outcome step thunk layouts)
  (let ([r (guard (e (#t (cons 'raised e))) (cons 'ok (thunk)))])
    (cond
     [(get step "error")
      => (lambda (kind)
           (cond
            [(eq? (car r) 'ok) (string-append "returned " (show (cdr r)) ", expected an error " kind)]
            [(not (and (nccc-error? (cdr r))
                       (equal? (symbol->string (nccc-error-kind (cdr r))) (scheme-kind kind))))
             (string-append "raised " (condition-text (cdr r))
                            (if (nccc-error? (cdr r)) (string-append " of kind " (symbol->string (nccc-error-kind (cdr r)))) "")
                            ", expected kind " kind)]
            [(and (get step "message") (not (contains? (condition-text (cdr r)) (get step "message"))))
             (string-append "message " (condition-text (cdr r)) " lacks " (get step "message"))]
            [else #f]))]
     [(eq? (car r) 'raised) (string-append "raised " (condition-text (cdr r)))]
     [(not (has? step "expect")) #f]
     [(let ([want (get step "expect")])
        (if (and (list? want) (not (obj? want)))
            (match-list? want (cdr r) layouts)
            (match? want (car (cdr r)) #f)))
      #f]
     [else (string-append "got " (show (cdr r)) ", expected " (show (get step "expect")))])))

;; ---- behaviours -----------------------------------------------------------------

;; Releases the closure id: (#t) when it was live, (#f) after.
(define (release-closure id)
  (let ([cb (vector-ref (cdr (assoc id closures)) 0)])
    (list (and (nccc-callback-live? cb) (begin (nccc-release cb) #t)))))

(define (behaviour do id)
  (define (rec) (cdr (assoc id closures)))
  (define (count!) (let ([r (rec)]) (vector-set! r 1 (+ 1 (vector-ref r 1)))))
  (define (boom) (raise (make-message-condition "boom")))
  (lambda xs
    (when id (count!))
    (cond
     [(equal? do "sum") (apply + xs)]
     [(equal? do "double") (* 2 (car xs))]
     [(equal? do "collect")
      (let ([r (rec)]) (vector-set! r 2 (append (vector-ref r 2) (list xs))) (values))]
     [(equal? do "error") (boom)]
     [(equal? do "reenter") (tour:add (car xs) (cadr xs))]
     [(equal? do "bad_result") "bad"]
     [(equal? do "divmod") (let ([q (truncate (/ (car xs) (cadr xs)))]) (values q (- (car xs) (* q (cadr xs)))))]
     [(get do "fill")
      ;; the bytes into the buffer to fill (a bytevector), as many as fit
      (let* ([data (hex->bytes (get do "fill"))]
             [k (min (bytevector-length data) (bytevector-length (car xs)))])
        (bytevector-copy! data 0 (car xs) 0 k)
        k)]
     [(get do "error_at") (if (= (vector-ref (rec) 1) (get do "error_at")) (boom) (apply + xs))]
     [(get do "arg") (list-ref xs (- (get do "arg") 1))]
     [(get do "call")
      ;; a call of the callback's own, made as a call step makes it;
      ;; its results recorded as collect records arguments
      => (lambda (name)
           (let* ([p (procedure-of name (list 'obj))]
                  [xs (map (lambda (v) (arg v #f)) (get do "args" '()))]
                  [got (call-with-values
                           (lambda () (if p (apply p xs) (apply nccc-call (nccc-lookup rt name) xs)))
                         list)]
                  [r (rec)])
             (vector-set! r 2 (append (vector-ref r 2) (list got)))
             (if (has? do "returns") (get do "returns") (values))))]
     [(get do "release")
      ;; a release inside the callback (its own closure too), then a result
      => (lambda (id)
           (let ([r (rec)])
             (vector-set! r 2 (append (vector-ref r 2) (list (release-closure id))))
             (if (has? do "returns") (get do "returns") (values))))]
     [else (error 'runner "unknown behaviour" do)])))

(define (scope-of step) (string->symbol (get step "scope" "call")))

(define (make-closure id sig type scope proc)
  (if type
      (let ([m (module-of type)] [t (after-dot type)])
        (cond [(string=? m "hcb") (hcb:hcb-callback t scope proc)]
              [(string=? m "tour") (tour:tour-callback t scope proc)]
              [(string=? m "cdata") (cdata:cdata-callback t scope proc)]
              [else (error 'runner "no generated module" type)]))
      (nccc-callback rt sig scope proc)))

(define (type-signature type)
  (let ([m (module-of type)] [t (after-dot type)])
    (cond [(string=? m "hcb") (hcb:hcb-callback-signature t)]
          [else (tour:tour-callback-signature t)])))

;; ---- counters --------------------------------------------------------------------

(define (counters)
  (let-values ([(capacity in-use stale mismatched wrong-thread) (nccc-closure-stats rt)])
    (list (nccc-callbacks-held) in-use stale mismatched wrong-thread)))

;; ---- steps -------------------------------------------------------------------------

(define (procedure-of name step)
  (let ([m (module-of name)] [f (after-dot name)])
    (cond
     [(or (get step "registry") (get step "handle")) #f]
     [(string=? m "tour") (tour:tour-procedure f)]
     [(string=? m "hcb") (hcb:hcb-procedure f)]
     [(string=? m "cdata") (cdata:cdata-procedure f)]
     [else #f])))

(define (layouts-of name side n)
  (let ([names (guard (e (#t '())) (struct-names (nccc-function-signature (nccc-lookup rt name)) side))]
        [m (module-of name)])
    (let loop ([k 0] [names names] [acc '()])
      (if (= k n) (reverse acc)
          (loop (+ k 1) (if (pair? names) (cdr names) '())
                (cons (and (pair? names) (car names)
                           (guard (e (#t #f)) (nccc-layout rt (string-append m "." (car names)))))
                      acc))))))

(define (run-step step base)
  (cond
   [(get step "call")
    => (lambda (name)
         (let* ([raw (get step "args" '())]
                [in-layouts (layouts-of name 'in (length raw))]
                [out-layouts (layouts-of name 'out (let ([e (get step "expect")]) (if (list? e) (length e) 0)))])
           (outcome step
                    (lambda ()
                      (let ([xs (map arg raw in-layouts)] [p (procedure-of name step)])
                        (call-with-values
                            (lambda () (if p (apply p xs) (apply nccc-call (nccc-lookup rt name) xs)))
                          list)))
                    out-layouts)))]
   [(get step "packed")
    => (lambda (name)
         (outcome step (lambda () (call-with-values
                                      (lambda () (apply nccc-packed-call rt name (map (lambda (v) (arg v #f)) (get step "args" '()))))
                                    list))
                  '(#f)))]
   [(get step "register_packed")
    => (lambda (name)
         (outcome step (lambda () (nccc-register-packed rt name (get step "psig") (behaviour (get step "do") #f)) '()) '()))]
   [(get step "callback")
    => (lambda (id)
         (set! closures (cons (cons id (vector #f 0 '())) closures))
         (outcome step (lambda ()
                         (vector-set! (cdr (assoc id closures)) 0
                                      (make-closure id (get step "signature") (get step "type")
                                                    (scope-of step) (behaviour (get step "do") id)))
                         '())
                  '()))]
   ;; a plain procedure, for a generated module to make its closures
   [(get step "procedure")
    => (lambda (id)
         (set! closures (cons (cons id (vector (behaviour (get step "do") id) 0 '())) closures))
         #f)]
   [(get step "group")
    => (lambda (id)
         (let ([members (get step "members")])
           (set! closures (cons (cons id (vector #f 0 '())) closures))
           (for-each (lambda (k) (set! closures (cons (cons (cons id k) (vector #f 0 '())) closures)))
                     (iota (length members)))
           (outcome step
                    (lambda ()
                      (vector-set! (cdr (assoc id closures)) 0
                                   (apply nccc-callback-group rt (scope-of step) (get step "final" 0)
                                          (apply append
                                                 (map (lambda (m k)
                                                        (list (or (get m "signature")
                                                                  (type-signature (get m "type")))
                                                              (behaviour (get m "do") (cons id k))))
                                                      members (iota (length members))))))
                      '())
                    '())))]
   [(get step "exhaust")
    => (lambda (ex)
         (let ([made '()])
           (let ([r (outcome step
                             (lambda ()
                               (let loop ([k 0])
                                 (if (= k (get step "max"))
                                     (list k)
                                     (begin (set! made (cons (nccc-callback rt (get ex "signature")
                                                                            (string->symbol (get ex "scope" "forever"))
                                                                            (lambda xs 0))
                                                             made))
                                            (loop (+ k 1))))))
                             '())])
             (for-each nccc-release made)
             r)))]
   [(get step "constant")
    => (lambda (name) (outcome step (lambda () (list (nccc-constant rt name))) '(#f)))]
   [(get step "layout")
    => (lambda (name)
         (outcome (if (has? step "expect") (cons 'obj (list (cons "expect" #t)) ) step)
                  (lambda ()
                    (let ([l (nccc-layout rt name)] [e (get step "expect")])
                      (define (ok? key v) (or (not (has? e key)) (equal? (get e key) v)))
                      (list
                       (and (ok? "size" (nccc-layout-size l)) (ok? "align" (nccc-layout-align l))
                            (ok? "kind" (symbol->string (nccc-layout-kind l)))
                            (ok? "nfields" (vector-length (nccc-layout-fields l)))
                            (for-all (lambda (ef f)
                                       (and (or (not (has? ef "name")) (equal? (get ef "name") (nccc-field-name f)))
                                            (or (not (has? ef "type")) (equal? (get ef "type") (nccc-field-code f)))
                                            (or (not (has? ef "offset")) (equal? (get ef "offset") (nccc-field-offset f)))
                                            (or (not (has? ef "size")) (equal? (get ef "size") (nccc-field-size f)))
                                            (or (not (has? ef "count")) (equal? (get ef "count") (nccc-field-count f)))))
                                     (get e "fields" '())
                                     (let ([v (vector->list (nccc-layout-fields l))])
                                       (map (lambda (ef k)
                                              (if (has? ef "name")
                                                  (nccc-layout-field l (get ef "name"))
                                                  (list-ref v k)))
                                            (get e "fields" '()) (iota (length (get e "fields" '()))))))))))
                  '(#f)))]
   [(has? step "modules")
    (let ([names (vector->list (nccc-modules rt))])
      (if (for-all (lambda (m) (member m names)) (get step "modules")) #f
          (string-append "modules " (show names))))]
   [(and (get step "functions") (get step "error"))
    (outcome step (lambda () (list (nccc-functions rt (get step "functions")))) '(#f))]
   [(get step "functions")
    => (lambda (m)
         (let* ([v (vector->list (nccc-functions rt m))] [inc (get step "include" '(obj))])
           (cond
            [(and (get step "count") (not (= (length v) (get step "count"))))
             (string-append "count " (number->string (length v)))]
            [(exists (lambda (kv)
                       (let ([full (string-append m "." (car kv))])
                         (not (and (member full v)
                                   (equal? (nccc-function-signature (nccc-lookup rt full)) (cdr kv))))))
                     (cdr inc))
             "an included function is missing or differs"]
            [else #f])))]
   [(get step "signature")
    => (lambda (name) (outcome step (lambda () (list (nccc-function-signature (nccc-lookup rt name)))) '(#f)))]
   [(get step "release")
    => (lambda (id)
         (outcome step (lambda ()
                         (release-closure id))
                  '(#f)))]
   [(get step "check")
    => (lambda (id)
         (let* ([key (if (has? step "member") (cons id (get step "member")) id)]
                [r (cdr (assoc key closures))]
                [cb (vector-ref (cdr (assoc id closures)) 0)])
           (cond
            [(and (has? step "live")
                  (not (eq? (get step "live") (and (nccc-callback? cb) (nccc-callback-live? cb)))))
             (string-append "live " (show (and (nccc-callback? cb) (nccc-callback-live? cb))))]
            [(and (has? step "calls") (not (= (get step "calls") (vector-ref r 1))))
             (string-append "calls " (show (vector-ref r 1)))]
            [(and (has? step "collected")
                  (not (match-list? (get step "collected") (vector-ref r 2)
                                    (map (lambda (x) #f) (vector-ref r 2)))))
             (string-append "collected " (show (vector-ref r 2)))]
            [else #f])))]
   [(get step "counters")
    => (lambda (want)
         (let ([now (counters)])
           (if (for-all (lambda (key k)
                          (or (not (has? want key)) (= (get want key) (- (list-ref now k) (list-ref base k)))))
                        '("refs" "in_use" "stale" "mismatched" "wrong_thread") '(0 1 2 3 4))
               #f
               (string-append "counters " (show (map - now base))))))]
   [(get step "close")
    => (lambda (v) (outcome step (lambda () (list (nccc-close (arg v #f)))) '(#f)))]
   [(get step "forget")
    => (lambda (name) (set! saved (filter (lambda (kv) (not (equal? (car kv) name))) saved)) #f)]
   [(get step "collect") (nccc-collect!) (nccc-collect!) #f]
   [(get step "alloc")
    => (lambda (n)
         (let ([bytes (if (obj? n)
                          (* (nccc-layout-size (nccc-layout rt (get n "sizeof"))) (get n "count" 1))
                          n)])
           (set! saved (cons (cons (get step "save") (memory-alloc memory bytes)) saved))
           #f))]
   ;; C objects
   [(get step "new")
    => (lambda (name)
         (outcome step (lambda ()
                         (save! step (if (has? step "value")
                                         (cdata:cdata-new (after-dot name) (arg (get step "value") #f))
                                         (cdata:cdata-new (after-dot name)))))
                  '()))]
   [(get step "view")
    => (lambda (name)
         (outcome step (lambda ()
                         (let ([at (arg (get step "at") #f)])
                           (save! step (if (has? step "count")
                                           (cdata:cdata-view (after-dot name) at (get step "count"))
                                           (cdata:cdata-view (after-dot name) at)))))
                  '()))]
   [(has? step "field")
    (let ([obj (arg (get step "field") #f)] [path (map (lambda (k) (if (string? k) (string->symbol k) k))
                                                       (get step "path"))])
      (outcome step (lambda ()
                      (if (has? step "set")
                          (begin (apply nccc-set! obj (append path (list (record-value (get step "set")))))
                                 '())
                          (list (apply nccc-ref obj path))))
               '(#f)))]
   [(has? step "record")
    (outcome step (lambda () (list (nccc-cdata-record (arg (get step "record") #f)))) '(#f))]
   [(has? step "assign")
    (outcome step (lambda () (nccc-set! (arg (get step "assign") #f) (record-value (get step "value"))) '())
             '())]
   [(has? step "read_bytes")
    (outcome step (lambda () (list (memory-read memory (arg (get step "read_bytes") #f) (get step "length"))))
             '(#f))]
   [(has? step "write_bytes")
    (outcome step (lambda () (memory-write memory (arg (get step "write_bytes") #f) (hex->bytes (get step "bytes")))
                          '())
             '())]
   [(get step "free")
    => (lambda (v) (outcome step (lambda () (memory-free memory (arg v #f)) '()) '()))]
   [(get step "read_string")
    => (lambda (v) (outcome step (lambda () (list (nccc-string-at rt (arg v #f)))) '(#f)))]
   [(get step "repeat")
    => (lambda (n)
         (let loop ([k 0])
           (if (= k n) #f (or (run-step (get step "step") base) (loop (+ k 1))))))]
   [else (string-append "unknown step " (show step))]))

;; Keeps v under step's save name; -> no results.
(define (save! step v)
  (set! saved (cons (cons (get step "save") v) saved))
  '())

(define (iota n) (let loop ([k (- n 1)] [acc '()]) (if (< k 0) acc (loop (- k 1) (cons k acc)))))
(define (list-head l n) (if (= n 0) '() (cons (car l) (list-head (cdr l) (- n 1)))))

(define (say . parts) (for-each display parts) (newline)) ; parts, then a newline

(define (run-case c)
  (cond [(and device (not (equal? (get c "needs") "cdata"))) #f]
        [(or (and (get c "needs") (not (member (get c "needs") has))) (and device (get c "not_remote")))
         (set! not-run (+ not-run 1))
         (say "NOT RUN " (get c "name") " ("
              (if device (get c "not_remote") (string-append "needs " (get c "needs"))) ")")]
        [else (run-needed-case c)]))

;; On a device, step with its remote_error in place of what it expects (the case ends after it), or #f.
(define (refused-step step)
  (let ([kind (and device (get step "remote_error"))])
    (and kind (cons* 'obj (cons "error" kind) (remp (lambda (kv) (equal? (car kv) "expect")) (cdr step))))))

(define (run-needed-case c)
  ;; on a device the last case's C objects are freed (a view of a part refuses): its blocks are bounded
  (when device (for-each (lambda (s) (when (nccc-cdata? (cdr s)) (guard (e [#t #f]) (nccc-close (cdr s))))) saved))
  (set! saved '()) (set! closures '())
  (let* ([base (counters)]
         [steps (or (get c "steps") (list c))]
         [why (let loop ([steps steps] [k 1])
                (let ([refused (and (pair? steps) (refused-step (car steps)))])
                  (cond [(null? steps) #f]
                        [(guard (e (#t (string-append "step raised " (condition-text e))))
                           (run-step (or refused (car steps)) base))
                         => (lambda (why) (string-append "step " (number->string k) ": " why))]
                        [(not refused) (loop (cdr steps) (+ k 1))]
                        [else #f])))])
    (if why
        (begin (set! failed (+ failed 1)) (say "FAIL " (get c "name") ": " why))
        (set! passed (+ passed 1)))))

(for-each run-case (get table "cases"))
(say "nccc on " (symbol->string nccc-implementation))
(say passed " passed, " failed " failed, " not-run " not run")
(exit (if (= failed 0) 0 1))
