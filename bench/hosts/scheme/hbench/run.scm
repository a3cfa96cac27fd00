;;; hbench/run.scm — Guile's way in to hbench/run.sls (Guile looks for
;;; .scm files), as bindings/scheme/nccc/core.scm is for the core.
(include-from-path "hbench/run.sls")
