#!r6rs
;;; nccc/private/records.sls — (nccc private records): a generated
;;; library's binding records (docs/BINDING.md, as quoted alists: an
;;; object is an alist, an array a list) read into the rows the module's
;;; tables keep (nccc private module, make-module): signatures, owned
;;; results, [bytes] arguments, closure parameters and closure-set slots.
(library (nccc private records)
  (export described signature-row owned-row bytes-row procs-row closures-row)
  (import (rnrs))

  ;; The value of key in a record or description (an alist), or #f.
  (define (described spec key)
    (let ([entry (assq key spec)]) (and entry (cdr entry))))

  ;; #(name signature ...) of a function or callback type record.
  (define (signature-row r) (list->vector (cons (described r 'name) (described r 'signatures))))

  ;; (name #(out-index destructor string?) ...) of a function record's
  ;; owned results in out order, or #f.
  (define (owned-row f)
    (let ([owned (list-sort (lambda (a b) (< (described a 'result) (described b 'result)))
                            (append (let ([o (described f 'owned)]) (if o (list o) '()))
                                    (or (described f 'owned_strings) '())
                                    (or (described f 'owned_pointers) '())))])
      (and (pair? owned)
           (cons (described f 'name)
                 (map (lambda (o) (vector (- (described o 'result) 1) (described o 'free)
                                          (not (equal? (described o 'kind) "object"))))
                      owned)))))

  ;; (name (position . owner) ...) of the [bytes] arguments of a function
  ;; record, owner the position of the argument that holds what the
  ;; library keeps ([kept=OWNER]) or #f; or #f for none.
  (define (bytes-row f)
    (let* ([all (or (described f 'values) '())]
           ;; one list of descriptions, or one per target (the same args)
           [spec? (lambda (x) (and (pair? x) (pair? (car x)) (symbol? (caar x))))]
           [specs (cond [(null? all) '()] [(spec? (car all)) all] [else (car all)])]
           [kept (map (lambda (e) (cons (described e 'arg) (described e 'owner)))
                      (or (described f 'kept) '()))]
           [args (map (lambda (spec)
                        (let ([k (described spec 'arg)])
                          (cons k (cond [(assv k kept) => cdr] [else #f]))))
                      (filter (lambda (spec) (equal? (described spec 'kind) "bytes")) specs))])
      (and (pair? args) (cons (described f 'name) args))))

  ;; (name (position type scope) ...) of a function record's closure
  ;; parameters of one callback type outside closure sets (a procedure
  ;; passed there becomes a callback of that scope), or #f.
  (define (procs-row f)
    (let ([one (filter (lambda (c) (and (not (described c 'set))
                                        (= (length (described c 'callbacks)) 1)))
                       (or (described f 'closures) '()))])
      (and (pair? one)
           (cons (described f 'name)
                 (map (lambda (c) (list (described c 'arg) (car (described c 'callbacks))
                                        (string->symbol (described c 'scope))))
                      one)))))

  ;; (name set owner ((slot . member) ...) context-slot-or-#f) of a
  ;; function record with closure-set slots, or #f.
  (define (closures-row f)
    (let ([in-set (filter (lambda (c) (described c 'set)) (or (described f 'closures) '()))])
      (and (pair? in-set)
           (let ([ref (lambda (c) (described c 'set))])
             (list (described f 'name) (described (ref (car in-set)) 'name)
                   (described (ref (car in-set)) 'owner)
                   (map (lambda (c) (cons (described c 'arg) (described (ref c) 'member)))
                        (filter (lambda (c) (described (ref c) 'member)) in-set))
                   (let ([context (find (lambda (c) (not (described (ref c) 'member))) in-set)])
                     (and context (described context 'arg)))))))))
