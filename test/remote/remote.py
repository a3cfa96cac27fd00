"""remote.py CLIENT.so DEVICE COMMAND... — the device's libc module from
Python: the generated module libc.py bound to a library whose runtime has
the device's module "libc" bound over the remote-call client (opened
through the generated module remotes.py, from idl/remotes.idl), each call
compared with what Python computes; then a failure of the remote call
itself, which raises nccc.RemoteError, and C objects, which need the
device's memory bound (remote_cases.py has them work); then host buffers
at pointer parameters (libc's snprintf, wire's byte_sum), copied into
the device's memory once libc_memory and wire_memory are bound, and a
callback's arrays and strings read from the device's memory (keep.total,
keep.box_run). (One library only: the Python
layer loads libraries with RTLD_GLOBAL, so a second library holding libc
would share the first one's runtime.) The package nccc and the generated
modules come from PYTHONPATH. Prints failures and "N passed, M failed";
exits 1 on one."""

import math
import os
import sys

import nccc
import keep
import libc
import remotes
import wire

there = nccc.open(sys.argv[1])
links = remotes.bind(there)
status, device = links.connect("exec:" + " ".join(sys.argv[2:]), None)
if status != 0:
    sys.exit("connect: status 0x%x" % status)
status, _ = links.bind(device, "libc", nccc.NULL)
if status != 0:
    sys.exit("bind libc: status 0x%x" % status)
remote = libc.bind(there)
passed = failed = 0


def check(what, got, want):
    global passed, failed
    if got == want:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %r, expected %r" % (what, got, want))


text = "a string that crosses the wire"
check("libc.strlen", remote.strlen(text), len(text))
check("libc.strlen('')", remote.strlen(""), 0)
check("libc.frexp", remote.frexp(-1536.0), math.frexp(-1536.0))
check("libc.ldexp", remote.ldexp(0.75, -1074), math.ldexp(0.75, -1074))
check("libc.hypotf", remote.hypotf(3.0, 4.0), 5.0)
check("libc.getenv", remote.getenv("NCCC_REMOTE_MARK"), os.environ["NCCC_REMOTE_MARK"])
check("libc.getenv of nothing", remote.getenv("NCCC_NO_SUCH_VARIABLE"), None)
value, end, _ = remote.strtol("  -2147483648xyz", 10)
check("libc.strtol", (value, bool(end)), (-2147483648, True))

# A failure of the remote call itself raises nccc.RemoteError with its
# status and cause: a string past the device's largest message is
# refused before it is sent; the next call goes through.
try:
    remote.strlen("x" * 70000)
    check("libc.strlen of 70000 bytes", "no error", "RemoteError")
except nccc.RemoteError as e:
    check("libc.strlen of 70000 bytes",
          (e.status, e.function, "'libc.strlen': remote call failed" in str(e)),
          (nccc.abi.STATUS["ERR_RPC_TOO_BIG"], "libc.strlen", True))
check("libc.strlen after the failure", remote.strlen("after"), 5)

# C objects of a module bound from a device live in the device's memory,
# through the module libc_memory, not bound here: new and view say so
# (docs/PYTHON.md, "C objects on a device").
for helper in ("new", "view"):
    try:
        getattr(remote, helper)("div_t", 1)
        check("libc.%s" % helper, "no error", "nccc.Error")
    except nccc.Error as e:
        check("libc.%s" % helper,
              "memory is not bound as libc_memory" in str(e), True)

# Host buffers at a pointer parameter go to the device's memory for the
# call (docs/PYTHON.md, "C objects on a device"): without the memory
# module bound, refused naming the function and the parameter; with it,
# bytes in, and a bytearray the device writes copied back.
buf = bytearray(b"\xee" * 12)
try:
    remote.snprintf_int(buf, len(buf), "<%d>", -42)
    check("libc.snprintf_int into a bytearray, no libc_memory", "no error",
          "ArgumentError")
except nccc.ArgumentError as e:
    check("libc.snprintf_int into a bytearray, no libc_memory",
          (e.function, e.parameter, "libc_memory" in str(e)),
          ("libc.snprintf_int", 1, True))
check("bind wire", links.bind(device, "wire", nccc.NULL)[0], 0)
for name in ("libc_memory", "wire_memory"):
    check("bind " + name, links.bind_memory(device, name)[0], 0)
check("libc.snprintf_int into a bytearray",
      (remote.snprintf_int(buf, len(buf), "<%d>", -42), bytes(buf)),
      (5, b"<-42>\0" + b"\xee" * 6))
view = memoryview(bytearray(4))
check("libc.snprintf_int into a memoryview",
      (remote.snprintf_int(view, 4, "%d", 12345), bytes(view)),
      (5, b"123\0"))
w = wire.bind(there)
data = bytes(range(250, 256)) + b"\0\x01"
check("wire.byte_sum of bytes",
      w.byte_sum(data, len(data)),
      sum((k + 1) * b for k, b in enumerate(data)))
check("wire.byte_sum of a bytearray, unchanged",
      (w.byte_sum(bytearray(b"\x02\x03"), 2)), 8)
check("wire.byte_sum of no bytes", w.byte_sum(b"", 0), 0)

# A callback the device calls gets the arrays its value descriptions
# describe read from the device's memory (keep_memory): int64 elements
# in the device's byte order, and NULL-terminated char pointers of the
# device's size, each string read there.
for name, bind in (("keep", lambda: links.bind(device, "keep", nccc.NULL)),
                   ("keep_memory", lambda: links.bind_memory(device, "keep_memory"))):
    check("bind " + name, bind()[0], 0)
k = keep.bind(there)
seen = []


def total(xs, n, words):
    seen.append((xs, n, words))
    return sum(xs) * 10


check("keep.total", (k.total(total, 4), seen),
      (100, [([1, 2, 3, 4], 4, ["one", "two", "three"])]))
check("keep.total of no elements", k.total(lambda xs, n, words: len(xs), 0), 0)
# and a string argument (code s), read from the device for the call
box, visits = k.box_new(5), []
k.box_watch(box, lambda name, tags: visits.append((name, tags)), None)
k.box_user(box)
check("keep.box_run's visit", (k.box_run(box, "xy", 2), visits),
      (0, [("xy", ["value", "5", "name", "xy"])]))
box.close()

# On the Windows device, [lasterror]: kernel32's values (winerror.h's
# ERROR_FILE_NOT_FOUND 2, ERROR_PATH_NOT_FOUND 3, ERROR_INVALID_HANDLE 6)
# next to each result, as windows_lasterror sees them there.
if os.environ["NCCC_REMOTE_MARK"] == "windows":
    import win32
    status, _ = links.bind(device, "win32", nccc.NULL)
    check("bind win32", status, 0)
    w = win32.bind(there)
    check("win32.GetFileAttributesA of a missing directory",
          w.GetFileAttributesA("C:\\no\\such\\dir\\file.txt"), (0xFFFFFFFF, 3))
    check("win32.GetFileAttributesA of a missing file",
          w.GetFileAttributesA("C:\\windows\\no-such-file.txt"), (0xFFFFFFFF, 2))
    attributes, error = w.GetFileAttributesA("C:\\windows")
    check("win32.GetFileAttributesA of a directory", (attributes & 0x10, error), (0x10, 0))
    check("win32.CloseHandle(NULL)", w.CloseHandle(nccc.NULL), (0, 6))

links.close(device)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
