#lang racket/base
;;; nccc/abi.rkt — (require nccc/abi) from Racket code.
(require "abi.sls")
(provide (all-from-out "abi.sls"))
