#!r6rs
;;; nccc/private/memory.sls — (nccc private memory): the memory the C
;;; objects of a module live in (docs/SCHEME.md, "C objects" and "C
;;; objects on a device"), chosen per module: this process's memory
;;; through the runtime's built-ins, or, for a module M bound from a
;;; device, the device's memory through the module M_memory
;;; (docs/RPC.md, "Calling through a bound module": alloc, free, read,
;;; write), each scalar in the device's byte order (M_memory's constant
;;; big_endian) at the size the device's layout table gives it.
(library (nccc private memory)
  (export module-memory memory-alloc memory-free memory-read memory-write memory-peek
          memory-poke memory-string memory-device? memory-pointer-bytes)
  (import (rnrs) (nccc abi) (nccc private values) (nccc private runtime)
          (nccc private convert) (nccc private registry) (nccc private calls))

  ;; rt, the runtime; device, #f for this process's memory, else the
  ;; memory module's name ("cdata_memory"); order and pointer-bytes, the
  ;; device's endianness and pointer size.
  (define-record-type memory (fields rt device order pointer-bytes))

  ;; Whether mem is a device's memory.
  (define (memory-device? mem) (and (memory-device mem) #t))

  (define (bound-from-device? rt module)
    (exists (lambda (c) (string=? (vector-ref c 0) abi-rpc-bound-marker))
            (vector->list (nccc-constants rt module))))

  ;; The memory of module (found in rt): the device's when the module is
  ;; bound from one (it has the constant abi-rpc-bound-marker), which
  ;; needs its memory bound as module_memory; else this process's.
  (define (module-memory rt who module)
    (if (not (bound-from-device? rt module))
        (make-memory rt #f #f #f)
        (let ([name (string-append module "_memory")])
          (unless (module-find rt who name)
            (misuse/kind who 'remote
                         (string-append module " is bound from a device whose memory is not bound as "
                                        name " (remotes.bind_memory)")))
          (let* ([consts (map vector->list (vector->list (nccc-constants rt name)))]
                 [big (assoc "big_endian" consts)] [pointer (assoc "pointer_bytes" consts)])
            (make-memory rt name (if (and big (not (eqv? (cadr big) 0)))
                                     (endianness big)
                                     (endianness little))
                         (and pointer (cadr pointer)))))))

  ;; Calls function fn of the device's memory module; its results after
  ;; the status, or raises (the runtime's error of that status).
  (define (device-call mem who fn . args)
    (let ([results (call-with-values
                       (lambda () (apply (nccc-procedure (memory-rt mem)
                                                         (string-append (memory-device mem) "." fn))
                                         args))
                     list)])
      (unless (eqv? (car results) 0) (runtime-fail (memory-rt mem) who (car results)))
      (cdr results)))

  ;; A local buffer of n bytes (at least 1) for the duration of (use p).
  (define (with-buffer rt n use)
    (let ([p (nccc-alloc rt (max n 1))])
      (dynamic-wind (lambda () #f) (lambda () (use p)) (lambda () (nccc-free rt p)))))

  (define (memory-alloc mem n)
    (if (memory-device mem)
        (car (device-call mem 'nccc-alloc "alloc" n))
        (nccc-alloc (memory-rt mem) n)))

  (define (memory-free mem a)
    (if (memory-device mem)
        (begin (device-call mem 'nccc-free "free" a) (if #f #f))
        (nccc-free (memory-rt mem) a)))

  ;; n bytes at a, as a bytevector.
  (define (memory-read mem a n)
    (let ([rt (memory-rt mem)])
      (cond [(not (memory-device mem)) (nccc-read rt a n)]
            [(= n 0) (make-bytevector 0)]
            [else (with-buffer rt n (lambda (p)
                                      (device-call mem 'nccc-read "read" a n p)
                                      (nccc-read rt p n)))])))

  (define (memory-write mem a bv)
    (let ([rt (memory-rt mem)] [n (bytevector-length bv)])
      (cond [(not (memory-device mem)) (nccc-write rt a bv)]
            [(= n 0) (if #f #f)]
            [else (with-buffer rt n (lambda (p)
                                      (nccc-write rt p bv)
                                      (device-call mem 'nccc-write "write" a n p)
                                      (if #f #f)))])))

  ;; The C string at a, up to its NUL, as a string.
  (define (memory-string mem a)
    (if (memory-device mem)
        (utf8->string (memory-read mem a (car (device-call mem 'nccc-string-at "strlen" a))))
        (nccc-string-at (memory-rt mem) a)))

  ;; The value of code c (a scalar's, #\p for a pointer) at a, size
  ;; bytes: a number, a boolean for #\?, an address for #\p.
  (define (memory-peek mem who c a size)
    (if (memory-device mem)
        (let ([bv (memory-read mem a size)] [order (memory-order mem)])
          (case c
            [(#\?) (not (= (bytevector-uint-ref bv 0 order size) 0))]
            [(#\f) (bytevector-ieee-single-ref bv 0 order)]
            [(#\d) (bytevector-ieee-double-ref bv 0 order)]
            [else (if (and (not (char=? c #\p)) (code-signed? c))
                      (bytevector-sint-ref bv 0 order size)
                      (bytevector-uint-ref bv 0 order size))]))
        (let ([rt (memory-rt mem)])
          (decode rt c (slot-ref (builtin rt who B-PEEK 1 a (char->integer c)) 1)))))

  ;; Writes slot (the checked value of code c, as the runtime's poke
  ;; takes it) at a, size bytes: on a device an integer is cut to its
  ;; size as C converts it, an address too wide for the device raises
  ;; (kind range) with what, the place's description.
  (define (memory-poke mem who c a size slot what)
    (if (memory-device mem)
        (let ([bv (make-bytevector size 0)] [order (memory-order mem)])
          (case c
            [(#\f) (bytevector-ieee-single-set! bv 0 (slot->double slot) order)]
            [(#\d) (bytevector-u64-set! bv 0 slot order)]
            [(#\p)
             (unless (< slot (expt 2 (* 8 size)))
               (misuse/kind who 'range (string-append what ": an address out of the device's range")
                            slot))
             (bytevector-uint-set! bv 0 slot order size)]
            [else (bytevector-uint-set! bv 0 (mod slot (expt 2 (* 8 size))) order size)])
          (memory-write mem a bv))
        (builtin (memory-rt mem) who B-POKE 0 a (char->integer c) slot))
      (if #f #f)))
