;;; nccc/private/memory.scm — Guile's entry to (nccc private memory): Guile looks
;;; for .scm files, so this includes memory.sls from the load path.
(include-from-path "nccc/private/memory.sls")
