"""extract.py TUTORIAL DIR: writes the files docs/TUTORIAL.md shows into
DIR, each from the fenced block whose first line is a comment naming it
(// expat.idl, # CMakeLists.txt, -- count.lua, ;; count.scm,
<!-- planets.xml -->; a name may hold a directory: // zstream/zstream.idl),
and DIR/expected: the first line of each text block that shows a
program's output (part one's "elements ...", part two's "zlib ..."),
one a line, in page order."""

import os
import re
import sys

NAMED = re.compile(r"^(?://|#|--|;;|<!--) ((?:\w+/)?[\w.]+\.\w+)(?: -->)?$")
OUTPUT = ("elements ", "zlib ")


def blocks(text):
    """(info string, lines) of every fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info = lines[i][3:].strip()
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            yield info, lines[i + 1:j]
            i = j
        i += 1


def main(tutorial, out):
    with open(tutorial, encoding="utf-8") as f:
        text = f.read()
    written, expected = [], []
    for info, lines in blocks(text):
        m = NAMED.match(lines[0]) if lines else None
        if m:
            path = os.path.join(out, m.group(1))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            written.append(m.group(1))
        elif info == "text" and lines[0].startswith(OUTPUT):
            expected.append(lines[0])
    with open(out + "/expected", "w", encoding="utf-8") as f:
        f.write("".join(e + "\n" for e in expected))
    print(" ".join(written))


if __name__ == "__main__":
    main(*sys.argv[1:])
