#!/usr/bin/env bash
# tutorial.sh BUILD ROOT CMAKE PYTHON — expat.h imported, edited by
# expat.patch (at most 10 lines), passes the tutorial's test: the
# programs of docs/TUTORIAL.md run on the library built from the draft
# (test/tutorial/run.sh with the draft in place of the page's IDL).
set -euo pipefail
build=$1 root=$2 cmake=$3 python=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nccc-import.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$root/bin/nccc-stubgen" --import /usr/include/expat.h -o "$tmp/draft.idl"
edits=$("$python" "$root/test/importer/edit.py" "$tmp/draft.idl" "$tmp/expat.idl")
echo "expat.h draft: $edits edited lines"
[ "$edits" -le 10 ] || { echo "FAIL: more than 10 edited lines"; exit 1; }
bash "$root/test/tutorial/run.sh" "$build" "$root/docs/TUTORIAL.md" \
  "$cmake" "$python" "$tmp/expat.idl"
