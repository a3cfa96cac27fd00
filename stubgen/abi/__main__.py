"""python3 -m stubgen.abi [--write | --check] [--source FILE] [--root DIR]

Generates the ABI tables of every language from idl/abi.json:
--write writes them into the tree, --check (the default) exits 1 naming
each file that differs from what the source gives.
"""

import argparse
import os
import sys

from stubgen.abi import ROOT, SOURCE, AbiError, load
from stubgen.abi import (emit_c, emit_items, emit_js, emit_lua, emit_python,
                         emit_rpc, emit_rust, emit_scheme)

EMITTERS = ((emit_c.HEADER, emit_c.emit),
            (emit_lua.MODULE, emit_lua.emit),
            (emit_scheme.LIBRARY, emit_scheme.emit),
            (emit_rust.MODULE, emit_rust.emit),
            (emit_rpc.HEADER, emit_rpc.emit),
            (emit_js.MODULE, emit_js.emit),
            (emit_python.MODULE, emit_python.emit),
            (emit_items.HEADER, emit_items.emit))


def generate(abi):
    """{path relative to the repository: text} for every output."""
    return {path: emit(abi) for path, emit in EMITTERS}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m stubgen.abi")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--source", default=SOURCE)
    ap.add_argument("--root", default=ROOT,
                    help="the tree the outputs live in")
    args = ap.parse_args(argv)
    try:
        abi = load(args.source)
    except (AbiError, OSError) as e:
        print("%s: error: %s" % (args.source, e), file=sys.stderr)
        return 1
    stale = []
    for rel, text in generate(abi).items():
        path = os.path.join(args.root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current == text:
            continue
        if args.write:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote %s" % rel)
        else:
            stale.append(rel)
    for rel in stale:
        print("%s: not what idl/abi.json gives; run python3 -m stubgen.abi "
              "--write" % rel, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
