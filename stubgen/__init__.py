"""nccc-stubgen: the nccc IDL generator.

The pipeline is parse (parse.py: Lark tree to syntax nodes) -> check
(model.py: the checked model, every error with its position) -> emit (one
module per target, e.g. emit_c.py, reading only the model).
"""

__version__ = "0.1.0"
