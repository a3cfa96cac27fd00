#!/usr/bin/env python3
"""Builds a Cortex-M3 image for QEMU's mps2-an385, and runs it.

    image.py ROOT OUT PROGRAM.c [--define NAME=VALUE]... [--include DIR]...
             [--with FILE.c]... [--sizes REGEX] [--run] SOURCE...

Compiles every SOURCE (paths relative to ROOT, or absolute) and the board
code of device/ with arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os, -Wall
-Wextra -Werror; archives the SOURCE objects; links PROGRAM.c and each --with file
(objects of their own, kept whole: a system library whose only link is a
weak symbol's strong definition) against them, newlib and the board's start-up (no newlib crt0) with
device/mps2_an385.ld and --gc-sections (and newlib's libm) into
OUT/PROGRAM.elf, with a link
map OUT/PROGRAM.map. It fails when the image pulls in malloc/free, a
thread library or the printf family: the device has no heap and no
threads. With --sizes it prints the sections of the objects whose file
names match REGEX, and of the image; with --run it boots the image
(device/run_qemu.sh) and exits with its status.

size_report.py uses build() and sections() for its figures.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

CC = "arm-none-eabi-gcc"
FLAGS = ["-std=c11", "-mcpu=cortex-m3", "-mthumb", "-Os", "-Wall", "-Wextra",
         "-Werror", "-ffunction-sections", "-fdata-sections"]
BOARD = ["board_startup.c", "board_semihosting.c", "board_uart.c", "board_arena.c"]
FORBIDDEN = re.compile(r" (malloc|free|_malloc_r|_free_r|pthread_[a-z_]+|"
                       r"_?v?s?n?printf|_vfprintf_r|_svfprintf_r)$")


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit("failed: " + " ".join(map(str, cmd)))
    return done.stdout


def object_name(source):
    return Path(source).name.rsplit(".", 1)[0] + ".o"


def build(root, out, program, sources, defines=(), includes=(), extra=()):
    """Compiles, archives and links; returns the image's path. Objects
    are named after their sources' file names (unique in every image);
    those of extra are linked beside the program's."""
    root, out = Path(root), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    flags = FLAGS + ["-D" + d for d in defines] + [
        "-I" + str(root / "nccc_runtime/include"),
        "-I" + str(root / "nccc_runtime/include/nccc/tvm-compat"),
        "-I" + str(root / "shims"), "-I" + str(root / "device")] + [
        "-I" + str(i) for i in includes]
    objects = []
    for source in list(sources) + [root / "device" / b for b in BOARD]:
        obj = out / object_name(source)
        run([CC] + flags + ["-c", str(root / source), "-o", str(obj)])
        objects.append(obj)
    archive = out / "libimage.a"
    archive.unlink(missing_ok=True)
    run(["arm-none-eabi-ar", "rcs", str(archive)] + [str(o) for o in objects])
    stem = Path(program).name.rsplit(".", 1)[0]
    main_obj = out / (stem + ".o")
    run([CC] + flags + ["-c", str(root / program), "-o", str(main_obj)])
    linked = [main_obj]
    for source in extra:
        linked.append(out / object_name(source))
        run([CC] + flags + ["-c", str(root / source), "-o", str(linked[-1])])
    elf, link_map = out / (stem + ".elf"), out / (stem + ".map")
    run([CC] + flags + ["-nostartfiles", "-T", str(root / "device/mps2_an385.ld"),
                        "-Wl,--gc-sections", "-Wl,-Map=" + str(link_map),
                        *map(str, linked), str(archive), "-lm", "-o", str(elf)])
    pulled = [line for line in run(["arm-none-eabi-nm", str(elf)]).splitlines()
              if FORBIDDEN.search(line)]
    if pulled:
        raise SystemExit("%s pulls in %s on bare metal"
                         % (program, ", ".join(p.split()[-1] for p in pulled)))
    return elf


def sections(link_map):
    """{object file name: {"text": n, "data": n, "bss": n}} of what the
    linker kept, from its map: input sections of the output sections
    .text (code and constants), .data and .bss."""
    sizes = {}
    output = None
    pending = None
    for line in Path(link_map).read_text().splitlines():
        head = re.match(r"^\.(text|data|bss|stack)\b", line)
        if head:
            output = head.group(1)
            continue
        if re.match(r"^\S", line):
            output = None
        if output in (None, "stack"):
            continue
        entry = re.match(r"^ (\.\S+|COMMON)(?:\s+(0x\S+)\s+(0x\S+)\s+(.*))?$", line)
        if entry and entry.group(2) is None:
            pending = entry.group(1)
            continue
        if pending is not None:
            wrapped = re.match(r"^\s+(0x\S+)\s+(0x\S+)\s+(.*)$", line)
            pending = None
            if wrapped:
                add(sizes, output, wrapped.group(2), wrapped.group(3))
            continue
        if entry:
            add(sizes, output, entry.group(3), entry.group(4))
    return sizes


def add(sizes, output, size, origin):
    name = re.sub(r"^.*\((.*)\)$", r"\1", origin.strip())
    name = Path(name).name
    row = sizes.setdefault(name, {"text": 0, "data": 0, "bss": 0})
    row[output] += int(size, 16)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("out")
    ap.add_argument("program")
    ap.add_argument("sources", nargs="*")
    ap.add_argument("--define", action="append", default=[])
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--with", dest="extra", action="append", default=[])
    ap.add_argument("--sizes")
    ap.add_argument("--run", action="store_true")
    args = ap.parse_intermixed_args()
    elf = build(args.root, args.out, args.program, args.sources,
                args.define, args.include, args.extra)
    if args.sizes is not None:
        picked = [str(Path(args.out) / object_name(s))
                  for s in args.sources + args.extra
                  if re.search(args.sizes, object_name(s))]
        print("objects matching '%s' for cortex-m3 (-Os), and their total:"
              % args.sizes)
        print(run(["arm-none-eabi-size", "-t"] + picked), end="")
        print("linked %s (--gc-sections):" % args.program)
        print(run(["arm-none-eabi-size", str(elf)]), end="")
    if args.run:
        print("running %s on qemu-system-arm -M mps2-an385:" % args.program,
              flush=True)
        return subprocess.call(["bash", str(Path(args.root) / "device/run_qemu.sh"),
                                str(elf)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
