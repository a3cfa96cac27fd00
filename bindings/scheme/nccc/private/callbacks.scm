;;; nccc/private/callbacks.scm — Guile's entry to (nccc private callbacks): Guile looks
;;; for .scm files, so this includes callbacks.sls from the load path.
(include-from-path "nccc/private/callbacks.sls")
