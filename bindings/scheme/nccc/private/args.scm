;;; nccc/private/args.scm — Guile's entry to (nccc private args): Guile looks
;;; for .scm files, so this includes args.sls from the load path.
(include-from-path "nccc/private/args.sls")
