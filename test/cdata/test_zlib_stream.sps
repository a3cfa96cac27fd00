#!r6rs
;;; test_zlib_stream.sps LIBRARY — zlib streaming from Guile, Chez Scheme
;;; and Racket through a C object (docs/SCHEME.md, "C objects"): 10 MiB
;;; deflated and inflated in 64 KiB chunks through a z_stream made by
;;; zlib-new, its fields (next_in, avail_in, next_out, avail_out,
;;; total_in, total_out, msg) read and written by name, and the bytes come
;;; back equal. ctest runs it as cdata_zlib_guile, cdata_zlib_chez and
;;; cdata_zlib_racket (idl/zlib.idl, linked with -lz).
(import (rnrs) (nccc core) (prefix (nccc zlib) z:))

(define rt (nccc-load (cadr (command-line))))
(z:zlib-bind! rt)

(define size (* 10 1024 1024))
(define chunk (* 64 1024))

(define (require what ok)
  (unless ok (error 'test_zlib_stream "check failed" what)))

;; 10 MiB of words from a fixed pseudo-random sequence (compressible):
;; 500 words of 2 to 9 letters a..h, picked one after another
(define (data)
  (let* ([seed 23]
         [rnd (lambda (n)
                (set! seed (mod (+ (* seed 69069) 1) 4294967296))
                (mod (div seed 65536) n))]
         [words (let loop ([k 0] [acc '()])
                  (if (= k 500)
                      (list->vector acc)
                      (let ([w (make-bytevector (+ 3 (rnd 8)) 32)])
                        (do ([j 0 (+ j 1)]) ((= j (- (bytevector-length w) 1)))
                          (bytevector-u8-set! w j (+ 97 (rnd 8))))
                        (loop (+ k 1) (cons w acc)))))]
         [out (make-bytevector size)])
    (let fill ([at 0])
      (when (< at size)
        (let* ([w (vector-ref words (rnd 500))] [n (min (bytevector-length w) (- size at))])
          (bytevector-copy! w 0 out at n)
          (fill (+ at n)))))
    out))

(define (concatenate pieces)
  (let ([out (make-bytevector (fold-left (lambda (n p) (+ n (bytevector-length p))) 0 pieces))])
    (fold-left (lambda (at p)
                 (bytevector-copy! p 0 out at (bytevector-length p))
                 (+ at (bytevector-length p)))
               0 pieces)
    out))

;; Feeds input in chunk pieces to step (deflate or inflate) through
;; strm's fields, collecting what it writes in chunk outputs.
(define (stream strm step finish input)
  (let ([inbuf (nccc-alloc rt chunk)] [outbuf (nccc-alloc rt chunk)]
        [n (bytevector-length input)])
    (let feed ([pos 0] [out '()])
      (let* ([len (min chunk (- n pos))] [piece (make-bytevector len)] [end (+ pos len)]
             [flush (if (>= end n) finish z:Z_NO_FLUSH)])
        (bytevector-copy! input pos piece 0 len)
        (when (> len 0) (nccc-write rt inbuf piece))
        (nccc-set! strm 'next_in inbuf)
        (nccc-set! strm 'avail_in len)
        (let drain ([out out])
          (nccc-set! strm 'next_out outbuf)
          (nccc-set! strm 'avail_out chunk)
          (let* ([st (step strm flush)] [made (- chunk (nccc-ref strm 'avail_out))]
                 [out (if (> made 0) (cons (nccc-read rt outbuf made) out) out)])
            (require "a status zlib streams on" (memv st (list z:Z_OK z:Z_STREAM_END z:Z_BUF_ERROR)))
            (cond [(= st z:Z_STREAM_END) (done inbuf outbuf out)]
                  [(= (nccc-ref strm 'avail_out) 0) (drain out)]
                  [(and (>= end n) (= flush z:Z_NO_FLUSH)) (done inbuf outbuf out)]
                  [else (feed end out)])))))))

(define (done inbuf outbuf out)
  (nccc-free rt inbuf)
  (nccc-free rt outbuf)
  (concatenate (reverse out)))

(define input (data))

(define packed
  (let ([strm (z:zlib-new "z_stream_s")])
    (require "deflateInit" (= (z:deflateInit strm z:Z_DEFAULT_COMPRESSION) z:Z_OK))
    (let ([packed (stream strm z:deflate z:Z_FINISH input)])
      (require "total_in" (= (nccc-ref strm 'total_in) size))
      (require "total_out" (= (nccc-ref strm 'total_out) (bytevector-length packed)))
      (require "deflateEnd" (= (z:deflateEnd strm) z:Z_OK))
      (require "freed once" (nccc-close strm))
      packed)))
(require "compressed" (< (bytevector-length packed) (div size 2)))

(define back
  (let ([strm (z:zlib-new "z_stream_s")])
    (require "inflateInit" (= (z:inflateInit strm) z:Z_OK))
    (let ([back (stream strm z:inflate z:Z_NO_FLUSH packed)])
      (require "inflated total_out" (= (nccc-ref strm 'total_out) size))
      (require "inflateEnd" (= (z:inflateEnd strm) z:Z_OK))
      (nccc-close strm)
      back)))
(require "the bytes come back equal" (bytevector=? back input))

;; zlib's error message is a field: a char * read by its address
(let ([strm (z:zlib-new "z_stream_s")] [garbage (nccc-alloc rt 16)] [out (nccc-alloc rt 64)])
  (nccc-write rt garbage (make-bytevector 16 #xff))
  (require "inflateInit" (= (z:inflateInit strm) z:Z_OK))
  (nccc-set! strm 'next_in garbage)
  (nccc-set! strm 'avail_in 16)
  (nccc-set! strm 'next_out out)
  (nccc-set! strm 'avail_out 64)
  (require "a data error" (= (z:inflate strm z:Z_NO_FLUSH) z:Z_DATA_ERROR))
  (require "its message" (equal? (nccc-string-at rt (nccc-ref strm 'msg)) "incorrect header check"))
  (require "inflateEnd" (= (z:inflateEnd strm) z:Z_OK))
  (nccc-free rt garbage)
  (nccc-free rt out))

(display (string-append "deflated " (number->string size) " bytes to "
                        (number->string (bytevector-length packed)) " and back in "
                        (number->string chunk) "-byte chunks\n"))
