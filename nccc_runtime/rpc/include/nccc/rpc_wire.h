/*
** nccc/rpc_wire.h — the numbers of the remote-call protocol
** (docs/RPC.md): framing bytes, CRC, header size, message types,
** byte orders, log levels.
**
** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
** --write); do not edit.
*/
#ifndef NCCC_RPC_WIRE_H
#define NCCC_RPC_WIRE_H

#define NCCC_RPC_VERSION 1u
/* Framing: ESCAPE START begins a frame, ESCAPE NOP is ignored, ESCAPE ESCAPE
** is one data byte 0xff. */
#define NCCC_RPC_BYTE_ESCAPE 0xffu
#define NCCC_RPC_BYTE_START 0xfdu
#define NCCC_RPC_BYTE_NOP 0xfeu
#define NCCC_RPC_LENGTH_BYTES 4u
#define NCCC_RPC_CRC_BYTES 2u
/* CRC-16-CCITT: polynomial, initial value, the CRC of "123456789" */
#define NCCC_RPC_CRC_POLY 0x1021u
#define NCCC_RPC_CRC_INIT 0xffffu
#define NCCC_RPC_CRC_CHECK 0x29b1u
/* type, flags, session (2), id (4) */
#define NCCC_RPC_HEADER_BYTES 8u

typedef enum nccc_rpc_message {
  NCCC_RPC_HELLO = 0x01, /* open a session: version, host nonce */
  NCCC_RPC_START = 0x02, /* session start: version, pointer bytes, byte order, depth, largest message, most slots, session id in the header */
  NCCC_RPC_CALL = 0x10, /* call by handle: handle, n_in, n_out, strings in, strings out, in slots */
  NCCC_RPC_LOOKUP = 0x11, /* name -> handle, n_in, n_out, signature */
  NCCC_RPC_ALLOC = 0x12, /* size -> address */
  NCCC_RPC_FREE = 0x13, /* address */
  NCCC_RPC_READ = 0x14, /* address, n -> n bytes */
  NCCC_RPC_WRITE = 0x15, /* address, bytes */
  NCCC_RPC_STRLEN = 0x16, /* address -> length */
  NCCC_RPC_RESULT = 0x20, /* the answer to a request: status, then what the request gives */
  NCCC_RPC_NOTICE = 0x30, /* a fault seen by the receiver (a dropped frame): status, text */
  NCCC_RPC_LOG = 0x31 /* a log line: level, text */
} nccc_rpc_message;

typedef enum nccc_rpc_byte_order {
  NCCC_RPC_ORDER_LITTLE = 0x00,
  NCCC_RPC_ORDER_BIG = 0x01
} nccc_rpc_byte_order;

typedef enum nccc_rpc_log_level {
  NCCC_RPC_LOG_ERROR = 0x00,
  NCCC_RPC_LOG_WARN = 0x01,
  NCCC_RPC_LOG_INFO = 0x02,
  NCCC_RPC_LOG_ABORT = 0x03 /* the device aborted (TVMPlatformAbort); the request in progress fails */
} nccc_rpc_log_level;

#endif
