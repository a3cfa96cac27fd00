#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, generates
# nccc wrappers for idl/zlib.idl, builds, and runs the example programs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/install-deps.sh"
build="$root/build/plain"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
  --target registry_demo zlib_demo >/dev/null
echo "== the runtime on its own (examples/registry_demo.c)"
"$build/examples/registry_demo"
echo
echo "== zlib through generated wrappers (idl/zlib.idl, examples/zlib_demo.c)"
"$build/examples/zlib_demo" "$root/README.md"
