"""demo.py - zlib and SQLite from Python through nccc: the library
nccc_add_bindings(... SHARED) built (examples/CMakeLists.txt) holds the
runtime and the wrappers generated from idl/zlib.idl and idl/sqlite3.idl;
everything below goes through the Python modules zlib.py and sqlite3.py
that nccc-stubgen generates from the same IDL files, over the package
bindings/python/nccc.

    python3 demo.py LIBRARY FILE GENERATED_DIR

PYTHONPATH must reach the package nccc (with its C extension, or it runs
on ctypes); GENERATED_DIR holds the generated zlib.py and sqlite3.py
(tools/demo.sh gives both). Exits 1 on any mismatch.
"""

import importlib.util
import math
import os
import sys

import nccc

if len(sys.argv) != 4:
    sys.exit("usage: python3 demo.py LIBRARY FILE GENERATED_DIR")
libpath, path, generated = sys.argv[1:]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("  MISMATCH: " + what)
    return ok




def load(name):
    """The generated module name, loaded from its file: zlib and sqlite3
    are also the names of Python's own modules, which a directory on
    sys.path would shadow."""
    spec = importlib.util.spec_from_file_location(
        "nccc_demo_" + name, os.path.join(generated, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lib = nccc.open(libpath)
# The generated modules: bind registers the module (nccc_zlib_open,
# nccc_sqlite3_open), then looks each function up once, and the constants
# by name.
zlib = load("zlib").bind(lib)
sqlite3 = load("sqlite3").bind(lib)
print("nccc runtime %s (%s primitive), zlib %s, SQLite %s" % (
    lib.version, nccc.PRIMITIVE, zlib.zlibVersion(),
    sqlite3.sqlite3_libversion()))

# ---- zlib: compress a real file and back --------------------------------------
# Python buffers go where C takes memory: bytes in, bytearrays to fill.

print()
print("== zlib: " + path)
with open(path, "rb") as f:
    text = f.read()


def crc32(data):
    return zlib.crc32(zlib.crc32(0, None, 0), data, len(data))


packed = bytearray(zlib.compressBound(len(text)))
rc, packed_len = zlib.compress2(packed, len(packed), text, len(text),
                                zlib.Z_BEST_COMPRESSION)
check(rc == zlib.Z_OK, "compress2 returned %d" % rc)
back = bytearray(len(text))
rc, back_len = zlib.uncompress(back, len(back), bytes(packed[:packed_len]),
                               packed_len)
check(rc == zlib.Z_OK, "uncompress returned %d" % rc)
crc_in, crc_out = crc32(text), crc32(bytes(back[:back_len]))
print("  original    %6d bytes  crc32 %08x" % (len(text), crc_in))
print("  compressed  %6d bytes  (%.1f%% of the original)" % (
    packed_len, 100.0 * packed_len / len(text)))
print("  round trip  %6d bytes  crc32 %08x" % (back_len, crc_out))
check(back_len == len(text), "round trip has %d bytes" % back_len)
check(crc_in == crc_out, "crc32 differs")
check(bytes(back) == text, "round trip bytes differ")
print("  " + ("match" if crc_in == crc_out and bytes(back) == text
              else "MISMATCH"))

# ---- SQLite: a table, rows, a row callback and a SQL function in Python --------

print()
print("== SQLite (:memory:)")
SQLITE_OK = sqlite3.SQLITE_OK
# db is an owned object ([out, owned(sqlite3_close)] in the IDL): close()
# closes it, at most once
rc, db = sqlite3.sqlite3_open(":memory:")
if rc != SQLITE_OK:
    sys.exit("sqlite3_open failed: %d" % rc)


def execute(sql, row=None):
    """sqlite3_exec with row, a Python function made into a closure of the
    IDL's callback type exec_fn ("call" scope: released when sqlite3_exec
    returns)."""
    cb = sqlite3.callback("exec_fn", row) if row else None
    rc, msg = sqlite3.sqlite3_exec(db, sql, cb)
    check(rc == SQLITE_OK, "%s: %s" % (sql, msg))


planets = [("Mercury", 2439.7, 0), ("Venus", 6051.8, 0), ("Earth", 6371.0, 1),
           ("Mars", 3389.5, 2), ("Jupiter", 69911.0, 95)]
execute("CREATE TABLE planets (name TEXT, radius_km REAL, moons INTEGER)")
rc, stmt, _ = sqlite3.sqlite3_prepare_v2(
    db, "INSERT INTO planets VALUES (?, ?, ?)", -1)
check(rc == SQLITE_OK, "prepare failed")
SQLITE_TRANSIENT = (1 << 64) - 1   # (void *)-1: SQLite copies the text
for name, radius, moons in planets:
    data = name.encode()
    sqlite3.sqlite3_bind_text(stmt, 1, data, len(data), SQLITE_TRANSIENT)
    sqlite3.sqlite3_bind_double(stmt, 2, radius)
    sqlite3.sqlite3_bind_int64(stmt, 3, moons)
    check(sqlite3.sqlite3_step(stmt) == sqlite3.SQLITE_DONE, "insert " + name)
    sqlite3.sqlite3_reset(stmt)
check(stmt.close(), "sqlite3_finalize did not run")  # stmt is owned too
print("  inserted %d rows with a prepared statement" % len(planets))


def collector(rows):
    """A row callback keeping one dict per row. The IDL's [length=ncols]
    makes each char ** a list of ncols pointers (None for NULL)."""
    def row(ncols, values, names):
        rows.append({lib.string(names[k]): lib.string(values[k]) or "NULL"
                     for k in range(ncols)})
        return 0
    return row


rows = []
execute("SELECT name, radius_km, moons FROM planets ORDER BY radius_km",
        collector(rows))
print("  sqlite3_exec, a Python row callback:")
for r in rows:
    print("    %-8s %9s km  %3s moons" % (r["name"], r["radius_km"],
                                          r["moons"]))
check(len(rows) == len(planets), "the callback saw %d rows" % len(rows))

# A scalar SQL function in Python, of the IDL's callback type sql_func_fn:
# sphere_area(r) = 4 pi r^2. Its closure is "notified": SQLite calls the
# destroy notify when the connection closes.
area_calls = []


def sphere_area(ctx, argc, argv):
    area_calls.append(argc)
    r = sqlite3.sqlite3_value_double(argv[0])
    sqlite3.sqlite3_result_double(ctx, 4 * math.pi * r * r)


area = sqlite3.callback("sql_func_fn", sphere_area, "notified")
rc = sqlite3.sqlite3_create_function_v2(
    db, "sphere_area", 1, sqlite3.SQLITE_UTF8 | sqlite3.SQLITE_DETERMINISTIC,
    area, None, None)
check(rc == SQLITE_OK, "sqlite3_create_function_v2 returned %d" % rc)

areas = []
execute("SELECT name, sphere_area(radius_km) AS area FROM planets "
        "ORDER BY area DESC", collector(areas))
print("  sphere_area(radius_km), a SQL function written in Python:")
radius_of = {name: radius for name, radius, _ in planets}
for r in areas:
    want, got = 4 * math.pi * radius_of[r["name"]] ** 2, float(r["area"])
    print("    %-8s %14.0f km2" % (r["name"], got))
    check(abs(got - want) <= 1e-12 * want, "%s: area %s" % (r["name"],
                                                           r["area"]))
check(len(areas) == len(planets) and area_calls == [1] * len(planets),
      "%d rows, %d calls of sphere_area" % (len(areas), len(area_calls)))

check(db.close(), "sqlite3_close did not run")
print("  closed; sphere_area ran %d times, its closure %s" % (
    len(area_calls), "is STILL HELD" if area.live
    else "was released by the destroy notify"))
check(not area.live, "the destroy notify did not release the closure")

print()
if failures:
    print("demo.py: %d mismatches" % len(failures))
    sys.exit(1)
print("demo.py: all results match")
