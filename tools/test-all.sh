#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs every
# test twice — a normal build and an ASan+UBSan build — with ctest; the
# web example too, which its browser test checks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/install-deps.sh"
jobs="$(nproc 2>/dev/null || echo 2)"
for variant in plain asan; do
  build="$root/build/$variant"
  extra=()
  [ "$variant" = asan ] && extra=(-DNCCC_SANITIZE=ON)
  echo "== nccc: $variant build"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNCCC_BUILD_WEB_EXAMPLE=ON \
    "${extra[@]}" >/dev/null
  cmake --build "$build" -j "$jobs"
  echo "== nccc: $variant tests"
  (cd "$build" && ctest --output-on-failure -j "$jobs")
done
