#!r6rs
;;; nccc/private/module.sls — (nccc private module): the support library
;;; of the libraries nccc-stubgen generates (docs/SCHEME.md, "Generated
;;; modules"). A generated library is data, its binding records
;;; (docs/BINDING.md, as quoted alists), and one call of make-module;
;;; make-module reads its tables off the records and keeps them,
;;; module-bind! looks every function up once, checks its signature,
;;; reads the constants and has the binder (nccc private binder) make
;;; each function's procedure from its record, with the owner's closure
;;; group for the functions of a closure set, [bytes] copies and
;;; procedures made callbacks around it.
(library (nccc private module)
  (export make-module module-procedures module-bind! module-runtime module-constant
          module-layout module-callback module-callback-signature module-procedure
          module-new module-view)
  (import (rnrs) (nccc abi) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private registry) (nccc private callbacks)
          (nccc private calls) (nccc private records) (nccc private cdata)
          (nccc private buffers) (nccc private memory)
          (nccc private args) (nccc private binder))

  ;; ---- a generated library's state ----------------------------------------

  ;; Read off the module's records (make-module below):
  ;; name: the module's registry name; functions: #(#(name signature ...)),
  ;; one signature or one per target (stubgen/host.py); callbacks the
  ;; same for callback types; constants: #(name ...); records: per
  ;; function, its binding record; owned: the functions with
  ;; owned results, each (name #(out-index destructor-name string?) ...).
  ;; procedures: per function, what the library's name for it calls.
  ;; bound: #(runtime constant-values targets) once bound, else #f.
  ;; Callbacks and closure sets (docs/SCHEME.md, "Generated modules"):
  ;; values: #(#(callback-type descriptions ...)), the value descriptions
  ;; of callback types (docs/BINDING.md: one list, or one per target, of
  ;; alists); sets: #(#(set #(member type) ...));
  ;; closures: ((function set owner ((slot . member) ...) context-slot-or-#f)
  ;; ...), slots counted from 1; frees: ((function set ...) ...); groups:
  ;; per set, the owners' groups by address. objects: its C object
  ;; classes (nccc private cdata).
  (define-record-type (module make-module* module?)
    (fields name functions callbacks constants records owned procedures (mutable bound)
            values sets closures frees groups bytes procs objects))

  ;; (make-module records): the module of a generated library: its
  ;; binding records (docs/BINDING.md, as quoted alists: an object is an
  ;; alist, an array a list). The tables above are read off the records
  ;; here, once.
  (define (make-module records)
    (let ([functions (described records 'functions)]
          [callbacks (described records 'callbacks)])
      (make-module** (described records 'module)
                     (list->vector (map signature-row functions))
                     (list->vector (map signature-row callbacks))
                     (list->vector (described records 'constants))
                     (list->vector functions)
                     (filter pair? (map owned-row functions))
                     (list->vector
                      (map (lambda (c) (list->vector (cons (described c 'name) (described c 'values))))
                           (filter (lambda (c) (described c 'values)) callbacks)))
                     (list->vector
                      (map (lambda (s)
                             (list->vector
                              (cons (described s 'name)
                                    (map (lambda (mb) (vector (described mb 'name) (described mb 'callback)))
                                         (described s 'members)))))
                           (described records 'closure_sets)))
                     (filter pair? (map closures-row functions))
                     (map (lambda (f) (cons (described f 'name) (described f 'frees)))
                          (filter (lambda (f) (described f 'frees)) functions))
                     (filter pair? (map bytes-row functions))
                     (filter pair? (map procs-row functions))
                     (new-objects (described records 'module) (or (described records 'layouts) '())))))

  (define (make-module** name functions callbacks constants records owned values sets
                         closures frees bytes procs objects)
    (let* ([n (vector-length functions)] [m #f] [procedures (make-vector n #f)]
           [groups (map (lambda (s) (cons (vector-ref s 0) (make-eqv-hashtable)))
                        (vector->list sets))])
      (set! m (make-module* name functions callbacks constants records owned procedures #f
                            values sets closures frees groups bytes procs objects))
      ;; until bound, a procedure that raises "not bound"; a reference to
      ;; it kept from then calls the bound one later
      (do ([k 0 (+ k 1)]) ((= k n) m)
        (let ([who (string->symbol (qualified m (vector-ref (vector-ref functions k) 0)))] [k k])
          (vector-set! procedures k
                       (lambda args
                         (bound-state m who)
                         (apply (vector-ref procedures k) args)))))))

  (define (bound-state m who)
    (or (module-bound m)
        (error who (string-append "the library is not bound: call " (module-name m)
                                  "-bind! first")
               (module-name m))))

  (define (qualified m name) (string-append (module-name m) "." name))

  ;; An entry's signature on target t (its only one when it has one).
  (define (signature-of entry t)
    (vector-ref entry (if (= (vector-length entry) 2) 1 (+ t 1))))

  ;; The targets an entry may carry one signature each for (the ABI's
  ;; targets: data models by plain-char signednesses).
  (define all-targets (iota-from 0 (vector-length abi-targets)))

  (define (bind-who m) (string->symbol (string-append (module-name m) "-bind!")))

  ;; A library made by nccc_add_bindings(... SHARED) exports
  ;; nccc_<module>_open (":i", out[0] = status), which initialises the
  ;; runtime and registers the module unless present: bind calls it first
  ;; when the library has it, so the lookups find the module.
  (define (open-module! m rt)
    (let* ([entry (string-append "nccc_" (module-name m) "_open")]
           [address (nccc-symbol rt entry)])
      (when address
        (let ([st (nccc-call (nccc-function-at rt address ":i"))])
          (unless (= st 0)
            (error (bind-who m) (string-append entry " failed") st))))))

  ;; Looks every function up once and keeps the targets whose signatures
  ;; the library's agree with; reads the constants; makes the procedures.
  (define (module-bind! m rt)
    (open-module! m rt)
    (let* ([entries (module-functions m)] [n (vector-length entries)]
           [fns (make-vector n #f)])
      (let loop ([k 0] [targets all-targets])
        (if (< k n)
            (let* ([entry (vector-ref entries k)]
                   [name (qualified m (vector-ref entry 0))]
                   [f (nccc-lookup rt name)]
                   [sig (nccc-function-signature f)]
                   [keep (filter (lambda (t) (string=? (signature-of entry t) sig)) targets)])
              (when (null? keep)
                (error (bind-who m)
                       (string-append "the library's signature is not the one "
                                      (module-name m) ".sls was generated with")
                       name sig))
              (vector-set! fns k f)
              (loop (+ k 1) keep))
            (let* ([values (nccc-constants rt (module-name m))]
                   [remote? (vector-exists (lambda (c) (string=? (vector-ref c 0)
                                                                 abi-rpc-bound-marker))
                                           values)])
              (module-bound-set!
               m (vector rt (vector-map (lambda (c) (constant-value m values c))
                                        (module-constants m))
                         targets))
              (do ([k 0 (+ k 1)]) ((= k n))
                (let ([proc (with-procedures m k (with-bytes m k rt
                              (with-sets m k (vector-ref fns k)
                                         (make-procedure m rt (vector-ref fns k)
                                                         (vector-ref (module-records m) k)
                                                         (owned-results m k)))))])
                  (vector-set! (module-procedures m) k
                               (if remote? (remote-checked rt (vector-ref fns k) proc)
                                   proc)))))))))

  ;; The row of function k in rows (an alist by function name), or #f.
  (define (row-of-function m k rows)
    (assoc (vector-ref (vector-ref (module-functions m) k) 0) rows))

  ;; proc taking a bytevector for each [bytes] argument of function k
  ;; (nccc private buffers).
  (define (with-bytes m k rt proc)
    (let ([row (row-of-function m k (module-bytes m))])
      (if row (with-buffers rt (string->symbol (qualified m (car row))) row proc) proc)))

  ;; proc taking a plain procedure for each closure parameter of one
  ;; callback type of function k: made a callback of the parameter's
  ;; scope (released as that scope says).
  (define (with-procedures m k proc)
    (let ([row (row-of-function m k (module-procs m))])
      (if (not row)
          proc
          (lambda args
            (apply proc (map-args args (lambda (a i) (and (procedure? a) (assv i (cdr row))))
                                  (lambda (a i)
                                    (let ([spec (cdr (assv i (cdr row)))])
                                      (module-callback m (car spec) (cadr spec) a)))))))))

  (define (vector-exists pred v)
    (let loop ([k 0])
      (and (< k (vector-length v)) (or (pred (vector-ref v k)) (loop (+ k 1))))))

  ;; proc calling f of a module bound from a device (it has the constant
  ;; abi-rpc-bound-marker; docs/RPC.md, "Calling through a bound
  ;; module"): a failure of the remote call itself (the link, a timeout, a
  ;; restart, a request too big) leaves zeroed results and shows only as
  ;; the thread's last error, so it is cleared before each call and such
  ;; a failure raised after it, kind remote.
  (define (remote-checked rt f proc)
    (lambda args
      (builtin/status rt B-CLEAR-ERROR (make-slots 0) 0)
      (call-with-values (lambda () (apply proc args))
        (lambda results
          (let-values ([(st out) (builtin/status rt B-LAST-ERROR (make-slots 0) 2)])
            (let* ([status (slot->int #\i (slot-ref out 1))]
                   [failure (and (= st 0) (find (lambda (p) (= (cdr p) status)) rpc-failures))])
              (when failure
                (fail (string->symbol (nccc-function-name f)) status
                      (string-append "remote call failed: "
                                     (or (string-at rt (slot-ref out 2)) "")
                                     " (" (symbol->string (car failure)) ")")))))
          (apply values results)))))

  (define (owned-results m k)
    (let ([hit (assoc (vector-ref (vector-ref (module-functions m) k) 0) (module-owned m))])
      (if hit (cdr hit) '())))

  ;; A function's procedure, made by the binder from its record, given
  ;; the destructor of each owned result in out order. An owned string
  ;; result is read as an address (then copied and freed), so the
  ;; function is called with p in its place.
  (define (make-procedure m rt f record owned)
    (let loop ([os owned] [f f] [results '()])
      (if (null? os)
          (function-procedure record f (reverse results)
                              (lambda (name) (cdr (vector->list (row-of (module-callbacks m) name)))))
          (let* ([o (car os)] [name (vector-ref o 1)] [d (owner-destructor m rt name)])
            (loop (cdr os)
                  (if (vector-ref o 2)
                      (nccc-function-at rt (nccc-function-address f)
                                        (out-as (nccc-function-signature f) (vector-ref o 0) #\p)
                                        (nccc-function-name f))
                      f)
                  (cons (vector (vector-ref o 0) d (vector-ref o 2) name) results))))))

  ;; sig with the out code at index k replaced by code
  (define (out-as sig k code)
    (let loop ([i 0])
      (if (char=? (string-ref sig i) abi-sig-separator)
          (string-append (substring sig 0 (+ i k 1)) (string code)
                         (substring sig (+ i k 2) (string-length sig)))
          (loop (+ i 1)))))

  ;; A destructor by its name in this module, or by a qualified name.
  (define (destructor m rt name)
    (nccc-lookup rt (if (memv #\. (string->list name)) name (qualified m name))))

  ;; A destructor that frees the owner of a closure set is the module's
  ;; own procedure, so that closing the object releases its groups.
  (define (owner-destructor m rt name)
    (if (assoc name (module-frees m))
        (lambda (a) ((module-procedure m name) a))
        (destructor m rt name)))

  (define (constant-value m values name)
    (let loop ([k 0])
      (cond [(= k (vector-length values))
             (error (bind-who m)
                    "the library has no such constant" (qualified m name))]
            [(string=? (vector-ref (vector-ref values k) 0) name)
             (vector-ref (vector-ref values k) 1)]
            [else (loop (+ k 1))])))

  (define (module-runtime m)
    (vector-ref (bound-state m (string->symbol (string-append (module-name m) "-runtime"))) 0))
  (define (module-constant m k)
    (vector-ref (vector-ref (bound-state m (string->symbol (module-name m))) 1) k))

  (define (module-layout m name) (nccc-layout (module-runtime m) (qualified m name)))

  ;; C objects (docs/SCHEME.md, "C objects"): (M-new name [init]) and
  ;; (M-view name p [count]).
  (define (module-new m name . init)
    (let ([who (string->symbol (string-append (module-name m) "-new"))])
      (unless (<= (length init) 1) (optional-count-error who 1 (+ 1 (length init))))
      (objects-new (module-objects m) (vector-ref (bound-state m who) 0) who name
                   (and (pair? init) (car init)))))
  (define (module-view m name p . count)
    (let ([who (string->symbol (string-append (module-name m) "-view"))])
      (unless (<= (length count) 1) (optional-count-error who 2 (+ 2 (length count))))
      (objects-view (module-objects m) (vector-ref (bound-state m who) 0) who name p
                    (and (pair? count) (car count)))))
  (define (optional-count-error who n got)
    (misuse/kind who 'count (string-append "wrong number of arguments: expects "
                                           (number->string n) " or " (number->string (+ n 1))
                                           " arguments, got " (number->string got))))

  (define (module-callback m name scope proc)
    (nccc-callback (module-runtime m) (module-callback-signature m name) scope
                   (converting m name proc)))

  ;; The signature of a callback type on the bound library's target.
  (define (module-callback-signature m name)
    (let* ([who (string->symbol (string-append (module-name m) "-callback"))]
           [state (bound-state m who)] [types (module-callbacks m)])
      (let loop ([k 0])
        (cond [(= k (vector-length types))
               (misuse/kind who 'unknown "no such callback type" (qualified m name))]
              [(string=? (vector-ref (vector-ref types k) 0) name)
               (signature-of (vector-ref types k) (car (vector-ref state 2)))]
              [else (loop (+ k 1))]))))

  ;; A function's procedure by its name, or #f.
  (define (module-procedure m name)
    (let ([entries (module-functions m)])
      (let loop ([k 0])
        (cond [(= k (vector-length entries)) #f]
              [(equal? (vector-ref (vector-ref entries k) 0) name)
               (vector-ref (module-procedures m) k)]
              [else (loop (+ k 1))]))))

  ;; ---- callback values ---------------------------------------------------------

  (define (row-of rows name)
    (let loop ([k 0])
      (cond [(= k (vector-length rows)) #f]
            [(string=? (vector-ref (vector-ref rows k) 0) name) (vector-ref rows k)]
            [else (loop (+ k 1))])))

  ;; proc with the arguments callback type name's value descriptions
  ;; (docs/BINDING.md, "Value descriptions") turned into strings,
  ;; bytevectors and vectors; a buffer to fill ("fill") is a bytevector
  ;; of its bytes, copied back into C's buffer when proc returns. They
  ;; are read in the module's memory (nccc private memory), found at the
  ;; first non-NULL one: this process's, or the device's for a module
  ;; bound from one, whose addresses the device passes.
  (define (converting m name proc)
    (let ([row (row-of (module-values m) name)])
      (if (not row)
          proc
          (let* ([specs (signature-of row (car (vector-ref (module-bound m) 2)))]
                 [rt (module-runtime m)] [who (string->symbol (qualified m name))] [mem #f]
                 [memory (lambda ()
                           (unless mem (set! mem (module-memory rt who (module-name m))))
                           mem)])
            (lambda args
              (let* ([v (list->vector args)]
                     [fills (fold-left (lambda (acc spec)
                                         (let ([back (convert-arg! memory who v spec)])
                                           (if back (cons back acc) acc)))
                                       '() specs)])
                (if (null? fills)
                    (apply proc (vector->list v))
                    (call-with-values (lambda () (apply proc (vector->list v)))
                      (lambda results
                        (for-each (lambda (back) (back)) fills)
                        (apply values results))))))))))

  ;; spec: ((arg . k) (kind . "string", "bytes" or "array") (code . C)
  ;; (stride . S) (count (arg . j) or (fixed . n) or (zero_terminated
  ;; . #t)) (fill . #t)); (memory) the memory they are in. -> a thunk
  ;; copying a filled bytevector back to C, or #f.
  (define (convert-arg! memory who v spec)
    (let* ([k (- (described spec 'arg) 1)] [p (vector-ref v k)]
           [count (described spec 'count)]
           [n (cond [(described count 'arg) => (lambda (j) (vector-ref v (- j 1)))]
                    [else (described count 'fixed)])]
           [kind (described spec 'kind)])
      (if (or (not p) (eqv? p 0))
          #f
          (let ([mem (memory)])
            (cond [(string=? kind "string") (vector-set! v k (utf8->string (memory-read mem p n))) #f]
                  [(not (string=? kind "bytes"))
                   (vector-set! v k (read-elements mem who p (described spec 'code)
                                                   (described spec 'stride) n))
                   #f]
                  [else
                   (let ([bv (memory-read mem p n)])
                     (vector-set! v k bv)
                     (and (described spec 'fill)
                          (lambda () (memory-write mem p bv))))])))))

  ;; A pointer element on a device has the device's size, whatever
  ;; target's description the module chose.
  (define (read-elements mem who p code given-stride n)
    (define stride (or (and (member code '("p" "s")) (memory-pointer-bytes mem)) given-stride))
    (let loop ([i 0] [acc '()])
      (if (and n (= i n))
          (list->vector (reverse acc))
          (let ([x (memory-peek mem who (string-ref (if (string=? code "s") "p" code) 0)
                                (+ p (* i stride)) stride)])
            (if (and (not n) (or (not x) (eqv? x 0)))
                (list->vector (reverse acc))
                (loop (+ i 1)
                      (cons (if (and (string=? code "s") x (not (eqv? x 0)))
                                (memory-string mem x)
                                x)
                            acc)))))))

  ;; ---- closure sets --------------------------------------------------------------

  ;; The owner's group of closure set name, claimed on first use (scope
  ;; forever): member k calls the procedure registered for it. -> (values
  ;; group claimed-now?)
  (define (owner-group m name who owner position)
    (let* ([rt (module-runtime m)]
           [key (arg-pointer who position owner #f)]
           [table (cdr (assoc name (module-groups m)))]
           [g (hashtable-ref table key #f)])
      (if (and g (nccc-callback-live? (vector-ref g 0)))
          (values g #f)
          (let* ([members (cdr (vector->list (row-of (module-sets m) name)))]
                 [procs (make-vector (length members) #f)]
                 [member-proc
                  (lambda (k type)
                    (converting m type
                                (lambda args
                                  (let ([p (vector-ref procs k)])
                                    (if p
                                        (apply p args)
                                        (error who "closures: no procedure for member" name k))))))]
                 [pairs (let loop ([k 0] [ms members] [acc '()])
                          (if (null? ms)
                              (reverse acc)
                              (let ([type (vector-ref (car ms) 1)])
                                (loop (+ k 1) (cdr ms)
                                      (cons (member-proc k type)
                                            (cons (module-callback-signature m type) acc))))))]
                 [g (vector (apply nccc-callback-group rt 'forever 0 pairs) procs)])
            (hashtable-set! table key g)
            (values g #t)))))

  ;; proc of function k, with the owner's group in the slots of its closure
  ;; set (the context slot is no argument) and the groups of an owner it
  ;; frees released after it returns.
  (define (with-sets m k f proc)
    (let* ([name (vector-ref (vector-ref (module-functions m) k) 0)]
           [who (string->symbol (qualified m name))]
           [spec (assoc name (module-closures m))]
           [frees (assoc name (module-frees m))]
           [proc (if spec (with-group m who (in-count who f) proc (cdr spec)) proc)])
      (if frees
          (lambda (owner . rest)
            (call-with-values (lambda () (apply proc owner rest))
              (lambda results
                (release-groups m who owner (cdr frees))
                (apply values results))))
          proc)))

  ;; The number of in items (arguments) of f.
  (define (in-count who f)
    (let-values ([(ins outs) (parse-signature who (nccc-function-signature f))])
      (length (remq 'rest ins))))

  ;; A procedure argument of a set: a procedure or #f (NULL).
  (define (set-procedure who position p)
    (unless (or (not p) (procedure? p))
      (misuse/kind who 'type (string-append "bad argument #" (number->string position)
                                             ": expected a procedure")
                   p))
    p)

  ;; Every argument of the set is checked before the owner's group is
  ;; claimed; a group claimed by this call is released when the call is
  ;; refused before C runs (nothing in C has it yet).
  (define (with-group m who n-in proc spec)
    (let ([set (car spec)] [owner (cadr spec)] [members (caddr spec)]
          [context (cadddr spec)])
      (lambda given
        (let ([want (if context (- n-in 1) n-in)])
          (unless (= (length given) want)
            (release-refused given)
            (count-error who want #f (length given))))
        (let* ([args (list->vector
                      (if context
                          (let loop ([i 1] [g given])
                            (cond [(= i context) (cons #f (loop (+ i 1) g))]
                                  [(null? g) '()]
                                  [else (cons (car g) (loop (+ i 1) (cdr g)))]))
                          given))]
               [at (lambda (slot) (vector-ref args (- slot 1)))]
               [procs (map (lambda (sm) (set-procedure who (car sm) (at (car sm)))) members)])
          (let-values ([(g fresh) (owner-group m set who (at owner) owner)])
            (for-each (lambda (sm p)
                        (vector-set! (vector-ref g 1) (cdr sm) p)
                        (vector-set! args (- (car sm) 1) (and p (vector-ref g 0))))
                      members procs)
            (when context (vector-set! args (- context 1) (vector-ref g 0)))
            (if fresh
                (guard (e [(refusal? e) (nccc-release (vector-ref g 0)) (raise e)])
                  (apply proc (vector->list args)))
                (apply proc (vector->list args))))))))

  (define (release-groups m who owner sets)
    (let ([key (arg-pointer who 1 owner #t)])
      (for-each (lambda (set)
                  (let* ([table (cdr (assoc set (module-groups m)))]
                         [g (hashtable-ref table key #f)])
                    (when g
                      (hashtable-delete! table key)
                      (nccc-release (vector-ref g 0)))))
                sets))))
