#!/usr/bin/env bash
# Builds the runtime (core and TVM-compatible files) for a Cortex-M3
# (arm-none-eabi-gcc -Os -Wall -Wextra -Werror), links baremetal_main.c,
# which uses the packed-function bridge, with newlib, checks that neither
# malloc, threads nor the printf family is pulled in, and prints the sizes
# of the bridge's objects.
# usage: baremetal.sh SOURCE_ROOT OUT_DIR SOURCE...   (relative to the root)
set -euo pipefail
src=$1 out=$2
shift 2
cc=arm-none-eabi-gcc
flags=(-std=c11 -mcpu=cortex-m3 -mthumb -Os -Wall -Wextra -Werror
       -ffunction-sections -fdata-sections
       -I"$src/nccc_runtime/include" -I"$src/nccc_runtime/include/nccc/tvm-compat")
mkdir -p "$out"
objs=() packed_objs=()
for f in "$@"; do
  o="$out/$(basename "${f%.c}").o"
  "$cc" "${flags[@]}" -c "$src/$f" -o "$o"
  objs+=("$o")
  case "$f" in */tvm_packed*|*/tvm_adapter*) packed_objs+=("$o");; esac
done
rm -f "$out/libnccc_runtime.a"
arm-none-eabi-ar rcs "$out/libnccc_runtime.a" "${objs[@]}"
"$cc" "${flags[@]}" --specs=nosys.specs -Wl,--gc-sections \
  "$src/test/packed/baremetal_main.c" "$out/libnccc_runtime.a" \
  -o "$out/packed.elf" 2>"$out/link.log" || { cat "$out/link.log"; exit 1; }
if arm-none-eabi-nm "$out/packed.elf" |
   grep -E ' (malloc|free|_malloc_r|_free_r|pthread_[a-z_]+|_?v?s?n?printf|_vfprintf_r|_svfprintf_r)$'; then
  echo "FAIL: the bare-metal packed-function bridge pulls in the symbols above" >&2
  exit 1
fi
echo "packed-function bridge for cortex-m3 (-Os):"
arm-none-eabi-size -t "${packed_objs[@]}"
echo "linked program (runtime + newlib startup, --gc-sections):"
arm-none-eabi-size "$out/packed.elf"
