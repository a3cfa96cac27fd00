#!/usr/bin/env bash
# Builds runtime sources for a Cortex-M3 (arm-none-eabi-gcc -mthumb -Os,
# -Wall -Wextra -Werror), links one program against them, newlib and the
# board code of device/ (its own start-up, no newlib crt0), checks that
# neither malloc/free, a thread library nor the printf family is pulled
# in, prints the section sizes of the objects whose file names match
# SIZE_REGEX with their total, and then runs the program on QEMU's
# mps2-an385 (device/run_qemu.sh): the program's main() result is the
# exit status of this script.
#
# usage: build_cortex_m3.sh ROOT OUT PROGRAM.c SIZE_REGEX SOURCE...
#   ROOT        the repository root; PROGRAM.c and SOURCEs are relative to it
#   OUT         a scratch directory
#   SIZE_REGEX  grep -E pattern on object base names (".*" for all)
set -euo pipefail
root=$1 out=$2 program=$3 size_regex=$4
shift 4
cc=arm-none-eabi-gcc
flags=(-std=c11 -mcpu=cortex-m3 -mthumb -Os -Wall -Wextra -Werror
       -ffunction-sections -fdata-sections
       -I"$root/nccc_runtime/include" -I"$root/nccc_runtime/include/nccc/tvm-compat"
       -I"$root/device")
mkdir -p "$out"
objs=() sized=()
for f in "$@"; do
  o="$out/$(basename "${f%.c}").o"
  "$cc" "${flags[@]}" -c "$root/$f" -o "$o"
  objs+=("$o")
  if basename "$o" | grep -Eq "$size_regex"; then sized+=("$o"); fi
done
rm -f "$out/libnccc_runtime.a"
arm-none-eabi-ar rcs "$out/libnccc_runtime.a" "${objs[@]}"
elf="$out/$(basename "${program%.c}").elf"
"$cc" "${flags[@]}" -nostartfiles -T "$root/device/mps2_an385.ld" -Wl,--gc-sections \
  "$root/$program" "$root"/device/board_*.c "$out/libnccc_runtime.a" -o "$elf" \
  2>"$out/link.log" || { cat "$out/link.log"; exit 1; }
if arm-none-eabi-nm "$elf" |
   grep -E ' (malloc|free|_malloc_r|_free_r|pthread_[a-z_]+|_?v?s?n?printf|_vfprintf_r|_svfprintf_r)$'; then
  echo "FAIL: $program pulls in the symbols above on bare metal" >&2
  exit 1
fi
echo "objects matching '$size_regex' for cortex-m3 (-Os), and their total:"
arm-none-eabi-size -t "${sized[@]}"
echo "linked $program (runtime, newlib, board start-up, --gc-sections):"
arm-none-eabi-size "$elf"
echo "running $program on qemu-system-arm -M mps2-an385:"
bash "$root/device/run_qemu.sh" "$elf"
