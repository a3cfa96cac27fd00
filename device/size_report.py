#!/usr/bin/env python3
"""The device image's size report: what each part of the image takes.

    size_report.py [--build DIR] [--out DIR] [--check]

Builds the device image (device/firmware.c) with device/image.py in each
configuration of device/configurations.txt: "smallest" (every
NCCC_WITH_* switch of nccc/config.h at 0: no trace, faults, thunks or
TVM layer; room for 4 modules) and "full" (the defaults).
For each it prints, from the link map, the .text (code and constants),
.data and .bss that each part keeps after --gc-sections: the runtime
core, the RPC server, the generated modules with their fixture, the
board, and the C library with the compiler's helpers; then the image's
own totals. Constant strings are counted before the linker merges
duplicates, so the parts add up to a little more than the image.

The RPC server's buffers (its receive and send buffers, sized by
NCCC_RPC_MAX_MESSAGE and NCCC_RPC_MAX_DEPTH) are printed apart from the
rest of its .bss. With --build (a plain build that has built
test/device), it also boots each image under the C device test
(test_device: callbacks nested as deep as the device allows) and prints
the stack high-water mark the device measured by painting its stack.
With --check it exits non-zero unless the smallest configuration keeps
within the bounds of issue 14: runtime core and RPC server at most
8 KiB of .text and 2 KiB of .bss beyond the configured buffers.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import image  # noqa: E402

# The bounds --check holds the smallest configuration to (bytes).
SMALLEST_TEXT_MAX = 8192
SMALLEST_BSS_BEYOND_BUFFERS_MAX = 2048


def configurations():
    """(name, settings) of each line of device/configurations.txt."""
    for line in (HERE / "configurations.txt").read_text().splitlines():
        if line.strip():
            name, *settings = line.split()
            yield name, settings


def cmake_list(name):
    """A source list set() in a CMakeLists.txt of the runtime, as paths
    from the repository root."""
    for lists in (ROOT / "nccc_runtime").rglob("CMakeLists.txt"):
        text = lists.read_text()
        found = re.search(r"set\(%s\s+((?:\s*src/\S+\.c)+)\s*\)" % name, text)
        if found:
            folder = lists.parent.relative_to(ROOT)
            return [str(folder / s) for s in found.group(1).split()]
    raise SystemExit("no set(%s ...) in nccc_runtime" % name)


def sources(generated):
    core = cmake_list("NCCC_RUNTIME_CORE_SOURCES")
    tvm = cmake_list("NCCC_RUNTIME_TVM_SOURCES")
    server = cmake_list("NCCC_RPC_SERVER_SOURCES")
    modules = [str(generated / "m_nccc.c"), str(generated / "dev_nccc.c"),
               str(generated / "callbacks_nccc.c"), str(generated / "cdata_nccc.c"),
               "device/fixture/dev.c", "device/fixture/callbacks.c", "test/cdata/cdata.c"]
    return core + tvm + server + modules, {
        "runtime core": {image.object_name(s) for s in core + tvm},
        "RPC server": {image.object_name(s) for s in server},
        "modules m, dev, callbacks, cdata and their C": {image.object_name(s) for s in modules},
        "board": {image.object_name(b) for b in image.BOARD},
        "firmware.c (with the server object)": {"firmware.o"},
    }


def generate(out):
    for idl in ("device/fixture/m.idl", "device/fixture/dev.idl",
                "device/fixture/callbacks.idl", "test/cdata/cdata.idl"):
        subprocess.run(["bash", str(ROOT / "bin/nccc-stubgen"), "--lang", "c",
                        "-o", str(out), str(ROOT / idl)],
                       check=True, env=dict(os.environ, NCCC_PYTHON=sys.executable))


def config_value(name, defines, includes):
    """What nccc/config.h makes of macro name with these -D settings."""
    probe = image.run([image.CC, "-E", "-dM", "-x", "c", "-include", "nccc/config.h",
                       "-include", "nccc/rpc_server.h", "/dev/null"] +
                      ["-D" + d for d in defines] + ["-I" + str(i) for i in includes])
    found = re.search(r"^#define %s (\S+)$" % name, probe, re.M)
    return int(found.group(1).rstrip("uUlL"))


def report(name, defines, generated, out, session):
    files, parts = sources(generated)
    includes = [generated, ROOT / "device/fixture", ROOT / "test/cdata",
                ROOT / "nccc_runtime/include",
                ROOT / "nccc_runtime/rpc/include"]
    elf = image.build(ROOT, out / name, "device/firmware.c", files, defines, includes)
    kept = image.sections(elf.with_suffix(".map"))
    rows = {part: {"text": 0, "data": 0, "bss": 0} for part in parts}
    rows["C library and compiler helpers"] = {"text": 0, "data": 0, "bss": 0}
    for obj, size in kept.items():
        part = next((p for p, objs in parts.items() if obj in objs),
                    "C library and compiler helpers")
        for k in size:
            rows[part][k] += size[k]
    print("%s configuration (%s):" % (name, " ".join(defines) or "defaults"))
    print("  %-34s %7s %7s %7s" % ("part", ".text", ".data", ".bss"))
    for part, size in rows.items():
        print("  %-34s %7d %7d %7d" % (part, size["text"], size["data"], size["bss"]))
    messages = 2 * (config_value("NCCC_RPC_MAX_DEPTH", defines, includes) + 1) * \
        config_value("NCCC_RPC_MAX_MESSAGE", defines, includes)
    registry = config_value("NCCC_GLOBAL_REGISTRY_BYTES", defines, includes) \
        if config_value("NCCC_WITH_GLOBAL_REGISTRY", defines, includes) else 0
    server_object = rows["firmware.c (with the server object)"]["bss"]
    bss = rows["runtime core"]["bss"] + rows["RPC server"]["bss"] + server_object
    text = rows["runtime core"]["text"] + rows["RPC server"]["text"]
    print("  runtime core + RPC server: .text %d; .bss %d, of which %d beyond the "
          "configured buffers (%d of RPC messages in the server object, %d of "
          "global registry)" % (text, bss, bss - messages - registry, messages, registry))
    print("  image (arm-none-eabi-size):")
    print("    " + image.run(["arm-none-eabi-size", str(elf)]).replace("\n", "\n    ").rstrip())
    if session is not None:
        env = dict(os.environ, CK_FORK="no", NCCC_DEVICE_RUN=str(ROOT / "device/run_qemu.sh"),
                   NCCC_DEVICE_IMAGE=str(elf), NCCC_DEVICE_CONFIG=name)
        done = subprocess.run([str(session)], capture_output=True, text=True, timeout=300,
                              env=env)
        mark = re.search(r"device stack high-water mark: \d+ bytes", done.stdout)
        print("  " + (mark.group(0) if mark else "test_device failed:\n" + done.stdout))
    print()
    return text, bss - messages - registry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", help="a plain build directory with test/device built")
    ap.add_argument("--out", help="scratch directory (default: a temporary one)")
    ap.add_argument("--check", action="store_true",
                    help="fail unless the smallest configuration keeps within its bounds")
    args = ap.parse_args()
    session = None
    if args.build:
        session = Path(args.build).resolve() / "test/device/test_device"
        if not session.exists():
            raise SystemExit("%s does not exist: build test/device first" % session)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(args.out or scratch).resolve()
        generated = out / "generated"
        generate(generated)
        kept = {name: report(name, settings, generated, out, session)
                for name, settings in configurations()}
    text, bss = kept["smallest"]
    if args.check and (text > SMALLEST_TEXT_MAX or bss > SMALLEST_BSS_BEYOND_BUFFERS_MAX):
        print("the smallest configuration keeps %d bytes of .text (at most %d) and %d of "
              ".bss beyond its buffers (at most %d)"
              % (text, SMALLEST_TEXT_MAX, bss, SMALLEST_BSS_BEYOND_BUFFERS_MAX))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
