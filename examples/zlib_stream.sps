#!r6rs
;;; zlib_stream.sps — zlib streamed from Chez Scheme or Racket through a
;;; z_stream that Scheme allocates, its fields read and written by name
;;; (docs/SCHEME.md, "C objects"), on the demo's library (the wrappers of
;;; idl/zlib.idl, the generated library (nccc zlib)). tools/demo.sh runs
;;; it under both.
;;;   chezscheme --libdirs bindings/scheme:GENERATED --program zlib_stream.sps LIBRARY FILE
;;;   PLTCOLLECTS=bindings/scheme:GENERATED: racket zlib_stream.sps LIBRARY FILE
(import (rnrs) (nccc core) (prefix (nccc zlib) z:))

(define args (command-line))
(define rt (nccc-load (cadr args)))
(z:zlib-bind! rt)
(define chunk 4096)

(define (concatenate parts)
  (let ([all (make-bytevector (fold-left + 0 (map bytevector-length parts)))])
    (fold-left (lambda (at p)
                 (bytevector-copy! p 0 all at (bytevector-length p))
                 (+ at (bytevector-length p)))
               0 parts)
    all))

;; Runs step (deflate or inflate) over input in chunk pieces through the
;; fields of strm, flush-last on the last piece, until the stream ends;
;; returns what step wrote.
(define (stream strm step flush-last input)
  (define inbuf (nccc-alloc rt chunk))
  (define outbuf (nccc-alloc rt chunk))
  (define n (bytevector-length input))
  (let feed ([pos 0] [out '()])
    (unless (< pos n) (error 'stream "the input ended before the stream"))
    (let* ([len (min chunk (- n pos))] [piece (make-bytevector len)]
           [flush (if (= (+ pos len) n) flush-last z:Z_NO_FLUSH)])
      (bytevector-copy! input pos piece 0 len)
      (nccc-write rt inbuf piece)
      (nccc-set! strm 'next_in inbuf)
      (nccc-set! strm 'avail_in len)
      (let drain ([out out])       ; until the output has room to spare
        (nccc-set! strm 'next_out outbuf)
        (nccc-set! strm 'avail_out chunk)
        (let* ([st (step strm flush)]
               [out (cons (nccc-read rt outbuf (- chunk (nccc-ref strm 'avail_out))) out)])
          (unless (memv st (list z:Z_OK z:Z_STREAM_END z:Z_BUF_ERROR))
            (error 'stream "zlib failed" st))
          (cond [(= st z:Z_STREAM_END)
                 (nccc-free rt inbuf)
                 (nccc-free rt outbuf)
                 (concatenate (reverse out))]
                [(= (nccc-ref strm 'avail_out) 0) (drain out)]
                [else (feed (+ pos len) out)]))))))

(define (say . parts)
  (for-each (lambda (p) (display (if (number? p) (number->string p) p))) parts)
  (newline))

(define input (call-with-port (open-file-input-port (caddr args)) get-bytevector-all))
(define packed
  (let ([d (z:zlib-new "z_stream_s")])   ; zeroed: zlib's own allocator
    (z:deflateInit d z:Z_BEST_COMPRESSION)
    (let ([packed (stream d z:deflate z:Z_FINISH input)])
      (say "  deflate: " (nccc-ref d 'total_in) " bytes in, " (nccc-ref d 'total_out) " out")
      (z:deflateEnd d)
      (nccc-close d)
      packed)))
(define back
  (let ([i (z:zlib-new "z_stream_s")])
    (z:inflateInit i)
    (let ([back (stream i z:inflate z:Z_NO_FLUSH packed)])
      (z:inflateEnd i)
      (nccc-close i)
      back)))
(say "  inflate: " (bytevector-length back) " bytes, equal to the file: "
     (if (bytevector=? back input) "true" "false"))
(exit (if (bytevector=? back input) 0 1))
