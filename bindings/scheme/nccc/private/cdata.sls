#!r6rs
;;; nccc/private/cdata.sls — (nccc private cdata): C objects
;;; (docs/SCHEME.md, "C objects"), records in C memory whose fields are
;;; read and written by name, made from a generated library's layout
;;; records (docs/BINDING.md, "A layout": which field holds which record,
;;; which fields are arrays, which hold text) and the library's layout
;;; table (sizes and offsets from the C compiler). An object made by new
;;; owns its memory through an owned record (nccc private calls: freed by
;;; nccc-close, or by the guardian once nothing reaches it); the views of
;;; its fields share that record, so they keep the memory alive and
;;; freeing it stops them all. Every field access is a peek or poke of
;;; the module's memory (nccc private memory: this process's, or the
;;; device's for a module bound from one) at the field's address, the
;;; value checked before it is written.
(library (nccc private cdata)
  (export new-objects objects-new objects-view keeper keep!
          nccc-ref nccc-set! nccc-cdata-record nccc-cdata-address nccc-cdata-length nccc-cdata-bytes
          nccc-cdata-live?)
  (import (rnrs) (nccc abi) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private registry) (nccc private calls)
          (nccc private records) (nccc private memory))

  ;; ---- classes, made from the layout records ------------------------------

  ;; A module's C object classes: module, its name; layouts, its layout
  ;; records; rt and classes (name -> class), made on the first new or
  ;; view with a runtime (again with another runtime), in the module's
  ;; memory there.
  (define-record-type (objects new-objects* objects?)
    (fields module layouts (mutable rt) (mutable classes)))
  (define (new-objects module layouts) (new-objects* module layouts #f #f))

  ;; A struct or union: name ("cd_event"), what ("cdata.cd_event"), size,
  ;; fields (symbol -> field), order (its fields in the table's order),
  ;; array (the type of a view of several), mem (its memory).
  (define-record-type class (fields name what size fields (mutable order) (mutable array) mem))

  ;; A field of class of: element, a class, a code character (#\p for
  ;; every pointer code) or #f (a record of no class); count, its
  ;; elements; array, its array type when it is an array, else #f; text,
  ;; the layout's text description of it, or #f.
  (define-record-type field (fields name offset size count (mutable element) (mutable array)
                                    text of))

  ;; What an array holds: element (a class or a code character), step
  ;; (an element's size), what (for messages) and mem.
  (define-record-type array-type (fields element step what mem))

  ;; Element index of an array of scalars, as a place.
  (define-record-type element (fields type index))

  (define (field-what f)
    (string-append "field '" (field-name f) "' of " (class-what (field-of f))))

  (define (classes-of objs rt who)
    (unless (eq? rt (objects-rt objs))
      (let ([m (module-find rt who (objects-module objs))])
        (objects-classes-set!
         objs (make-classes objs rt m (and m (module-memory rt who (objects-module objs)))))
        (objects-rt-set! objs rt)))
    (objects-classes objs))

  ;; The classes of the module's structs and unions that the library's
  ;; layout table holds (module index m), each record field resolved to
  ;; the class its layout record names.
  (define (make-classes objs rt m mem)
    (let ([table (make-hashtable string-hash string=?)])
      (for-each
       (lambda (rec)
         (let ([layout (and m (member (described rec 'kind) '("struct" "union"))
                            (find-layout-in rt m (described rec 'name)))])
           (when layout
             (hashtable-set! table (described rec 'name) (make-class* objs mem rec layout)))))
       (objects-layouts objs))
      (vector-for-each
       (lambda (c) (vector-for-each (lambda (f) (resolve! table f))
                                    (values-of (class-fields c))))
       (values-of table))
      table))

  (define (values-of table)
    (let-values ([(keys values) (hashtable-entries table)]) values))

  (define (make-class* objs mem rec layout)
    (let* ([what (string-append (objects-module objs) "." (nccc-layout-name layout))]
           [fields (make-eq-hashtable)]
           [c (make-class (nccc-layout-name layout) what (nccc-layout-size layout) fields '() #f
                          mem)]
           [records (or (described rec 'records) '())]
           [arrays (or (described rec 'arrays) '())]
           [texts (or (described rec 'texts) '())])
      (vector-for-each
       (lambda (f)
         (let* ([name (nccc-field-name f)] [key (string->symbol name)]
                [record (assq key records)] [code (string-ref (nccc-field-code f) 0)])
           (hashtable-set!
            fields key
            (make-field name (nccc-field-offset f) (nccc-field-size f) (nccc-field-count f)
                        (cond [record (cdr record)]
                              [(memv code '(#\p #\s #\F #\c)) #\p]
                              [(char=? code #\{) #f]
                              [else code])
                        (or (and (member name arrays) #t) (> (nccc-field-count f) 1))
                        (find (lambda (t) (equal? (described t 'field) name)) texts)
                        c))))
       (nccc-layout-fields layout))
      (class-order-set! c (map (lambda (f) (hashtable-ref fields (string->symbol (nccc-field-name f)) #f))
                               (vector->list (nccc-layout-fields layout))))
      (class-array-set! c (make-array-type c (class-size c) (string-append "a view of " what) mem))
      c))

  (define (resolve! table f)
    (let ([e (field-element f)])
      (when (string? e) (field-element-set! f (hashtable-ref table e #f))))
    (when (field-array f)
      (field-array-set! f (make-array-type (field-element f)
                                           (div (field-size f) (max 1 (field-count f)))
                                           (field-what f) (class-mem (field-of f))))))

  (define (class-named objs rt who name)
    (or (and (string? name) (hashtable-ref (classes-of objs rt who) name #f))
        (misuse/kind who 'unknown (string-append "bad argument #1: a struct or union of "
                                                 (objects-module objs) " expected")
                     name)))

  ;; ---- new and view ---------------------------------------------------------

  ;; The state of an object made by new: an owned record that also holds
  ;; kept, what the library keeps of arguments ((key . address) ...,
  ;; C memory freed with the object).
  (define-record-type holder (parent owned) (fields (mutable kept)))

  ;; A zeroed object of layout name in memory of its size, owned: freed
  ;; by nccc-close or once unreachable; init (a bytevector of its size or
  ;; a C object of its layout) copied in, unless #f.
  (define (objects-new objs rt who name init)
    (let* ([c (class-named objs rt who name)] [size (class-size c)] [mem (class-mem c)]
           [a (memory-alloc mem (max size 1))])
      (memory-write mem a (make-bytevector size 0))
      (letrec ([state (make-holder a (lambda (p)
                                       (for-each (lambda (k) (memory-free mem (cdr k)))
                                                 (holder-kept state))
                                       (holder-kept-set! state '())
                                       (memory-free mem p))
                                   (class-name c) '())])
        (let ([obj (make-cdata c a #f (guard-owned! state) #t)])
          (when init (copy-in/restore! who c a size init (class-what c)))
          obj))))

  ;; A view of the record (or of count records) at p, which never frees:
  ;; p a non-NULL address (nccc-close then only stops the view) or a C
  ;; object (the view shares its memory and its fate).
  (define (objects-view objs rt who name p count)
    (let ([c (class-named objs rt who name)])
      (unless (or (not count) (and (exact-int? count) (>= count 0)))
        (misuse/kind who 'type "bad argument #3: a count expected" count))
      (let-values ([(a state root?)
                    (cond [(nccc-cdata? p)
                           (values (cdata-live-address who p "bad argument #2: the ")
                                   (cdata-state p) #f)]
                          [(and (exact-int? p) (< 0 p two^64))
                           (values p (make-owned p (lambda (a) #f) (class-name c)) #t)]
                          [else (misuse/kind who (if (memv p '(0 #f)) 'null 'type)
                                             "bad argument #2: a non-NULL address or a C object expected"
                                             p)])])
        (if count
            (make-cdata (class-array c) a count state root?)
            (make-cdata c a #f state root?)))))

  ;; The state that holds what the library keeps of argument position
  ;; for owner v, a C object made by new (or a view taken from one); else
  ;; raises, kind type (closed when freed).
  (define (keeper who v position)
    (let ([arg (string-append "bad argument #" (number->string position) ": ")])
      (unless (and (nccc-cdata? v) (holder? (cdata-state v)))
        (misuse/kind who 'type (string-append arg "a C object made by new expected (it holds"
                                              " what the library keeps)")
                     v))
      (cdata-live-address who v (string-append arg "the "))
      (cdata-state v)))

  ;; state holds p (memory mem's, the object's) for key from now on, and
  ;; frees what it held for key before; p is freed at once when state's
  ;; object was freed.
  (define (keep! mem state key p)
    (if (nccc-owned-address state)
        (let ([old (assoc key (holder-kept state))])
          (when old (memory-free mem (cdr old)))
          (holder-kept-set! state (cons (cons key p) (remp (lambda (k) (equal? (car k) key))
                                                            (holder-kept state)))))
        (memory-free mem p)))

  ;; ---- fields by name ---------------------------------------------------------

  (define (check-object who obj)
    (unless (nccc-cdata? obj) (misuse/kind who 'type "not a C object" obj)))

  ;; Where path leads from obj: (values type address count), type a
  ;; class (a record), an array type (count elements), a field (a scalar
  ;; or text) or an element (of an array of scalars).
  (define (walk who obj path)
    (check-object who obj)
    (let loop ([type (cdata-type obj)] [a (cdata-live-address who obj "")]
               [n (cdata-count obj)] [path path])
      (cond
       [(null? path) (values type a n)]
       [(array-type? type)
        (let ([i (car path)])
          (unless (and (exact-int? i) (< -1 i n))
            (misuse/kind who (if (exact-int? i) 'range 'type)
                         (string-append "index " (if (exact-int? i) (number->string i) "")
                                        (if (exact-int? i) " " "") "out of range 0.."
                                        (number->string (- n 1)) " of " (array-type-what type))
                         i))
          (let ([e (array-type-element type)] [at (+ a (* i (array-type-step type)))])
            (if (class? e)
                (loop e at #f (cdr path))
                (leaf who (make-element type i) at (cdr path)))))]
       [else                            ; a class
        (let* ([f (field-named who type (car path))] [at (+ a (field-offset f))])
          (cond [(field-array f) (loop (field-array f) at (field-count f) (cdr path))]
                [(class? (field-element f)) (loop (field-element f) at #f (cdr path))]
                [(not (field-element f))
                 (misuse/kind who 'field (string-append (field-what f)
                                                        " holds a record of no C object class"))]
                [else (leaf who f at (cdr path))]))])))

  (define (leaf who place a rest)
    (unless (null? rest)
      (misuse/kind who 'field (string-append (place-what place) " holds no fields") (car rest)))
    (values place a #f))

  (define (field-named who c key)
    (or (hashtable-ref (class-fields c) (if (string? key) (string->symbol key) key) #f)
        (misuse/kind who 'field (string-append (class-what c) " has no such field") key)))

  (define (place-what place)
    (if (field? place)
        (field-what place)
        (string-append "element " (number->string (element-index place)) " of "
                       (array-type-what (element-type place)))))
  (define (place-code place)
    (if (field? place) (field-element place) (array-type-element (element-type place))))
  (define (type-mem type)
    (cond [(class? type) (class-mem type)]
          [(array-type? type) (array-type-mem type)]
          [(field? type) (class-mem (field-of type))]
          [else (array-type-mem (element-type type))]))
  (define (type-size type n)
    (cond [(class? type) (class-size type)]
          [(array-type? type) (* n (array-type-step type))]
          [(field? type) (field-size type)]
          [else (array-type-step (element-type type))]))
  (define (type-what type)
    (cond [(class? type) (class-what type)]
          [(array-type? type) (array-type-what type)]
          [else (place-what type)]))

  ;; (nccc-ref obj field-or-index ...): a scalar field's value, a text
  ;; field's string or bytevector, or a view of a record or array.
  (define (nccc-ref obj . path)
    (let-values ([(type a n) (walk 'nccc-ref obj path)])
      (if (or (class? type) (array-type? type))
          (make-cdata type a n (cdata-state obj) #f)
          (read-part type a n #t))))

  ;; A text field (docs/BINDING.md, "texts") at a: #f for NULL, else
  ;; COUNT bytes, as a string or a bytevector by its kind.
  (define (read-text f a)
    (let* ([mem (class-mem (field-of f))] [p (memory-peek mem 'nccc-ref #\p a (field-size f))]
           [text (field-text f)] [count (described text 'count)])
      (if (= p 0)
          #f
          (let* ([n (cond [(described count 'field)
                           => (lambda (name)
                                (let ([g (field-named 'nccc-ref (field-of f) name)])
                                  (memory-peek mem 'nccc-ref (field-element g)
                                               (+ (- a (field-offset f)) (field-offset g))
                                               (field-size g))))]
                          [else (described count 'fixed)])]
                 [bytes (memory-read mem p n)])
            (if (equal? (described text 'kind) "string") (bytes->string bytes) bytes)))))

  ;; (nccc-set! obj field-or-index ... value): writes a scalar field, or
  ;; copies a record or array in from a bytevector of its size or a C
  ;; object of its type; with no field, the whole object.
  (define (nccc-set! obj . path+value)
    (when (null? path+value) (count-error 'nccc-set! 2 #t 1))
    (let* ([rev (reverse path+value)] [value (car rev)])
      (let-values ([(type a n) (walk 'nccc-set! obj (reverse (cdr rev)))])
        (if (or (class? type) (array-type? type))
            (copy-in/restore! 'nccc-set! type a (type-size type n) value (type-what type))
            (poke-at 'nccc-set! type a value)))))

  (define (poke-at who place a v)
    (let* ([c (place-code place)] [arg (string-append (place-what place) ": ")]
           [slot (if (char=? c #\p)
                     (if (or (string? v) (bytevector? v))
                         (misuse/kind who 'type
                                      (string-append arg "an address, #f or a C object expected"
                                                     " (the memory of a "
                                                     (if (string? v) "string" "bytevector")
                                                     " would not outlive the assignment)")
                                      v)
                         (pointer->slot who c v arg))
                     (scalar->slot who c v arg))])
      (memory-poke (type-mem place) who c a (type-size place #f) slot (place-what place))))

  ;; copy-in!, C memory as it was when it refuses a field of a record
  ;; value.
  (define (copy-in/restore! who type a size v what)
    (if (or (pair? v) (null? v) (vector? v))
        (let* ([mem (type-mem type)] [before (memory-read mem a size)])
          (guard (e [#t (memory-write mem a before) (raise e)])
            (copy-in! who type a size v what)))
        (copy-in! who type a size v what)))

  ;; Copies a record or an array in at a (size bytes): from a bytevector,
  ;; from a C object of the same type (a record's class; an array's
  ;; element and size), or from a record value (an alist of fields by
  ;; name, a vector of elements: what is left out is zero).
  (define (copy-in! who type a size v what)
    (let ([mem (type-mem type)])
      (cond
       [(and (class? type) (list? v) (for-all pair? v))
        (memory-write mem a (make-bytevector size 0))
        (for-each (lambda (kv)
                    (let ([f (field-named who type (car kv))])
                      (write-part! who (field-type f) (+ a (field-offset f)) (field-count f)
                                   (cdr kv))))
                  v)]
       [(and (array-type? type) (vector? v))
        (let ([n (div size (array-type-step type))])
          (unless (<= (vector-length v) n)
            (misuse/kind who 'range (string-append what ": at most " (number->string n)
                                                   " elements expected, got "
                                                   (number->string (vector-length v)))
                         v))
          (memory-write mem a (make-bytevector size 0))
          (do ([i 0 (+ i 1)]) ((= i (vector-length v)))
            (let ([e (array-type-element type)] [at (+ a (* i (array-type-step type)))])
              (write-part! who (if (class? e) e (make-element type i)) at #f (vector-ref v i)))))]
       [(bytevector? v)
        (unless (= (bytevector-length v) size)
          (misuse/kind who 'type (string-append what ": " (number->string size)
                                                " bytes expected, got "
                                                (number->string (bytevector-length v)))
                       v))
        (memory-write mem a v)]
       [(and (nccc-cdata? v) (same-type? type size v))
        (memory-write mem a (memory-read mem (cdata-live-address who v "bad argument: the ") size))]
       [else (misuse/kind who 'type (string-append what ": a bytevector, a C object of its type"
                                                   " or a record value expected")
                          v)])))

  ;; Writes v at a, the place of type (count elements of an array).
  (define (write-part! who type a count v)
    (if (or (class? type) (array-type? type))
        (copy-in! who type a (type-size type count) v (type-what type))
        (poke-at who type a v)))

  ;; What a field is as a place: its array type, its record's class, or
  ;; itself (a scalar or a text).
  (define (field-type f)
    (cond [(field-array f)] [(class? (field-element f)) (field-element f)] [else f]))

  ;; (nccc-cdata-record obj step ...): a copy of the record (or of the
  ;; part the steps lead to) as a record value: an alist of its fields
  ;; by name (symbols, in the table's order, every member of a union; a
  ;; record of no class left out), arrays as vectors, scalars as nccc-ref
  ;; reads them, pointers (texts too) as addresses: its bytes, decoded.
  (define (nccc-cdata-record obj . path)
    (let-values ([(type a n) (walk 'nccc-cdata-record obj path)])
      (read-part type a n #f)))

  ;; The value at a of type (n elements of an array): texts? reads a text
  ;; field's text, else its address.
  (define (read-part type a n texts?)
    (cond
     [(class? type)
      (fold-right (lambda (f acc)
                    (if (field-element f)
                        (cons (cons (string->symbol (field-name f))
                                    (read-part (field-type f) (+ a (field-offset f)) (field-count f)
                                               texts?))
                              acc)
                        acc))
                  '() (class-order type))]
     [(array-type? type)
      (let ([e (array-type-element type)] [step (array-type-step type)])
        (do ([v (make-vector n) v] [i 0 (+ i 1)]) ((= i n) v)
          (vector-set! v i (read-part (if (class? e) e (make-element type i)) (+ a (* i step)) #f
                                      texts?))))]
     [(and texts? (field? type) (field-text type)) (read-text type a)]
     [else (memory-peek (type-mem type) 'nccc-cdata-record (place-code type) a
                        (type-size type #f))]))

  (define (same-type? type size v)
    (let ([t (cdata-type v)])
      (if (class? type)
          (and (eq? t type) (not (cdata-count v)))
          (and (array-type? t) (eq? (array-type-element t) (array-type-element type))
               (= (type-size t (cdata-count v)) size)))))

  ;; ---- the object itself ------------------------------------------------------

  (define (nccc-cdata-address obj)
    (check-object 'nccc-cdata-address obj)
    (cdata-live-address 'nccc-cdata-address obj ""))

  (define (nccc-cdata-live? obj)
    (check-object 'nccc-cdata-live? obj)
    (and (nccc-owned-address (cdata-state obj)) #t))

  ;; The elements of an array view.
  (define (nccc-cdata-length obj)
    (check-object 'nccc-cdata-length obj)
    (or (cdata-count obj) (misuse/kind 'nccc-cdata-length 'type "not an array view" obj)))

  ;; A copy of the bytes of obj, or of the part path leads to.
  (define (nccc-cdata-bytes obj . path)
    (let-values ([(type a n) (walk 'nccc-cdata-bytes obj path)])
      (memory-read (type-mem type) a (type-size type n)))))
