;;; nccc/core.scm — Guile's way in to the portable core: Guile looks for
;;; .scm files (and .sls only under --r6rs), so this includes core.sls
;;; from the load path.
(include-from-path "nccc/core.sls")
