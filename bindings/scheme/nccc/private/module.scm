;;; nccc/private/module.scm — Guile's entry to (nccc private module): Guile looks
;;; for .scm files, so this includes module.sls from the load path.
(include-from-path "nccc/private/module.sls")
