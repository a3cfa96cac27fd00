"""edit.py DRAFT OUT: applies expat.patch to the expat.h draft DRAFT and
writes OUT; prints the number of edited lines. Each `-` line of the
patch is a line of the draft (exactly once), replaced by the `+` line
after it; the other lines of the patch say why."""

import sys
from pathlib import Path

PATCH = Path(__file__).resolve().parent / "expat.patch"


def edited(text):
    """(the edited draft, the number of edited lines)."""
    lines = text.split("\n")
    minus, plus = [], []
    for line in PATCH.read_text().split("\n"):
        if line.startswith("-"):
            minus.append(line[1:])
        elif line.startswith("+"):
            plus.append(line[1:])
    if len(minus) != len(plus):
        raise ValueError("expat.patch: each - line needs its + line")
    for old, new in zip(minus, plus):
        if lines.count(old) != 1:
            raise ValueError("the draft has %d lines %r"
                             % (lines.count(old), old))
        lines[lines.index(old)] = new
    return "\n".join(lines), len(plus)


if __name__ == "__main__":
    text, count = edited(Path(sys.argv[1]).read_text())
    Path(sys.argv[2]).write_text(text)
    print(count)
