#!r6rs
;;; nccc/core.sls — (nccc core), the public face of the Scheme side of
;;; nccc (docs/SCHEME.md): every name it exports starts with nccc- (and
;;; the condition type &nccc). The work is in the internal libraries
;;; under nccc/private/, each over the ones before it:
;;;   values     errors, slots, numbers by code, signature walking
;;;   runtime    a loaded runtime, its built-ins, C strings and memory
;;;   convert    Scheme values to slots and back by code
;;;   registry   modules, layouts and structs, constants
;;;   callbacks  the dispatcher, closures, converters, pending errors
;;;   calls      loading, functions and calls, owned objects, packed
;;;   cdata      C objects: records in C memory, fields by name
;;;   module     what generated libraries call (not re-exported here)
;;; and under them the adapter (nccc compat), one per implementation,
;;; chosen by file extension (compat.scm for Guile,
;;; compat.chezscheme.sls for Chez, compat.mzscheme.sls for Racket).
;;;
;;; Values: integers are exact (unsigned never wrap, everything is range
;;; checked going in), floats travel by their bits, strings are copied
;;; into C memory with the alloc/write built-ins and freed after the call,
;;; [out] values and errno come back as extra values. Collections come
;;; back as vectors, which Racket code reads like R6RS code does.
(library (nccc core)
  (export
   ;; runtime
   nccc-load nccc-runtime? nccc-runtime-path nccc-symbol nccc-version
   nccc-last-error nccc-implementation
   ;; functions and calls
   nccc-lookup nccc-function-at nccc-function? nccc-function-name
   nccc-function-signature nccc-function-address nccc-function-handle
   nccc-call nccc-call* nccc-procedure nccc-primitive-call
   ;; registry: listing, constants, layouts
   nccc-modules nccc-functions nccc-constant nccc-constants nccc-layout
   nccc-layout? nccc-layout-name nccc-layout-size nccc-layout-align
   nccc-layout-kind nccc-layout-fields nccc-layout-field
   nccc-field? nccc-field-name nccc-field-code nccc-field-offset
   nccc-field-size nccc-field-count
   nccc-make-struct nccc-struct-ref nccc-struct-set!
   ;; memory
   nccc-alloc nccc-free nccc-peek nccc-poke nccc-read nccc-write
   nccc-string-at nccc-string->c
   ;; callbacks
   nccc-callback nccc-callback-group nccc-callback? nccc-callback-context
   nccc-callback-live? nccc-release nccc-closure-stats nccc-callbacks-held
   ;; C objects (made by a generated library's M-new and M-view)
   nccc-cdata? nccc-ref nccc-set! nccc-cdata-record nccc-cdata-address nccc-cdata-length nccc-cdata-bytes
   nccc-cdata-live?
   ;; owned pointers, packed functions
   nccc-own nccc-owned? nccc-owned-address nccc-owned-live? nccc-close nccc-collect!
   nccc-packed-call nccc-register-packed
   ;; errors
   &nccc nccc-error? nccc-error-status nccc-error-kind)
  (import (rename (only (nccc compat) compat-implementation)
                  (compat-implementation nccc-implementation))
          (nccc private values) (nccc private runtime) (nccc private convert)
          (nccc private registry) (nccc private callbacks) (nccc private calls)
          (nccc private cdata)))
