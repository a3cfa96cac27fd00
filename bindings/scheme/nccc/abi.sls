#!r6rs
;; (nccc abi): the nccc ABI's facts (docs/ABI.md), generated from
;; idl/abi.json by stubgen/abi (python3 -m stubgen.abi --write); do
;; not edit.
(library (nccc abi)
  (export
    abi-codes abi-code abi-in-codes abi-out-codes
    abi-value-codes abi-sig-separator abi-sig-variadic abi-sig-record-open
    abi-sig-record-close abi-sig-record-count abi-max-slots abi-slots-variable
    abi-handle-module-marker abi-handle-function-marker abi-handle-module-shift abi-handle-index-mask
    abi-status abi-status-text abi-builtins abi-builtin-index
    abi-closure-target-signature abi-scopes abi-closure-notify abi-closure-thread
    abi-rpc-bound-marker abi-type-kinds abi-targets abi-sized
    abi-builtins-module abi-packed-module abi-packed-flags abi-packed-type-codes
    abi-refusal-kinds abi-refusal-statuses)
  (import (rnrs))

  ;; #(code name kind bytes signed? min max in-ok? out-ok?), min/max for integers
  (define abi-codes
    '(#(#\? "bool" bool 1 #f 0 1 #t #t)
      #(#\b "int8" int 1 #t -128 127 #t #t)
      #(#\B "uint8" int 1 #f 0 255 #t #t)
      #(#\h "int16" int 2 #t -32768 32767 #t #t)
      #(#\H "uint16" int 2 #f 0 65535 #t #t)
      #(#\i "int32" int 4 #t -2147483648 2147483647 #t #t)
      #(#\I "uint32" int 4 #f 0 4294967295 #t #t)
      #(#\l "int64" int 8 #t -9223372036854775808 9223372036854775807 #t #t)
      #(#\L "uint64" int 8 #f 0 18446744073709551615 #t #t)
      #(#\f "float" float 4 #t #f #f #t #t)
      #(#\d "double" float 8 #t #f #f #t #t)
      #(#\p "pointer" pointer 0 #f #f #f #t #t)
      #(#\s "string" string 0 #f #f #f #t #t)
      #(#\F "function pointer" function 0 #f #f #f #t #t)
      #(#\c "closure" closure 0 #f #f #f #t #t)
      #(#\e "errno" errno 4 #t -2147483648 2147483647 #f #t)
      #(#\W "lasterror" errno 4 #f 0 4294967295 #f #t)))
  (define (abi-code c)
    (let loop ([l abi-codes])
      (cond [(null? l) #f]
            [(char=? (vector-ref (car l) 0) c) (car l)]
            [else (loop (cdr l))])))
  (define abi-in-codes "?bBhHiIlLfdpsFc")
  (define abi-value-codes "?bBhHiIlLfdpsF")
  (define abi-out-codes "?bBhHiIlLfdpsFceW")
  (define abi-sig-separator #\:)
  (define abi-sig-variadic #\*)
  (define abi-sig-record-open #\{)
  (define abi-sig-record-close #\})
  (define abi-sig-record-count #\:)
  (define abi-max-slots 32767)
  (define abi-slots-variable #x8000)
  (define abi-handle-module-marker 2147483648)
  (define abi-handle-function-marker 32768)
  (define abi-handle-module-shift 16)
  (define abi-handle-index-mask 32767)
  ;; symbol -> value
  (define abi-status '((ok . #x0)
                       (err-name-not-found . #x100)
                       (err-index-invalid . #x101)
                       (err-registry-full . #x102)
                       (err-already-defined . #x103)
                       (err-buffer-too-small . #x104)
                       (err-platform-check . #x500)
                       (err-no-memory . #x503)
                       (err-num-arguments . #x800)
                       (err-wrong-arg-type . #x801)
                       (err-not-implemented . #x802)
                       (err-invalid-arg . #x803)
                       (err-bad-name . #x4000)
                       (err-bad-handle . #x4001)
                       (err-bad-signature . #x4002)
                       (err-modules-full . #x4003)
                       (err-null-pointer . #x4004)
                       (err-not-initialized . #x4005)
                       (err-stale-closure . #x4006)
                       (err-pool-exhausted . #x4007)
                       (err-fault-injected . #x4008)
                       (err-wrong-thread . #x4009)
                       (err-rpc-transport . #x4100)
                       (err-rpc-timeout . #x4101)
                       (err-rpc-reset . #x4102)
                       (err-rpc-session . #x4103)
                       (err-rpc-replayed . #x4104)
                       (err-rpc-frame . #x4105)
                       (err-rpc-protocol . #x4106)
                       (err-rpc-too-big . #x4107)
                       (err-rpc-word-size . #x4108)
                       (err-rpc-freed . #x4109)
                       (err-rpc-depth . #x410a)))
  (define (abi-status-text value)
    (case value
      [(#x0) "ok"]
      [(#x100) "name not found"]
      [(#x101) "index out of range"]
      [(#x102) "registry full"]
      [(#x103) "already defined"]
      [(#x104) "buffer too small"]
      [(#x500) "platform check failed"]
      [(#x503) "out of memory"]
      [(#x800) "wrong number of slots"]
      [(#x801) "wrong argument type"]
      [(#x802) "not implemented"]
      [(#x803) "invalid argument"]
      [(#x4000) "bad name"]
      [(#x4001) "bad handle"]
      [(#x4002) "bad signature"]
      [(#x4003) "module table full"]
      [(#x4004) "null pointer"]
      [(#x4005) "runtime not initialized"]
      [(#x4006) "stale closure"]
      [(#x4007) "pool exhausted"]
      [(#x4008) "fault injected"]
      [(#x4009) "wrong thread"]
      [(#x4100) "transport failed"]
      [(#x4101) "no answer in time"]
      [(#x4102) "peer restarted"]
      [(#x4103) "stale session"]
      [(#x4104) "replayed request id"]
      [(#x4105) "bad frame"]
      [(#x4106) "protocol error"]
      [(#x4107) "message too big"]
      [(#x4108) "value too wide for the device"]
      [(#x4109) "remote pointer freed"]
      [(#x410a) "nesting too deep"]
      [else "unknown status"]))
  ;; #(index name signature n-in n-out rest), in index order; rest, the size
  ;; of a '*' side: #(arg per mul div out?), argument arg (0-based) holds n
  ;; units of per, and the side takes ceil(n * mul / div) slots (or #f)
  (define abi-builtins '#(#(0 "builtin" "I:ipss" 1 4 #f)
                          #(1 "version" ":iIs" 0 3 #f)
                          #(2 "last_error" ":iis" 0 3 #f)
                          #(3 "lookup" "s:iI" 1 2 #f)
                          #(4 "function" "I:ipssII" 1 6 #f)
                          #(5 "call" "Ipp:i" 3 1 #f)
                          #(6 "call_checked" "IpLpL:i" 5 1 #f)
                          #(7 "register" "sps?:iI" 4 2 #f)
                          #(8 "module_count" ":iI" 0 2 #f)
                          #(9 "module_info" "H:isIII" 1 5 #f)
                          #(10 "module_find" "s:iH" 1 2 #f)
                          #(11 "module_type" "HH:isIIII" 2 6 #f)
                          #(12 "module_field" "HHH:issIII" 3 6 #f)
                          #(13 "module_constant" "HH:issL" 2 4 #f)
                          #(14 "alloc" "L:ip" 1 2 #f)
                          #(15 "free" "p:i" 1 1 #f)
                          #(16 "peek" "pI:iL" 2 2 #f)
                          #(17 "poke" "pIL:i" 3 1 #f)
                          #(18 "read" "pL:i*" 2 32769 #(1 "byte" 1 8 #t))
                          #(19 "write" "pL*:i" 32770 1 #(1 "byte" 1 8 #f))
                          #(20 "strlen" "p:iL" 1 2 #f)
                          #(21 "closure_claim" "FLI:ip" 3 2 #f)
                          #(22 "closure_claim_group" "III*:ip" 32771 2 #(2 "pair" 2 1 #f))
                          #(23 "closure_release" "p:i" 1 1 #f)
                          #(24 "closure_stats" ":iIILLL" 0 6 #f)
                          #(25 "trace_enable" "I?:i" 2 1 #f)
                          #(26 "trace_enable_module" "H?:i" 2 1 #f)
                          #(27 "trace_buffer" "pL:i" 2 1 #f)
                          #(28 "trace_stats" ":iLLI" 0 4 #f)
                          #(29 "trace_read" "L:iIILL" 1 5 #f)
                          #(30 "trace_clear" ":i" 0 1 #f)
                          #(31 "fault_arm" "IIiI*:i" 32772 1 #(3 "slot" 1 1 #f))
                          #(32 "fault_disarm" "I:i" 1 1 #f)
                          #(33 "fault_query" "I:iIL" 1 3 #f)
                          #(34 "clear_error" ":i" 0 1 #f)
                          #(35 "closure_claim_typed" "FLIs:ip" 4 2 #f)
                          #(36 "closure_claim_group_typed" "III*:ip" 32771 2 #(2 "triple" 3 1 #f))))
  (define (abi-builtin-index name)
    (let loop ([k 0])
      (cond [(= k (vector-length abi-builtins)) #f]
            [(string=? (vector-ref (vector-ref abi-builtins k) 1) name) k]
            [else (loop (+ k 1))])))
  (define abi-closure-target-signature "L*:*")
  (define abi-scopes '((call . 1) (async . 2) (notified . 3) (forever . 4)))
  (define abi-closure-notify #x100)
  (define abi-closure-thread #x200)
  ;; the targets a signature may differ on, in the order of a module's
  ;; entries: #(data-model char-signed?)
  (define abi-targets '#(#("LP64" #t) #("LP64" #f) #("ILP32" #t) #("ILP32" #f) #("LLP64" #t) #("LLP64" #f)))
  ;; '*' sides an argument sizes: (qualified name . rest)
  (define abi-sized '(("nccc.closure_claim_group" . #(2 "pair" 2 1 #f))
                      ("nccc.closure_claim_group_typed" . #(2 "triple" 3 1 #f))
                      ("nccc.fault_arm" . #(3 "slot" 1 1 #f))
                      ("nccc.read" . #(1 "byte" 1 8 #t))
                      ("nccc.write" . #(1 "byte" 1 8 #f))
                      ("tvm.call_global" . #(1 "pair" 2 1 #f))
                      ("tvm.call_packed" . #(1 "pair" 2 1 #f))))
  ;; what a generated wrapper refuses itself: argument kinds, and the statuses
  ;; it leaves as the last error
  (define abi-refusal-kinds '(pointer string function closure))
  (define abi-refusal-statuses '(err-null-pointer err-stale-closure err-pool-exhausted))
  (define abi-builtins-module "nccc")
  (define abi-packed-module "tvm")
  (define abi-packed-flags '((override . 1) (status . 2)))
  (define abi-packed-type-codes '((int . 0) (uint . 1) (float . 2) (handle . 3) (null . 4) (str . 11) (bool . 15)))
  ;; the constant of modules bound from a device (docs/RPC.md)
  (define abi-rpc-bound-marker "nccc.remote")
  ;; value -> symbol
  (define abi-type-kinds '((1 . struct) (2 . union) (3 . opaque)))
)
