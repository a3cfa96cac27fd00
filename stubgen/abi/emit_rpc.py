"""nccc/rpc_wire.h: the remote-call protocol's numbers for C (the
device's server and the host's client both include it)."""

from stubgen.source import Source

HEADER = "nccc_runtime/rpc/include/nccc/rpc_wire.h"


def _define(src, name, value):
    """#define NCCC_RPC_NAME value (name in upper case)."""
    src.line("#define NCCC_RPC_%s %s" % (name.upper(), value))


def _enum(src, ctype, prefix, entries):
    with src.block("typedef enum %s {" % ctype, "} %s;" % ctype):
        for k, e in enumerate(entries):
            comma = "," if k + 1 < len(entries) else ""
            note = " /* %s */" % e.doc if e.doc else ""
            src.line("%s%s = 0x%02x%s%s" % (prefix, e.name.upper(), e.value,
                                            comma, note))
    src.blank()


# How many bytes the hosted CRC takes at a time, one table each: sixteen
# independent lookups per step keep the loads, not the chain through the
# register, the limit (docs/BENCHMARKS.md, "Remote calls").
CRC_SLICES = 16


def _crc_tables(poly):
    """CRC_SLICES 256-entry tables for a CRC that many bytes at a time:
    table k holds the CRC of each byte value followed by k zero bytes,
    in the top of a 16-bit register."""
    def step(crc):
        for _ in range(8):
            crc = ((crc << 1) ^ poly if crc & 0x8000 else crc << 1) & 0xffff
        return crc
    tables = [[step(byte << 8) for byte in range(256)]]
    for _ in range(CRC_SLICES - 1):
        tables.append([(step(v & 0xff00) ^ (v << 8)) & 0xffff
                       for v in tables[-1]])
    return tables


def emit(abi):
    rpc = abi.rpc
    src = Source(indent="  ")
    src.lines("""
        /*
        ** nccc/rpc_wire.h — the numbers of the remote-call protocol
        ** (docs/RPC.md): framing bytes, CRC, header size, message types,
        ** byte orders, log levels, the functions of callbacks across the
        ** wire.
        **
        ** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
        ** --write); do not edit.
        */
        #ifndef NCCC_RPC_WIRE_H
        #define NCCC_RPC_WIRE_H
        """)
    src.blank()
    _define(src, "version", "%du" % rpc.version)
    src.line("/* Framing: ESCAPE START begins a frame, ESCAPE NOP is "
             "ignored, ESCAPE DATA_FF")
    src.line("** is one data byte 0x%02x. */" % rpc.escape)
    for byte in ("escape", "start", "nop", "data_ff"):
        _define(src, "BYTE_" + byte, "0x%02xu" % getattr(rpc, byte))
    for size in ("length_bytes", "crc_bytes"):
        _define(src, size, "%du" % getattr(rpc, size))
    src.line("/* %s: polynomial, initial value, the CRC of \"123456789\" "
             "*/" % rpc.crc["name"])
    for key in ("poly", "init", "check"):
        _define(src, "CRC_" + key, "0x%04xu" % rpc.crc[key])
    src.line("/* The initializer of NCCC_RPC_CRC_SLICES 256-entry tables: "
             "table k is the CRC")
    src.line("** of each byte value followed by k zero bytes (rpc_frame.c, "
             "that many bytes at")
    src.line("** a time, unless NCCC_RPC_CRC_SMALL). */")
    src.line("#define NCCC_RPC_CRC_SLICES %du" % CRC_SLICES)
    src.line("#define NCCC_RPC_CRC_TABLES { \\")
    # 128 values a line: two lines a table
    for k, table in enumerate(_crc_tables(rpc.crc["poly"])):
        for row in range(0, 256, 128):
            head = "  {" if row == 0 else "   "
            tail = ("}" + (" }" if k == CRC_SLICES - 1 else ", \\")) if row + 128 == 256 \
                else ", \\"
            src.line(head + ", ".join("0x%04xu" % v
                                      for v in table[row:row + 128]) + tail)
    src.line("/* The constant every module bound from a device has (value 1): "
             "host modules")
    src.line("** raise a failure of the remote call itself "
             "(docs/RPC.md). */")
    src.line('#define NCCC_RPC_BOUND_MARKER "%s"' % rpc.bound_marker)
    for limit in ("largest_message", "max_name_bytes"):
        src.line("/* %s */" % getattr(rpc, limit + "_doc"))
        _define(src, limit, "0x%xu" % getattr(rpc, limit))
    src.line("/* type, depth, session (2), id (4) */")
    _define(src, "header_bytes", "%du" % rpc.header_bytes)
    src.blank()
    _enum(src, "nccc_rpc_message", "NCCC_RPC_", rpc.messages)
    _enum(src, "nccc_rpc_byte_order", "NCCC_RPC_ORDER_", rpc.byte_orders)
    _enum(src, "nccc_rpc_log_level", "NCCC_RPC_LOG_", rpc.log_levels)
    _enum(src, "nccc_rpc_result_flag", "NCCC_RPC_RESULT_", rpc.result_flags)
    cb = rpc.callbacks
    src.line("/* Callbacks across the wire (docs/RPC.md). */")
    for role in ("claim", "runner"):
        src.line("/* %s */" % cb[role]["doc"])
        src.line('#define NCCC_RPC_%s_NAME "%s"' % (role.upper(), cb[role]["name"]))
        src.line('#define NCCC_RPC_%s_SIGNATURE "%s"' % (role.upper(), cb[role]["signature"]))
    src.line("/* %s */" % cb["released_doc"])
    src.line("#define NCCC_RPC_CALLBACK_RELEASED 0x%xu" % cb["released"])
    src.blank()
    src.line("#endif")
    return str(src)
