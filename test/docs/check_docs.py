#!/usr/bin/env python3
"""The docs name only what exists.

    check_docs.py ROOT

docs/ARCHITECTURE.md: every path in backquotes that holds a '/' exists
in the tree, and every file or folder its "Folders" table lists exists
under that row's folder. README.md: its layout table has a row for every
top-level folder of the repository. docs/RPC.md: each message layout of
idl/abi.json ("NAME LAYOUT", and "result ANSWER" for a request) is in
one of its code blocks, spaces aside. Prints each miss; exit 1 if any.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

# Generated at build time, named in the walk-throughs as examples.
GENERATED = re.compile(r"(^|/)(M|tour|hcb)(_nccc\.[ch]|\.lua|\.sls)$")


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
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        folder = ticks(cells[0])[0]
        for name in ticks(cells[2]):
            if re.search(r"\w\.\w+$|\w/$", name) and \
                    not exists(root, folder, name):
                misses.append("ARCHITECTURE.md: %s lists %s, not found there"
                              % (folder, name))
    return misses


def check_readme(root):
    text = (root / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = {t.rstrip("/").split("/")[0] for row in layout.splitlines()
             if row.startswith("|") for t in ticks(row.split("|")[1])}
    tracked = subprocess.run(["git", "-C", str(root), "ls-files"],
                             capture_output=True, text=True)
    if tracked.returncode == 0:
        tops = {line.split("/")[0] for line in tracked.stdout.splitlines()
                if "/" in line}
    else:  # not a git checkout: the folders as they are, less the builds
        tops = {p.name for p in root.iterdir() if p.is_dir() and
                p.name not in (".git", "build")}
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
