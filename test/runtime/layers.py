"""The runtime's files form a one-way stack: no circle of includes between
its sources and headers, and no circle of calls (or data references)
between the objects of its libraries.

usage: layers.py SOURCE_ROOT ARCHIVE...

Includes are read from the sources under nccc_runtime/ and shims/; calls
from `nm` of the archives (an object that uses a symbol another object
defines depends on it). Exits 1 and prints every circle found.
"""
import os
import re
import subprocess
import sys

INCLUDE_DIRS = ("nccc_runtime/include", "nccc_runtime/include/nccc/tvm-compat",
                "nccc_runtime/ffi/include", "shims")
SOURCE_DIRS = ("nccc_runtime", "shims")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def circles(graph):
    """The strongly connected components of graph with more than one node
    (or a node that reaches itself), each sorted (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def include_graph(root):
    """file -> the files of the tree it includes (paths from root)."""
    files = []
    for top in SOURCE_DIRS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.join(folder, n) for n in names
                      if n.endswith((".c", ".h"))]
    graph = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        targets = set()
        for quote, name in INCLUDE.findall(text):
            bases = [os.path.dirname(path)] if quote == '"' else []
            bases += [os.path.join(root, d) for d in INCLUDE_DIRS]
            for base in bases:
                candidate = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(candidate):
                    targets.add(os.path.relpath(candidate, root))
                    break
        graph[os.path.relpath(path, root)] = targets
    return graph


def symbol_graph(archives):
    """object -> the objects defining the global symbols it uses."""
    defined, used = {}, {}
    for archive in archives:
        out = subprocess.run(["nm", "-A", archive], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            # "ARCHIVE:MEMBER:ADDRESS TYPE NAME", or "ARCHIVE:MEMBER: U NAME"
            fields = line.split()
            if len(fields) < 2:
                continue
            member = fields[0].split(":")[-2]
            if fields[-2] == "U":
                used.setdefault(member, set()).add(fields[-1])
            elif fields[-2] in "TDBRCVW":
                defined[fields[-1]] = member
    return {obj: {defined[s] for s in syms if s in defined} - {obj}
            for obj, syms in used.items()}


def report(kind, graph):
    """Prints every circle of graph and a count; whether there is one."""
    found = circles(graph)
    for component in found:
        print(f"circle of {kind}: {' <-> '.join(component)}")
    print(f"{kind}: {len(graph)} files, "
          f"{sum(len(v) for v in graph.values())} edges, "
          f"{len(found)} circles")
    return bool(found)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    failed = [report(kind, graph)
              for kind, graph in (("includes", include_graph(argv[1])),
                                  ("calls", symbol_graph(argv[2:])))]
    return 1 if any(failed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
