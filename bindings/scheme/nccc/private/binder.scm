;;; nccc/private/binder.scm — Guile's entry to (nccc private binder): Guile looks
;;; for .scm files, so this includes binder.sls from the load path.
(include-from-path "nccc/private/binder.sls")
