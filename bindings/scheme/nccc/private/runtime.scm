;;; nccc/private/runtime.scm — Guile's entry to (nccc private runtime): Guile looks
;;; for .scm files, so this includes runtime.sls from the load path.
(include-from-path "nccc/private/runtime.sls")
