;;; nccc/private/convert.scm — Guile's entry to (nccc private convert): Guile looks
;;; for .scm files, so this includes convert.sls from the load path.
(include-from-path "nccc/private/convert.sls")
