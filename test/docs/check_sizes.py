#!/usr/bin/env python3
"""Product files stay small.

    check_sizes.py ROOT

Every product file (check_docs.py's PRODUCT folders) holds at most 700
lines when it is C (.c, .h) and at most 600 when it is Python, Lua,
Scheme, JavaScript or Rust, generated files under a build folder aside.
Prints each file over its limit; exit 1 if any.
"""

import sys
from pathlib import Path

from check_docs import PRODUCT, repository_files

LIMITS = {".c": 700, ".h": 700}
LIMITS.update(dict.fromkeys((".py", ".lua", ".sls", ".scm", ".rkt", ".mjs",
                             ".js", ".rs"), 600))


def oversized(root):
    """(path, lines, limit) of each product file over its limit."""
    found = []
    for path in sorted(repository_files(root)):
        limit = LIMITS.get(Path(path).suffix)
        if limit is None or not path.startswith(PRODUCT):
            continue
        with open(root / path, encoding="utf-8", errors="replace") as f:
            lines = sum(1 for _ in f)
        if lines > limit:
            found.append((path, lines, limit))
    return found


def main(root):
    found = oversized(Path(root))
    for path, lines, limit in found:
        print("%s: %d lines, over the %d a file of its kind may hold"
              % (path, lines, limit))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
