#!/usr/bin/env python3
"""The docs name only what exists.

    check_docs.py ROOT

docs/ARCHITECTURE.md: every path in backquotes that holds a '/' exists
in the tree, every file or folder its "Folders" table lists exists
under that row's folder, and every product file (the code of the
runtime, the shims, the generator, the bindings, the device image, the
build functions and the tools) is named in the row of the nearest folder
above it: by its path, its path from the row's folder, its name, or a
glob. README.md: its layout table has a row for every top-level folder
of the repository. docs/RPC.md: each message layout of idl/abi.json
("NAME LAYOUT", and "result ANSWER" for a request) is in one of its code
blocks, spaces aside. Prints each miss; exit 1 if any.
"""

import fnmatch
import json
import re
import subprocess
import sys
from pathlib import Path

# Generated at build time, named in the walk-throughs as examples.
GENERATED = re.compile(r"(^|/)(M|tour|hcb)(_nccc\.[ch]|\.lua|\.sls)$")


# The product's folders and the suffixes of its code.
PRODUCT = ("nccc_runtime/", "shims/", "stubgen/", "bindings/", "device/",
           "cmake/", "tools/")
SUFFIXES = (".py", ".lua", ".sls", ".scm", ".rkt", ".mjs", ".js", ".rs",
            ".c", ".h", ".cmake", ".sh", ".ld")


def ticks(text):
    return re.findall(r"`([^`\s]+)`", text)


def exists(root, folder, name):
    """name (a file, a folder/ or a glob) is under folder, or is a path
    from the root."""
    name = name.rstrip("/")
    if "/" in name and (root / name).exists():
        return True
    return (root / folder / name).exists() or \
        any((root / folder).glob(name)) or any((root / folder).rglob(name))


def repository_files(root):
    """The files of the tree from the root: git's (tracked, or new and
    not ignored), or, outside a checkout, every file less the builds."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached",
                             "--others", "--exclude-standard"],
                            capture_output=True, text=True)
    if listed.returncode == 0:
        return [f for f in listed.stdout.splitlines() if (root / f).is_file()]
    return [p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and not p.relative_to(root).parts[0] in
            (".git", "build")]


def names(path, folder, listed, name):
    """Whether name, listed in the row of folder with the other tokens
    listed, names the file path: its path, its path from folder, or a
    glob of either; a bare name (or glob) names a file directly in folder
    or in a subfolder the row lists (`core/`)."""
    if name.endswith("/"):
        return False
    rel = path[len(folder):]
    if path == name or fnmatch.fnmatch(path, name) or \
            fnmatch.fnmatch(rel, name):
        return True
    parent, _, base = rel.rpartition("/")
    return "/" not in name and fnmatch.fnmatch(base, name) and \
        (parent == "" or parent + "/" in listed)


def unnamed_product_files(root, rows):
    """Each product file no row names: the row of the nearest folder
    above it must."""
    misses = []
    for path in sorted(repository_files(root)):
        if not path.startswith(PRODUCT) or not path.endswith(SUFFIXES):
            continue
        above = [f for f in rows if path.startswith(f.rstrip("/") + "/")]
        if not above:
            misses.append("ARCHITECTURE.md has no row for the folder of %s"
                          % path)
            continue
        folder = max(above, key=len)
        if not any(names(path, folder, rows[folder], n)
                   for n in rows[folder]):
            misses.append("ARCHITECTURE.md: the row of %s does not name %s"
                          % (folder, path))
    return misses


def check_architecture(root):
    misses = []
    text = (root / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    head, rest = text.split("## Folders", 1)
    table, tail = rest.split("\n## ", 1)
    for token in ticks(head + tail):
        if "/" in token and not GENERATED.search(token) and \
                not any(root.glob(token.rstrip("/"))):
            misses.append("ARCHITECTURE.md names %s, which does not exist"
                          % token)
    rows = {}
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        folder = ticks(cells[0])[0]
        rows.setdefault(folder, []).extend(ticks(cells[2]))
        for name in ticks(cells[2]):
            if re.search(r"\w\.\w+$|\w/$", name) and \
                    not exists(root, folder, name):
                misses.append("ARCHITECTURE.md: %s lists %s, not found there"
                              % (folder, name))
    return misses + unnamed_product_files(root, rows)


def check_readme(root):
    text = (root / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = {t.rstrip("/").split("/")[0] for row in layout.splitlines()
             if row.startswith("|") for t in ticks(row.split("|")[1])}
    tops = {path.split("/")[0] for path in repository_files(root)
            if "/" in path}
    return ["README.md's layout table has no row for %s/" % top
            for top in sorted(tops - named)]


def check_rpc_layouts(root):
    text = (root / "docs" / "RPC.md").read_text(encoding="utf-8")
    blocks = " ".join(" ".join(b.split())
                      for b in re.findall(r"```\n(.*?)```", text, re.S))
    rpc = json.loads((root / "idl" / "abi.json").read_text())["rpc"]
    misses = []
    for message in rpc["messages"]:
        shown = [message["name"] + " " + message["layout"]]
        if "answer" in message:
            shown.append("result " + message["answer"])
        misses += ["RPC.md does not show %r as abi.json has it" % layout
                   for layout in shown if layout not in blocks]
    return misses


def report(misses):
    """Prints each miss and the count; the exit status."""
    for miss in misses:
        print(miss)
    print("%d passed, %d failed" % (1 if not misses else 0, len(misses)))
    return 1 if misses else 0


def main():
    root = Path(sys.argv[1]).resolve()
    return report(check_architecture(root) + check_readme(root) +
                  check_rpc_layouts(root))


if __name__ == "__main__":
    sys.exit(main())
