;;; nccc/private/registry.scm — Guile's entry to (nccc private registry): Guile looks
;;; for .scm files, so this includes registry.sls from the load path.
(include-from-path "nccc/private/registry.sls")
