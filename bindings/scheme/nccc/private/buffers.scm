;;; nccc/private/buffers.scm — Guile's entry to (nccc private buffers): Guile looks
;;; for .scm files, so this includes buffers.sls from the load path.
(include-from-path "nccc/private/buffers.sls")
