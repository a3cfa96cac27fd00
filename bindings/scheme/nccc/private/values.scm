;;; nccc/private/values.scm — Guile's entry to (nccc private values): Guile looks
;;; for .scm files, so this includes values.sls from the load path.
(include-from-path "nccc/private/values.sls")
