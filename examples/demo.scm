;;; demo.scm — zlib and SQLite from Guile 3 through nccc: the library
;;; nccc_add_bindings(... SHARED) built (examples/CMakeLists.txt) holds the
;;; runtime and the wrappers generated from idl/zlib.idl and
;;; idl/sqlite3.idl; everything below goes
;;; through the R6RS libraries (nccc zlib) and (nccc sqlite3) that
;;; nccc-stubgen generates from the same IDL files, over the portable core
;;; bindings/scheme/nccc/core.sls.
;;;
;;;   GUILE_AUTO_COMPILE=0 guile -L bindings/scheme -L GENERATED demo.scm LIBRARY FILE
;;;
;;; GENERATED holds nccc/zlib.scm and nccc/sqlite3.scm (and their .sls),
;;; tools/demo.sh passes it. Exits 1 on any mismatch.
(use-modules (nccc core) ((nccc zlib) #:prefix zlib:) ((nccc sqlite3) #:prefix sqlite3:)
             (rnrs bytevectors) (rnrs io ports) (srfi srfi-11) (ice-9 format))

(define args (command-line))
(unless (= (length args) 3)
  (format (current-error-port)
          "usage: guile -L bindings/scheme -L GENERATED demo.scm LIBRARY FILE~%")
  (exit 2))
(define libpath (cadr args))
(define file (caddr args))

(define failures 0)
(define (check ok what)
  (unless ok
    (set! failures (+ failures 1))
    (format #t "  MISMATCH: ~a~%" what))
  ok)

(define rt (nccc-load libpath))
;; Each generated library registers its module (nccc_zlib_open,
;; nccc_sqlite3_open) and looks its functions up once; then every function
;; is a procedure and every constant an identifier.
(zlib:zlib-bind! rt)
(sqlite3:sqlite3-bind! rt)

(format #t "nccc runtime ~a, zlib ~a, SQLite ~a~%"
        (call-with-values (lambda () (nccc-version rt)) (lambda (number text) text))
        (zlib:zlibVersion) (sqlite3:sqlite3_libversion))

;;; ---- zlib: compress a real file and back ---------------------------------------

(define (c-copy bv)                     ; bytes in C memory (the caller frees them)
  (let ([p (nccc-alloc rt (max 1 (bytevector-length bv)))])
    (nccc-write rt p bv)
    p))
(define (crc32 p n) (zlib:crc32 (zlib:crc32 0 #f 0) p n))

(newline)
(format #t "== zlib: ~a~%" file)
(define text (call-with-port (open-file-input-port file) get-bytevector-all))
(define n (bytevector-length text))

(define src (c-copy text))
(define bound (zlib:compressBound n))
(define packed (nccc-alloc rt bound))
(define-values (rc packed-len)
  (zlib:compress2 packed bound src n zlib:Z_BEST_COMPRESSION))
(check (= rc zlib:Z_OK) (format #f "compress2 returned ~a" rc))
(define back (nccc-alloc rt n))
(define-values (rc2 back-len) (zlib:uncompress back n packed packed-len))
(check (= rc2 zlib:Z_OK) (format #f "uncompress returned ~a" rc2))

(define crc-in (crc32 src n))
(define crc-out (crc32 back back-len))
(format #t "  original    ~6d bytes  crc32 ~8,'0x~%" n crc-in)
(format #t "  compressed  ~6d bytes  (~,1f% of the original)~%" packed-len
        (* 100.0 (/ packed-len n)))
(format #t "  round trip  ~6d bytes  crc32 ~8,'0x~%" back-len crc-out)
(check (= back-len n) (format #f "round trip has ~a bytes" back-len))
(check (= crc-in crc-out) "crc32 differs")
(check (bytevector=? (nccc-read rt back back-len) text) "round trip bytes differ")
(format #t "  ~a~%" (if (and (= crc-in crc-out) (= back-len n)) "match" "MISMATCH"))
(for-each (lambda (p) (nccc-free rt p)) (list src packed back))

;;; ---- zlib: the same file streamed through a z_stream, 1 KiB at a time ------------

;; A z_stream is a C object (docs/SCHEME.md, "C objects"): zeroed C memory
;; of the layout's size, its fields read and written by name, passed to
;; deflate and inflate as the z_stream * they take.
(define (pump strm step flush-at-end input)
  (let ([in (nccc-alloc rt 1024)] [out (nccc-alloc rt 1024)] [n (bytevector-length input)])
    (let next ([at 0] [pieces '()])
      (let* ([k (min 1024 (- n at))] [last? (= (+ at k) n)] [chunk (make-bytevector k)])
        (bytevector-copy! input at chunk 0 k)
        (when (> k 0) (nccc-write rt in chunk))
        (nccc-set! strm 'next_in in)
        (nccc-set! strm 'avail_in k)
        (let drain ([pieces pieces])
          (nccc-set! strm 'next_out out)
          (nccc-set! strm 'avail_out 1024)
          (let* ([rc (step strm (if last? flush-at-end zlib:Z_NO_FLUSH))]
                 [made (- 1024 (nccc-ref strm 'avail_out))]
                 [pieces (if (> made 0) (cons (nccc-read rt out made) pieces) pieces)])
            (cond [(and (= (nccc-ref strm 'avail_out) 0) (= rc zlib:Z_OK)) (drain pieces)]
                  ;; all input taken (Z_BUF_ERROR: no more to do without more)
                  [(and (not last?) (memv rc (list zlib:Z_OK zlib:Z_BUF_ERROR)))
                   (next (+ at k) pieces)]
                  [else (nccc-free rt in)
                        (nccc-free rt out)
                        (values rc (apply bytevector-append (reverse pieces)))])))))))
(define (bytevector-append . bvs)
  (let ([all (make-bytevector (apply + (map bytevector-length bvs)))])
    (let loop ([bvs bvs] [at 0])
      (if (null? bvs) all
          (begin (bytevector-copy! (car bvs) 0 all at (bytevector-length (car bvs)))
                 (loop (cdr bvs) (+ at (bytevector-length (car bvs)))))))))

(newline)
(format #t "== zlib: ~a through a z_stream, 1 KiB at a time~%" file)
(define deflater (zlib:zlib-new "z_stream_s"))
(check (= (zlib:deflateInit deflater zlib:Z_DEFAULT_COMPRESSION) zlib:Z_OK) "deflateInit")
(define-values (deflated streamed) (pump deflater zlib:deflate zlib:Z_FINISH text))
(format #t "  deflate     ~6d bytes in, ~6d out (total_in ~a, total_out ~a)~%"
        n (bytevector-length streamed) (nccc-ref deflater 'total_in) (nccc-ref deflater 'total_out))
(check (= deflated zlib:Z_STREAM_END) (format #f "deflate returned ~a" deflated))
(zlib:deflateEnd deflater)
(nccc-close deflater)
(define inflater (zlib:zlib-new "z_stream_s"))
(check (= (zlib:inflateInit inflater) zlib:Z_OK) "inflateInit")
(define-values (inflated unstreamed) (pump inflater zlib:inflate zlib:Z_NO_FLUSH streamed))
(zlib:inflateEnd inflater)
(nccc-close inflater)
(check (= inflated zlib:Z_STREAM_END) (format #f "inflate returned ~a" inflated))
(check (bytevector=? unstreamed text) "streamed round trip bytes differ")
(format #t "  inflate     ~6d bytes back: ~a~%" (bytevector-length unstreamed)
        (if (bytevector=? unstreamed text) "match" "MISMATCH"))

;;; ---- SQLite: a table, rows, a row callback and a SQL function in Scheme ---------

(newline)
(format #t "== SQLite (:memory:)~%")
(define SQLITE_OK sqlite3:SQLITE_OK)
;; db is an owned object ([owned(sqlite3_close)] in the IDL): nccc-close
;; closes it, at most once.
(define-values (rc3 db) (sqlite3:sqlite3_open ":memory:"))
(unless (= rc3 SQLITE_OK) (error "sqlite3_open failed" rc3))

;; row: a procedure made into a closure of the IDL's callback type exec_fn
;; (call scope: released when sqlite3_exec returns).
(define* (exec sql #:optional row)
  (let-values ([(r msg) (sqlite3:sqlite3_exec
                         db sql (and row (sqlite3:sqlite3-callback "exec_fn" 'call row)))])
    (unless (= r SQLITE_OK)
      (check #f (format #f "~a: ~a" sql (or msg (sqlite3:sqlite3_errmsg db)))))))

(define planets
  '(("Mercury" 2439.7 0) ("Venus" 6051.8 0) ("Earth" 6371.0 1)
    ("Mars" 3389.5 2) ("Jupiter" 69911.0 95)))
(exec "CREATE TABLE planets (name TEXT, radius_km REAL, moons INTEGER)")
;; stmt is owned too ([owned(sqlite3_finalize)]).
(define-values (rcp stmt tail)
  (sqlite3:sqlite3_prepare_v2 db "INSERT INTO planets VALUES (?, ?, ?)" -1))
(check (= rcp SQLITE_OK) "prepare failed")
(define SQLITE_TRANSIENT (- (expt 2 64) 1)) ; (void (*)(void *))-1: SQLite copies
(for-each
 (lambda (p)
   (let* ([bytes (string->utf8 (car p))] [name (c-copy bytes)])
     (sqlite3:sqlite3_bind_text stmt 1 name (bytevector-length bytes) SQLITE_TRANSIENT)
     (sqlite3:sqlite3_bind_double stmt 2 (cadr p))
     (sqlite3:sqlite3_bind_int64 stmt 3 (caddr p))
     (check (= (sqlite3:sqlite3_step stmt) sqlite3:SQLITE_DONE)
            (string-append "insert " (car p)))
     (sqlite3:sqlite3_reset stmt)
     (nccc-free rt name)))
 planets)
(check (nccc-close stmt) "sqlite3_finalize did not run")
(format #t "  inserted ~a rows with a prepared statement~%" (length planets))

;; Row callback: an alist per row. The IDL's [length=ncols] makes each
;; char ** a vector of ncols addresses; rows are pushed onto the box (a
;; one-element list), newest first.
(define (collector box)
  (lambda (ncols values names)
    (let loop ([k 0] [row '()])
      (if (= k ncols)
          (set-car! box (cons (reverse row) (car box)))
          (let ([v (vector-ref values k)])
            (loop (+ k 1)
                  (cons (cons (nccc-string-at rt (vector-ref names k))
                              (if (or (not v) (eqv? v 0)) "NULL" (nccc-string-at rt v)))
                        row)))))
    0))
(define (field row name) (cdr (assoc name row)))

(define rows (list '()))
(exec "SELECT name, radius_km, moons FROM planets ORDER BY radius_km" (collector rows))
(format #t "  sqlite3_exec, a Scheme row callback:~%")
(for-each (lambda (r)
            (format #t "    ~8a ~9@a km  ~3@a moons~%" (field r "name") (field r "radius_km")
                    (field r "moons")))
          (reverse (car rows)))
(check (= (length (car rows)) (length planets))
       (format #f "the callback saw ~a rows" (length (car rows))))

;; A scalar SQL function in Scheme, of the IDL's callback type sql_func_fn:
;; sphere_area(r) = 4 pi r^2. Its closure is notified: SQLite calls the
;; destroy notify when the connection closes.
(define pi (* 4 (atan 1)))
(define area-calls 0)
(define area
  (sqlite3:sqlite3-callback "sql_func_fn" 'notified
                 (lambda (ctx argc argv)
                   (set! area-calls (+ area-calls 1))
                   (check (= argc 1) (format #f "sphere_area got ~a arguments" argc))
                   (let ([r (sqlite3:sqlite3_value_double (vector-ref argv 0))])
                     (sqlite3:sqlite3_result_double ctx (* 4 pi r r)))
                   (values))))
(define rcf
  (sqlite3:sqlite3_create_function_v2 db "sphere_area" 1
                                     (+ sqlite3:SQLITE_UTF8 sqlite3:SQLITE_DETERMINISTIC)
                                     area #f #f))
(check (= rcf SQLITE_OK) (format #f "sqlite3_create_function_v2 returned ~a" rcf))

(define areas (list '()))
(exec "SELECT name, sphere_area(radius_km) AS area FROM planets ORDER BY area DESC"
      (collector areas))
(format #t "  sphere_area(radius_km), a SQL function written in Scheme:~%")
(for-each
 (lambda (r)
   (let* ([name (field r "name")]
          [radius (cadr (assoc name planets))]
          [want (* 4 pi radius radius)]
          [got (string->number (field r "area"))])
     (format #t "    ~8a ~14d km2~%" name (inexact->exact (round got)))
     (check (and got (<= (abs (- got want)) (* 1e-12 want)))
            (format #f "~a: area ~a" name (field r "area")))))
 (reverse (car areas)))
(check (and (= (length (car areas)) (length planets)) (= area-calls (length planets)))
       (format #f "~a rows, ~a calls of sphere_area" (length (car areas)) area-calls))

(check (nccc-close db) "sqlite3_close did not run")
(format #t "  closed; sphere_area ran ~a times, its closure ~a~%" area-calls
        (if (nccc-callback-live? area) "is STILL HELD"
            "was released by the destroy notify"))
(check (not (nccc-callback-live? area)) "the destroy notify did not release the closure")

(newline)
(cond [(> failures 0)
       (format #t "demo.scm: ~a mismatches~%" failures)
       (exit 1)]
      [else (format #t "demo.scm: all results match~%")])
