;;; nccc/abi.scm — Guile's way in to the generated (nccc abi).
(include-from-path "nccc/abi.sls")
