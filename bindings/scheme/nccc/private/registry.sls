#!r6rs
;;; nccc/private/registry.sls — (nccc private registry): what the
;;; registry says about modules besides their functions: the module list,
;;; type layouts (and structs as bytevectors of them), and constants.
(library (nccc private registry)
  (export module-count module-info module-find split-qualified find-layout-in resolve-items
          nccc-modules nccc-layout nccc-layout? nccc-layout-name nccc-layout-size
          nccc-layout-align nccc-layout-kind nccc-layout-fields nccc-layout-field
          nccc-field? nccc-field-name nccc-field-code nccc-field-offset nccc-field-size
          nccc-field-count nccc-constant nccc-constants
          nccc-make-struct nccc-struct-ref nccc-struct-set!)
  (import (rnrs) (nccc abi) (nccc private values) (nccc private runtime) (nccc private convert))

  ;; ---- modules, layouts, constants ---------------------------------------

  (define (module-count rt)
    (slot-ref (builtin rt 'nccc-modules B-MODULE-COUNT 1) 1))

  ;; -> (values name n-functions n-types n-constants), or #f for no module
  (define (module-info rt index)
    (let-values ([(st out) (builtin/status rt B-MODULE-INFO (slots index) 4)])
      (if (= st 0)
          (values (string-at rt (slot-ref out 1)) (slot-ref out 2)
                  (slot-ref out 3) (slot-ref out 4))
          (values #f 0 0 0))))

  ;; Module index of name, or #f.
  (define (module-find rt who name)
    (with-c-string rt who name
      (lambda (p)
        (let-values ([(st out) (builtin/status rt B-MODULE-FIND (slots p) 1)])
          (cond [(= st 0) (slot-ref out 1)]
                [(= st NCCC-ERR-NAME-NOT-FOUND) #f]
                [else (runtime-fail rt who st)])))))

  (define (nccc-modules rt)
    (check-rt 'nccc-modules rt)
    (let ([n (module-count rt)])
      (let loop ([k 0] [acc '()])
        (if (= k (- n 1))   ; the last position is the global registry
            (list->vector (reverse acc))
            (let-values ([(name . _) (module-info rt k)])
              (loop (+ k 1) (if name (cons name acc) acc)))))))

  ;; "module.rest" -> (values module-index rest), raising for no module.
  (define (split-qualified rt who qualified)
    (unless (string? qualified) (misuse who "not a string" qualified))
    (let loop ([k 0])
      (cond
       [(= k (string-length qualified))
        (misuse who "expected \"module.name\"" qualified)]
       [(char=? (string-ref qualified k) #\.)
        (let ([m (module-find rt who (substring qualified 0 k))])
          (unless m (misuse who "no such module" (substring qualified 0 k)))
          (values m (substring qualified (+ k 1) (string-length qualified))))]
       [else (loop (+ k 1))])))

  (define-record-type (layout make-layout nccc-layout?)
    (fields (immutable name nccc-layout-name) (immutable size nccc-layout-size)
            (immutable align nccc-layout-align) (immutable kind nccc-layout-kind)
            (immutable fields nccc-layout-fields) module))
  (define-record-type (field make-field nccc-field?)
    (fields (immutable name nccc-field-name) (immutable code nccc-field-code)
            (immutable offset nccc-field-offset) (immutable size nccc-field-size)
            (immutable count nccc-field-count)))

  ;; Cached per module index, checked against the module's name (an index
  ;; can hold another module after a removal).
  (define (cached rt get set index name load)
    (let ([hit (assv index (get rt))])
      (if (and hit (equal? (cadr hit) name))
          (cddr hit)
          (let ([v (load)])
            (set rt (cons (cons index (cons name v)) (get rt)))
            v))))

  (define (module-layouts rt m)
    (let-values ([(name n-fns n-types n-consts) (module-info rt m)])
      (if (not name)
          '#()
          (cached rt runtime-layouts runtime-layouts-set! m name
                  (lambda ()
                    (let ([v (make-vector n-types)])
                      (do ([t 0 (+ t 1)]) ((= t n-types) v)
                        (vector-set! v t (load-layout rt m t)))))))))

  (define (load-layout rt m t)
    (let* ([out (builtin rt 'nccc-layout B-MODULE-TYPE 5 m t)]
           [n (slot-ref out 5)] [fields (make-vector n)])
      (do ([f 0 (+ f 1)]) ((= f n))
        (let ([o (builtin rt 'nccc-layout B-MODULE-FIELD 5 m t f)])
          (vector-set! fields f
                       (make-field (string-at rt (slot-ref o 1)) (string-at rt (slot-ref o 2))
                                   (slot-ref o 3) (slot-ref o 4) (slot-ref o 5)))))
      (make-layout (string-at rt (slot-ref out 1)) (slot-ref out 2) (slot-ref out 3)
                   (cond [(assv (slot-ref out 4) abi-type-kinds) => cdr] [else 'opaque])
                   fields m)))

  (define (find-layout-in rt m name)
    (let ([v (module-layouts rt m)])
      (let loop ([k 0])
        (cond [(= k (vector-length v)) #f]
              [(string=? (nccc-layout-name (vector-ref v k)) name) (vector-ref v k)]
              [else (loop (+ k 1))]))))

  (define (nccc-layout rt qualified)
    (check-rt 'nccc-layout rt)
    (let-values ([(m name) (split-qualified rt 'nccc-layout qualified)])
      (or (find-layout-in rt m name)
          (misuse 'nccc-layout "no such type" qualified))))

  (define (nccc-layout-field layout name)
    (unless (nccc-layout? layout) (misuse 'nccc-layout-field "not a layout" layout))
    (let ([v (nccc-layout-fields layout)])
      (let loop ([k 0])
        (cond [(= k (vector-length v))
               (misuse 'nccc-layout-field "no such field" (nccc-layout-name layout) name)]
              [(equal? (nccc-field-name (vector-ref v k)) name) (vector-ref v k)]
              [else (loop (+ k 1))]))))

  (define (module-constants rt m)
    (let-values ([(name n-fns n-types n-consts) (module-info rt m)])
      (if (not name)
          '#()
          (cached rt runtime-constants runtime-constants-set! m name
                  (lambda ()
                    (let ([v (make-vector n-consts)])
                      (do ([c 0 (+ c 1)]) ((= c n-consts) v)
                        (let* ([o (builtin rt 'nccc-constant B-MODULE-CONSTANT 3 m c)]
                               [code (string-at rt (slot-ref o 2))])
                          (vector-set! v c (vector (string-at rt (slot-ref o 1))
                                                   (decode-constant rt code (slot-ref o 3))))))))))))

  (define (decode-constant rt code slot)
    (let-values ([(items _) (parse-signature 'nccc-constant (string-append code ":"))])
      (if (and (= 1 (length items)) (char? (car items)))
          (decode rt (car items) slot)
          slot)))

  (define (nccc-constants rt module)
    (check-rt 'nccc-constants rt)
    (let ([m (module-find rt 'nccc-constants module)])
      (unless m (misuse 'nccc-constants "no such module" module))
      (vector-map (lambda (e) (vector (vector-ref e 0) (vector-ref e 1)))
                  (module-constants rt m))))

  (define (nccc-constant rt qualified)
    (check-rt 'nccc-constant rt)
    (let-values ([(m name) (split-qualified rt 'nccc-constant qualified)])
      (let ([v (module-constants rt m)])
        (let loop ([k 0])
          (cond [(= k (vector-length v)) (misuse 'nccc-constant "no such constant" qualified)]
                [(string=? (vector-ref (vector-ref v k) 0) name) (vector-ref (vector-ref v k) 1)]
                [else (loop (+ k 1))])))))

  ;; Struct codes get their size from the layout table of module m (the
  ;; function's own), else of any module, else from an explicit :N.
  (define (resolve-items rt who items m)
    (map (lambda (item)
           (if (not (sref? item))
               item
               (let* ([name (sref-name item)]
                      [layout (or (and m (find-layout-in rt m name))
                                  (let loop ([k 0] [n (- (module-count rt) 1)])
                                    (and (< k n)
                                         (or (find-layout-in rt k name) (loop (+ k 1) n)))))])
                 (cond
                  [(and layout (memq (nccc-layout-kind layout) '(struct union)))
                   (let ([slots (slots-of (nccc-layout-size layout))])
                     (when (and (sref-slots item) (not (= slots (sref-slots item))))
                       (misuse who "struct slot count disagrees with its layout" name))
                     (make-sref name slots (nccc-layout-size layout) layout))]
                  [(sref-slots item)
                   (make-sref name (sref-slots item) (* 8 (sref-slots item)) #f)]
                  [else (misuse who "no layout for struct type" name)]))))
         items))

  ;; ---- structs as bytevectors ----------------------------------------------

  (define (nccc-make-struct layout)
    (unless (nccc-layout? layout) (misuse 'nccc-make-struct "not a layout" layout))
    (make-bytevector (nccc-layout-size layout) 0))

  ;; -> (values offset element-size code) of element index of field name
  (define (field-place who layout bv name index)
    (unless (nccc-layout? layout) (misuse who "not a layout" layout))
    (unless (and (bytevector? bv) (= (bytevector-length bv) (nccc-layout-size layout)))
      (misuse who "not a bytevector of the layout's size" bv))
    (let* ([f (nccc-layout-field layout name)]
           [count (nccc-field-count f)]
           [esize (div (nccc-field-size f) (max count 1))])
      (unless (and (exact-int? index) (< -1 index count))
        (misuse who "field index out of range" name index))
      (values (+ (nccc-field-offset f) (* index esize)) esize (nccc-field-code f))))

  (define (nccc-struct-ref layout bv name . index)
    (let-values ([(offset size code)
                  (field-place 'nccc-struct-ref layout bv name (if (null? index) 0 (car index)))])
      (let ([c (string-ref code 0)] [e (native-endianness)])
        (case c
          [(#\f) (bytevector-ieee-single-ref bv offset e)]
          [(#\d) (bytevector-ieee-double-ref bv offset e)]
          [(#\?) (not (= 0 (bytevector-u8-ref bv offset)))]
          [(#\{) (let ([sub (make-bytevector size)])
                   (bytevector-copy! bv offset sub 0 size)
                   sub)]
          [else (if (code-signed? c)
                    (bytevector-sint-ref bv offset e size)
                    (bytevector-uint-ref bv offset e size))]))))

  (define (nccc-struct-set! layout bv name value . index)
    (let-values ([(offset size code)
                  (field-place 'nccc-struct-set! layout bv name (if (null? index) 0 (car index)))])
      (let ([c (string-ref code 0)] [e (native-endianness)])
        (case c
          [(#\f #\d)
           (unless (real? value)
             (misuse/kind 'nccc-struct-set! 'type "not a real number for the field" name value))
           (if (char=? c #\f)
               (bytevector-ieee-single-set! bv offset (inexact value) e)
               (bytevector-ieee-double-set! bv offset (inexact value) e))]
          [(#\?)
           (unless (boolean? value) (misuse 'nccc-struct-set! "not a boolean" name value))
           (bytevector-u8-set! bv offset (if value 1 0))]
          [(#\{)
           (unless (and (bytevector? value) (= size (bytevector-length value)))
             (misuse 'nccc-struct-set! "not a bytevector of the field's size" name value))
           (bytevector-copy! value 0 bv offset size)]
          [else
           (let* ([signed (code-signed? c)]
                  [lo (if signed (- (expt 2 (- (* 8 size) 1))) 0)]
                  [hi (- (expt 2 (if signed (- (* 8 size) 1) (* 8 size))) 1)])
             (unless (exact-int? value)
               (misuse/kind 'nccc-struct-set! 'type "not an exact integer for the field" name value))
             (unless (<= lo value hi)
               (misuse/kind 'nccc-struct-set! 'range "value out of the field's range" name value))
             (if signed
                 (bytevector-sint-set! bv offset value e size)
                 (bytevector-uint-set! bv offset value e size)))])))))
