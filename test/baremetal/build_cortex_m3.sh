#!/usr/bin/env bash
# Builds the runtime core for a Cortex-M3 (arm-none-eabi-gcc -Os), links a
# small program against it with newlib, checks that nothing pulls in
# malloc/free or a thread library, and prints the core's section sizes.
set -euo pipefail
src="$1"      # repository root
out="$2"      # scratch directory
shift 2
core=("$@")   # core source files, relative to the repository root
cc=arm-none-eabi-gcc
flags=(-std=c11 -mcpu=cortex-m3 -mthumb -Os -Wall -Wextra -Werror
       -ffunction-sections -fdata-sections -I"$src/nccc_runtime/include")
mkdir -p "$out"
objs=()
for f in "${core[@]}"; do
  o="$out/$(basename "${f%.c}").o"
  "$cc" "${flags[@]}" -c "$src/$f" -o "$o"
  objs+=("$o")
done
rm -f "$out/libnccc_core.a"
arm-none-eabi-ar rcs "$out/libnccc_core.a" "${objs[@]}"
"$cc" "${flags[@]}" --specs=nosys.specs -Wl,--gc-sections \
  "$src/test/baremetal/baremetal_main.c" "$out/libnccc_core.a" -o "$out/demo.elf"
if arm-none-eabi-nm "$out/demo.elf" | grep -E ' (malloc|free|_malloc_r|pthread_[a-z_]+)$'; then
  echo "FAIL: the bare-metal core pulls in the symbols above" >&2
  exit 1
fi
echo "nccc runtime core for cortex-m3 (-Os), per object and total:"
arm-none-eabi-size -t "${objs[@]}"
echo "linked demo (core + newlib startup, --gc-sections):"
arm-none-eabi-size "$out/demo.elf"
