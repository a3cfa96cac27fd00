#lang racket/base
;;; nccc/core.rkt — (require nccc/core) from Racket code: the portable
;;; core.sls (an R6RS library), as it is.
(require "core.sls")
(provide (all-from-out "core.sls"))
