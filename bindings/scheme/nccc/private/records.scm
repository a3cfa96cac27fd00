;;; nccc/private/records.scm — Guile's entry to (nccc private records): Guile looks
;;; for .scm files, so this includes records.sls from the load path.
(include-from-path "nccc/private/records.sls")
