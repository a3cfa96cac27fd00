;;; nccc/private/calls.scm — Guile's entry to (nccc private calls): Guile looks
;;; for .scm files, so this includes calls.sls from the load path.
(include-from-path "nccc/private/calls.sls")
