#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, builds,
# and runs the example programs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/install-deps.sh"
build="$root/build/plain"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target registry_demo >/dev/null
"$build/examples/registry_demo"
