"""remote_cases.py CLIENT.so DEVICE COMMAND... — the shared case table's
cases that need cdata (test/hosts/cases.json), run by the Python case
runner (test/python/cases.py) against the device: the module cdata
(test/cdata/cdata.idl) bound from the device with its memory as
cdata_memory, C objects made by new in the device's memory, their fields
at the device's offsets and in its byte order. The runner's memory steps
(alloc, free, read_bytes, write_bytes) use the device's memory too. A
case the table marks not_remote is printed as NOT RUN with its reason,
apart from the passed and failed ones. Prints failures and
"N passed, M failed, K not run"; exits 1 on a failure."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import nccc  # noqa: E402
import cases  # noqa: E402
import cdata  # noqa: E402
import remotes  # noqa: E402

class DeviceLib:
    """The client library, with the case runner's memory (alloc, free,
    read, write) the device's, through its memory module."""

    def __init__(self, lib, memory):
        self._lib, self._mem = lib, memory

    def __getattr__(self, name):
        return getattr(self._lib, name)

    def alloc(self, n):
        return self._mem.alloc(n)

    def free(self, p):
        self._mem.free(p)

    def read(self, p, n):
        return self._mem.read(p, n)

    def write(self, p, data):
        self._mem.write(p, data)


def main():
    there = nccc.open(sys.argv[1])
    links = remotes.bind(there)
    status, device = links.connect("exec:" + " ".join(sys.argv[2:]), None)
    if status != 0:
        sys.exit("connect: status 0x%x" % status)
    for name, bind in (("cdata", lambda: links.bind(device, "cdata",
                                                    nccc.NULL)),
                       ("cdata_memory", lambda: links.bind_memory(
                           device, "cdata_memory"))):
        status, _ = bind()
        if status != 0:
            sys.exit("bind %s: status 0x%x" % (name, status))
    module = cdata.bind(there)
    lib = DeviceLib(there, module._objects.mem)
    with open(os.path.join(os.path.dirname(HERE), "hosts", "cases.json"),
              encoding="utf-8") as f:
        table = json.load(f)["cases"]
    passed = failed = not_run = 0
    for case in table:
        if case.get("needs") != "cdata":
            continue
        if "not_remote" in case:
            not_run += 1
            print("NOT RUN %s: %s" % (case["name"], case["not_remote"]))
            continue
        try:
            cases.run(lib, {"cdata": module}, case, device=True)
            passed += 1
        except cases.Failed as e:
            failed += 1
            print("FAIL %s: %s" % (case["name"], e))
    links.close(device)
    print("%d passed, %d failed, %d not run (device %s, %s-endian, "
          "%d-byte pointers)" % (passed, failed, not_run,
                                 os.environ.get("NCCC_REMOTE_MARK", "?"),
                                 lib._mem.order, lib._mem.pointer_bytes))
    sys.exit(1 if failed else 0)


main()
