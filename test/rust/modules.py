"""The Rust crate's modules form a one-way stack: no circle of module
references between the files of bindings/rust/nccc/src.

usage: modules.py SOURCE_ROOT

A module (one file) depends on another when its code names it
(`crate::other::...`, `use crate::{other, ...}`); naming an item the
crate root defines (`crate::Item`) depends on lib.rs. The root's own
`mod` and `pub use` lines declare the modules and re-export them: they
are the crate's shape, not dependencies. Exits 1 and prints every circle
found (the circle finder and report of test/runtime/layers.py).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "runtime"))
from layers import report  # noqa: E402

CRATE = "bindings/rust/nccc/src"
ROOT_MODULE = "lib"
DECLARATION = re.compile(r"^\s*(pub(\(crate\))?\s+)?(mod|use)\b")


def _code(text):
    """text without comments and string literals."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return re.sub(r"//.*", "", text)


def _group_names(text, start):
    """The first names of the paths in the braces opening at start."""
    depth, names, name_at = 0, [], True
    for m in re.finditer(r"[{},]|\w+", text[start:]):
        tok = m.group(0)
        if tok == "{":
            depth += 1
            name_at = depth == 1
        elif tok == "}":
            depth -= 1
            if depth == 0:
                break
        elif tok == ",":
            name_at = depth == 1
        elif name_at:
            names.append(tok)
            name_at = False
    return names


def module_graph(root):
    """module -> the modules of the crate it names."""
    folder = os.path.join(root, CRATE)
    texts = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".rs"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                texts[name[:-3]] = _code(f.read())
    modules = set(texts)
    graph = {}
    for module, text in texts.items():
        named = set()
        for m in re.finditer(r"\bcrate::(\{|\w+)", text):
            if m.group(1) == "{":
                named.update(_group_names(text, m.start(1)))
            else:
                named.add(m.group(1))
        if module == ROOT_MODULE:
            # the root names its modules without crate::
            body = "\n".join(line for line in text.splitlines()
                             if not DECLARATION.match(line))
            named = {n for n in re.findall(r"\b(\w+)::", body)
                     if n in modules}
        # a name under crate:: that is no module is an item of the root
        graph[module] = {n if n in modules else ROOT_MODULE
                         for n in named if n != "self"} - {module}
    return graph


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    return 1 if report("modules", module_graph(argv[1])) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
