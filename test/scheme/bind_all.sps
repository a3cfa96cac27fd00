#!r6rs
;;; bind_all.sps STANDIN — every shipped IDL's generated library bound
;;; through the binder (nccc private module, nccc private binder) over
;;; the stand-in adapter (test/scheme/standin/compat.sls), which answers
;;; as a library built from those IDLs would: STANDIN, written by
;;; standin_modules.py, lists each module's functions with their
;;; signatures, callback types, constants and layouts, from the IDL.
;;; For each module, M-bind! must take every function and:
;;; - each function is a procedure under its name; given one argument too
;;;   many it raises an nccc error of kind count before C; given its
;;;   arguments (a value of each one's type) it calls the function's own
;;;   address once, and nothing else;
;;; - each callback type has its x86-64 signature and makes a callback,
;;;   live until released;
;;; - each constant reads the value the library gives;
;;; - each layout is the library's, and each struct or union makes a C
;;;   object whose every field reads.
;;; Prints a count of each and exits 0, or names each failure and exits 1.
(import (rnrs) (rnrs eval) (nccc core) (nccc abi)
        (only (nccc compat) standin-calls standin-constant-value standin-modules))

(define rt (nccc-load (cadr (command-line))))
(define failures 0)
;; modules, functions, callback types, constants, layouts, functions
;; called with NULL for a closure Scheme cannot make
(define counts (make-vector 6 0))
(define (count! k) (vector-set! counts k (+ 1 (vector-ref counts k))))

(define (check what ok)
  (unless ok
    (set! failures (+ failures 1))
    (display "FAIL ") (write what) (newline)))

(define (part m key) (cdr (assoc key (cdr m))))

;; The value of calling thunk, or the symbol raised: the kind of an nccc
;; error, else 'error (the condition printed).
(define (outcome thunk)
  (guard (e [(nccc-error? e) (nccc-error-kind e)]
            [#t (display "  raised: ")
                (display (if (message-condition? e) (condition-message e) e))
                (when (irritants-condition? e) (display " ") (write (condition-irritants e)))
                (newline)
                'error])
    (call-with-values thunk (lambda results 'called))))

(define (code-kind code) (vector-ref (abi-code (string-ref code 0)) 2))

;; A callback signature whose results hold a string.
(define (returns-string? sig)
  (let loop ([k 0] [out? #f])
    (and (< k (string-length sig))
         (let ([c (string-ref sig k)])
           (or (and out? (abi-code c) (eq? (vector-ref (abi-code c) 2) 'string))
               (loop (+ k 1) (or out? (char=? c abi-sig-separator))))))))

(define (bind-module m)
  (let* ([name (car m)]
         [env (environment (list 'nccc (string->symbol name)))]
         [export (lambda (suffix) (eval (string->symbol (string-append name suffix)) env))]
         [callback-signature (export "-callback-signature")])
    ;; a value of each argument's type; callbacks made are kept in made;
    ;; a closure of a type Scheme cannot make (one returning a string,
    ;; docs/SCHEME.md) is #f, noted in unmade
    (define made '())
    (define unmade #f)
    (define (argument spec)
      (let ([code (car spec)] [extra (cdr spec)])
        (cond
         [(equal? extra '("bytes")) (u8-list->bytevector (list 1 2 3))]
         [(equal? extra '("set")) (lambda args 0)]
         [(and (pair? extra) (exists returns-string? (map callback-signature (cdr extra))))
          (set! unmade #t)
          #f]
         [(pair? extra)
          (let ([cb (apply nccc-callback-group rt (string->symbol (car extra)) 0
                           (apply append (map (lambda (type)
                                                (list (callback-signature type) (lambda args 0)))
                                              (cdr extra))))])
            (set! made (cons cb made))
            cb)]
         [(char=? (string-ref code 0) abi-sig-record-open)
          (make-bytevector (nccc-layout-size ((export "-layout")
                                              (substring code 1 (- (string-length code) 1))))
                           0)]
         [else (case (code-kind code)
                 [(int) 1] [(bool) #t] [(float) 1.5] [(string) "s"] [else 4096])])))
    ((export "-bind!") rt)
    (count! 0)
    (for-each
     (lambda (f)
       (let* ([fname (car f)] [what (string-append name "." fname)]
              [proc ((export "-procedure") fname)] [args (list-ref f 4)]
              [address (nccc-function-address (nccc-lookup rt what))])
         (count! 1)
         (check (list what 'procedure) (and (procedure? proc)
                                            (eq? proc (eval (string->symbol fname) env))))
         (check (list what 'count (+ 1 (length args)))
                (eq? 'count (outcome (lambda () (apply proc 0 (map (lambda (a) 0) args))))))
         (check (list what 'nothing-called-when-refused) (null? (standin-calls)))
         (let* ([result (outcome (lambda () (apply proc (map argument args))))]
                [calls (standin-calls)])
           (if unmade
               ;; NULL in its place: called if nullable, else refused
               (begin
                 (count! 5)
                 (check (list what 'called-or-null result)
                        (or (and (eq? result 'called) (equal? calls (list address)))
                            (and (eq? result 'null) (null? calls)))))
               (begin
                 (check (list what 'called result) (eq? 'called result))
                 (check (list what 'calls (list address)) (equal? calls (list address))))))
         (for-each (lambda (cb) (when (nccc-callback-live? cb) (nccc-release cb))) made)
         (set! made '())
         (set! unmade #f)))
     (part m "functions"))
    (for-each
     (lambda (c)
       (let* ([cname (car c)] [what (string-append name "." cname)])
         (count! 2)
         (check (list what 'signature (cadr c)) (equal? (callback-signature cname) (cadr c)))
         (if (returns-string? (cadr c))
             (check (list what 'refused)
                    (nccc-error? (guard (e [#t e])
                                   ((export "-callback") cname 'forever (lambda args 0)))))
             (let ([cb ((export "-callback") cname 'forever (lambda args 0))])
               (check (list what 'live) (and (nccc-callback? cb) (nccc-callback-live? cb)))
               (nccc-release cb)
               (check (list what 'released) (not (nccc-callback-live? cb)))))))
     (part m "callbacks"))
    (let loop ([cs (part m "constants")] [k 0])
      (unless (null? cs)
        (let ([cname (caar cs)] [code (cadar cs)])
          (count! 3)
          (check (list name cname (standin-constant-value cname code k))
                 (equal? (eval (string->symbol cname) env) (standin-constant-value cname code k)))
          (loop (cdr cs) (+ k 1)))))
    (for-each
     (lambda (l)
       (let* ([lname (car l)] [kind (string->symbol (cadr l))] [fields (map car (list-ref l 4))]
              [layout ((export "-layout") lname)] [what (string-append name "." lname)])
         (count! 4)
         (check (list what 'layout)
                (and (equal? (nccc-layout-name layout) lname) (eq? (nccc-layout-kind layout) kind)
                     (equal? (map nccc-field-name (vector->list (nccc-layout-fields layout)))
                             fields)))
         (unless (eq? kind 'opaque)
           (let ([obj ((export "-new") lname)])
             (check (list what 'new) (nccc-cdata? obj))
             (for-each (lambda (field)
                         (check (list what field 'reads)
                                (eq? 'called (outcome (lambda () (nccc-ref obj (string->symbol field)))))))
                       fields)))))
     (part m "layouts"))))

(vector-for-each bind-module (standin-modules))
(display "bind_all: ")
(for-each (lambda (n what) (display n) (display what))
          (vector->list counts)
          '(" modules, " " functions, " " callback types, " " constants, " " layouts, "
            " functions given NULL for a callback Scheme cannot make\n"))
(exit (if (= failures 0) 0 1))
