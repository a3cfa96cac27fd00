;;; nccc/private/cdata.scm — Guile's entry to (nccc private cdata): Guile looks
;;; for .scm files, so this includes cdata.sls from the load path.
(include-from-path "nccc/private/cdata.sls")
