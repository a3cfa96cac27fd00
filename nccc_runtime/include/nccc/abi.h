/*
** nccc/abi.h — the ABI's numbers and tables: signature codes and
** their grammar, the handle layout, status codes, built-ins,
** closure targets, scopes and flags, type kinds (docs/ABI.md).
**
** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
** --write); do not edit. The Lua and Scheme tables come from the
** same file, so a change there reaches every host.
*/
#ifndef NCCC_ABI_H
#define NCCC_ABI_H

/* ---- signature codes and their grammar ---- */

/* KIND is BOOL INT FLOAT POINTER STRING FUNCTION CLOSURE or ERRNO; BYTES 0
** means pointer-sized; IN_OK/OUT_OK: allowed on that side. */
/* NCCC_ABI_CODES(X): X(CODE, NAME, KIND, BYTES, SIGNED, IN_OK, OUT_OK) */
#define NCCC_ABI_CODES(X) \
  X('?', BOOL, BOOL, 1, 0, 1, 1) \
  X('b', INT8, INT, 1, 1, 1, 1) \
  X('B', UINT8, INT, 1, 0, 1, 1) \
  X('h', INT16, INT, 2, 1, 1, 1) \
  X('H', UINT16, INT, 2, 0, 1, 1) \
  X('i', INT32, INT, 4, 1, 1, 1) \
  X('I', UINT32, INT, 4, 0, 1, 1) \
  X('l', INT64, INT, 8, 1, 1, 1) \
  X('L', UINT64, INT, 8, 0, 1, 1) \
  X('f', FLOAT, FLOAT, 4, 1, 1, 1) \
  X('d', DOUBLE, FLOAT, 8, 1, 1, 1) \
  X('p', POINTER, POINTER, 0, 0, 1, 1) \
  X('s', STRING, STRING, 0, 0, 1, 1) \
  X('F', FUNCTION_POINTER, FUNCTION, 0, 0, 1, 1) \
  X('c', CLOSURE, CLOSURE, 0, 0, 1, 1) \
  X('e', ERRNO, ERRNO, 4, 1, 0, 1) \
  X('W', LASTERROR, ERRNO, 4, 0, 0, 1)

#define NCCC_ABI_IN_CODES "?bBhHiIlLfdpsFc"
#define NCCC_ABI_VALUE_CODES "?bBhHiIlLfdpsF" /* not closure, not errno */
#define NCCC_ABI_OUT_CODES "?bBhHiIlLfdpsFceW"
#define NCCC_ABI_SIG_SEPARATOR ':'
#define NCCC_ABI_SIG_VARIADIC '*'
#define NCCC_ABI_SIG_RECORD_OPEN '{'
#define NCCC_ABI_SIG_RECORD_CLOSE '}'
#define NCCC_ABI_SIG_RECORD_COUNT ':'
#define NCCC_ABI_MAX_SLOTS 0x7fffu /* per side */
#define NCCC_ABI_SLOTS_VARIABLE 0x8000u /* or'ed into a count: the side ends in '*' */

/* ---- the native cores' items (docs/ABI.md, "Core items") ---- */

/* Marks before an item: a zero slot is the helper's to refuse; the
** helper converts the item both ways. */
#define NCCC_ABI_ITEM_NONNULL '!'
#define NCCC_ABI_ITEM_HELPER '~'
/* What slow(k, v) takes in place of an argument number k to raise
** one of the call's other errors. */
typedef enum nccc_helper_key {
  NCCC_HELPER_COUNT = 0, /* the call has the wrong number of arguments; v: how many it has */
  NCCC_HELPER_CALLBACK_ERRORS = -1, /* callbacks raised during the call; v: what they raised */
  NCCC_HELPER_POOL_EXHAUSTED = -2, /* the call needed a thunk and its pool was full; v: the last error's message */
  NCCC_HELPER_KEYWORDS = -3 /* the call has keyword arguments; v: their names */
} nccc_helper_key;

/* ---- handles ---- */

#define NCCC_ABI_HANDLE_MODULE_MARKER 0x80000000u
#define NCCC_ABI_HANDLE_FUNCTION_MARKER 0x8000u
#define NCCC_ABI_HANDLE_MODULE_SHIFT 16
#define NCCC_ABI_HANDLE_INDEX_MASK 0x7fffu

/* ---- the hash of closure types and name indices: FNV-1a 32 ---- */

/* FNV-1a 32's basis and prime; a registry's hash index: [slot count - 1, slots...],
** a slot EMPTY or a function's index + 1, at least SLOTS_PER_NAME slots a name,
** a power of two (nccc/registry.h). */
#define NCCC_ABI_FNV1A_BASIS 2166136261u
#define NCCC_ABI_FNV1A_PRIME 16777619u
#define NCCC_ABI_NAME_INDEX_EMPTY 0u
#define NCCC_ABI_NAME_INDEX_SLOTS_PER_NAME 2u

/* ---- status codes (TVM CRT's values where TVM has the condition) ---- */

typedef enum nccc_status {
  NCCC_OK = 0x0000,
  NCCC_ERR_NAME_NOT_FOUND = 0x0100, /* kTvmErrorFunctionNameNotFound */
  NCCC_ERR_INDEX_INVALID = 0x0101, /* kTvmErrorFunctionIndexInvalid */
  NCCC_ERR_REGISTRY_FULL = 0x0102, /* kTvmErrorFunctionRegistryFull */
  NCCC_ERR_ALREADY_DEFINED = 0x0103, /* kTvmErrorFunctionAlreadyDefined */
  NCCC_ERR_BUFFER_TOO_SMALL = 0x0104, /* kTvmErrorBufferTooSmall */
  NCCC_ERR_PLATFORM_CHECK = 0x0500, /* kTvmErrorPlatformCheckFailure */
  NCCC_ERR_NO_MEMORY = 0x0503, /* kTvmErrorPlatformNoMemory */
  NCCC_ERR_NUM_ARGUMENTS = 0x0800, /* kTvmErrorFunctionCallNumArguments */
  NCCC_ERR_WRONG_ARG_TYPE = 0x0801, /* kTvmErrorFunctionCallWrongArgType */
  NCCC_ERR_NOT_IMPLEMENTED = 0x0802, /* kTvmErrorFunctionCallNotImplemented */
  NCCC_ERR_INVALID_ARG = 0x0803, /* kTvmErrorFunctionCallInvalidArg */
  NCCC_ERR_BAD_NAME = 0x4000, /* empty, over-long or NULL name where one is defined (registering); a lookup of such a name finds nothing: ERR_NAME_NOT_FOUND */
  NCCC_ERR_BAD_HANDLE = 0x4001, /* handle markers or indices invalid */
  NCCC_ERR_BAD_SIGNATURE = 0x4002, /* signature string malformed */
  NCCC_ERR_MODULES_FULL = 0x4003, /* NCCC_MAX_MODULES modules present */
  NCCC_ERR_NULL_POINTER = 0x4004, /* a required pointer was NULL */
  NCCC_ERR_NOT_INITIALIZED = 0x4005, /* nccc_init has not run */
  NCCC_ERR_STALE_CLOSURE = 0x4006, /* a closure context that is released, spent or was never claimed */
  NCCC_ERR_POOL_EXHAUSTED = 0x4007, /* a fixed pool or table is full: closures, thunks, trace, faults */
  NCCC_ERR_FAULT_INJECTED = 0x4008, /* a call answered by fault injection (trace records) */
  NCCC_ERR_WRONG_THREAD = 0x4009, /* a closure claimed with the thread flag called from a thread other than the one that claimed it */
  NCCC_ERR_RPC_TRANSPORT = 0x4100, /* remote: the link could not be opened, read or written, or the peer closed it */
  NCCC_ERR_RPC_TIMEOUT = 0x4101, /* remote: no answer within the timeout (retries included); a call's outcome is unknown */
  NCCC_ERR_RPC_RESET = 0x4102, /* remote: the device restarted or a new session began during the request; a call's outcome is unknown */
  NCCC_ERR_RPC_SESSION = 0x4103, /* remote: the request named a session the device does not have; nothing ran */
  NCCC_ERR_RPC_REPLAYED = 0x4104, /* remote: a request id older than the last one served; nothing ran */
  NCCC_ERR_RPC_FRAME = 0x4105, /* remote: a frame was dropped (CRC, truncation, length over the limit, garbage) */
  NCCC_ERR_RPC_PROTOCOL = 0x4106, /* remote: a well-framed message that breaks the protocol (unknown type, bad length, other version) */
  NCCC_ERR_RPC_TOO_BIG = 0x4107, /* remote: the request or its answer exceeds the peer's message or slot limit */
  NCCC_ERR_RPC_WORD_SIZE = 0x4108, /* remote: a slot value that does not fit the device's word size; refused before sending */
  NCCC_ERR_RPC_FREED = 0x4109, /* remote: a remote pointer that was freed (or never allocated) passed to free, read, write or strlen */
  NCCC_ERR_RPC_DEPTH = 0x410a /* remote: a nested request past the configured depth */
} nccc_status;

/* NCCC_ABI_STATUSES(X): X(NAME, VALUE, TEXT) */
#define NCCC_ABI_STATUSES(X) \
  X(NCCC_OK, 0x0000, "ok") \
  X(NCCC_ERR_NAME_NOT_FOUND, 0x0100, "name not found") \
  X(NCCC_ERR_INDEX_INVALID, 0x0101, "index out of range") \
  X(NCCC_ERR_REGISTRY_FULL, 0x0102, "registry full") \
  X(NCCC_ERR_ALREADY_DEFINED, 0x0103, "already defined") \
  X(NCCC_ERR_BUFFER_TOO_SMALL, 0x0104, "buffer too small") \
  X(NCCC_ERR_PLATFORM_CHECK, 0x0500, "platform check failed") \
  X(NCCC_ERR_NO_MEMORY, 0x0503, "out of memory") \
  X(NCCC_ERR_NUM_ARGUMENTS, 0x0800, "wrong number of slots") \
  X(NCCC_ERR_WRONG_ARG_TYPE, 0x0801, "wrong argument type") \
  X(NCCC_ERR_NOT_IMPLEMENTED, 0x0802, "not implemented") \
  X(NCCC_ERR_INVALID_ARG, 0x0803, "invalid argument") \
  X(NCCC_ERR_BAD_NAME, 0x4000, "bad name") \
  X(NCCC_ERR_BAD_HANDLE, 0x4001, "bad handle") \
  X(NCCC_ERR_BAD_SIGNATURE, 0x4002, "bad signature") \
  X(NCCC_ERR_MODULES_FULL, 0x4003, "module table full") \
  X(NCCC_ERR_NULL_POINTER, 0x4004, "null pointer") \
  X(NCCC_ERR_NOT_INITIALIZED, 0x4005, "runtime not initialized") \
  X(NCCC_ERR_STALE_CLOSURE, 0x4006, "stale closure") \
  X(NCCC_ERR_POOL_EXHAUSTED, 0x4007, "pool exhausted") \
  X(NCCC_ERR_FAULT_INJECTED, 0x4008, "fault injected") \
  X(NCCC_ERR_WRONG_THREAD, 0x4009, "wrong thread") \
  X(NCCC_ERR_RPC_TRANSPORT, 0x4100, "transport failed") \
  X(NCCC_ERR_RPC_TIMEOUT, 0x4101, "no answer in time") \
  X(NCCC_ERR_RPC_RESET, 0x4102, "peer restarted") \
  X(NCCC_ERR_RPC_SESSION, 0x4103, "stale session") \
  X(NCCC_ERR_RPC_REPLAYED, 0x4104, "replayed request id") \
  X(NCCC_ERR_RPC_FRAME, 0x4105, "bad frame") \
  X(NCCC_ERR_RPC_PROTOCOL, 0x4106, "protocol error") \
  X(NCCC_ERR_RPC_TOO_BIG, 0x4107, "message too big") \
  X(NCCC_ERR_RPC_WORD_SIZE, 0x4108, "value too wide for the device") \
  X(NCCC_ERR_RPC_FREED, 0x4109, "remote pointer freed") \
  X(NCCC_ERR_RPC_DEPTH, 0x410a, "nesting too deep")

/* The statuses tvm/runtime/crt/error_codes.h names too, with the same value. */
/* NCCC_ABI_TVM_STATUSES(X): X(NAME, TVM_NAME) */
#define NCCC_ABI_TVM_STATUSES(X) \
  X(NCCC_ERR_NAME_NOT_FOUND, kTvmErrorFunctionNameNotFound) \
  X(NCCC_ERR_INDEX_INVALID, kTvmErrorFunctionIndexInvalid) \
  X(NCCC_ERR_REGISTRY_FULL, kTvmErrorFunctionRegistryFull) \
  X(NCCC_ERR_ALREADY_DEFINED, kTvmErrorFunctionAlreadyDefined) \
  X(NCCC_ERR_BUFFER_TOO_SMALL, kTvmErrorBufferTooSmall) \
  X(NCCC_ERR_PLATFORM_CHECK, kTvmErrorPlatformCheckFailure) \
  X(NCCC_ERR_NO_MEMORY, kTvmErrorPlatformNoMemory) \
  X(NCCC_ERR_NUM_ARGUMENTS, kTvmErrorFunctionCallNumArguments) \
  X(NCCC_ERR_WRONG_ARG_TYPE, kTvmErrorFunctionCallWrongArgType) \
  X(NCCC_ERR_NOT_IMPLEMENTED, kTvmErrorFunctionCallNotImplemented) \
  X(NCCC_ERR_INVALID_ARG, kTvmErrorFunctionCallInvalidArg) \
  X(NCCC_ERR_BAD_NAME, kTvmErrorNcccBadName) \
  X(NCCC_ERR_NULL_POINTER, kTvmErrorNcccNullPointer) \
  X(NCCC_ERR_NOT_INITIALIZED, kTvmErrorNcccNotInitialized)

/* ---- built-ins: in[] -> out[] (status first) ---- */

typedef enum nccc_builtin_index {
  NCCC_BUILTIN_BUILTIN = 0, /* I:ipss (index -> fn, name, signature (same as the root)) */
  NCCC_BUILTIN_VERSION = 1, /* :iIs (-> MAJOR<<16 | MINOR<<8 | PATCH, string) */
  NCCC_BUILTIN_LAST_ERROR = 2, /* :iis (-> status, message) */
  NCCC_BUILTIN_LOOKUP = 3, /* s:iI (name -> handle) */
  NCCC_BUILTIN_FUNCTION = 4, /* I:ipssII (handle -> fn, name, signature, n_in, n_out) */
  NCCC_BUILTIN_CALL = 5, /* Ipp:i (handle, in, out) */
  NCCC_BUILTIN_CALL_CHECKED = 6, /* IpLpL:i (handle, in, n_in, out, n_out) */
  NCCC_BUILTIN_REGISTER = 7, /* sps?:iI (name, fn, signature, override -> handle) */
  NCCC_BUILTIN_MODULE_COUNT = 8, /* :iI (-> index positions (NCCC_MAX_MODULES + 1, the global registry last)) */
  NCCC_BUILTIN_MODULE_INFO = 9, /* H:isIII (module -> name, functions, types, constants) */
  NCCC_BUILTIN_MODULE_FIND = 10, /* s:iH (name -> module index) */
  NCCC_BUILTIN_MODULE_TYPE = 11, /* HH:isIIII (module, type -> name, size, align, kind, fields) */
  NCCC_BUILTIN_MODULE_FIELD = 12, /* HHH:issIII (module, type, field -> name, type code, offset, size, count) */
  NCCC_BUILTIN_MODULE_CONSTANT = 13, /* HH:issL (module, constant -> name, type code, value slot) */
  NCCC_BUILTIN_ALLOC = 14, /* L:ip (size -> pointer) */
  NCCC_BUILTIN_FREE = 15, /* p:i (pointer) */
  NCCC_BUILTIN_PEEK = 16, /* pI:iL (address, type code (ASCII) -> value slot) */
  NCCC_BUILTIN_POKE = 17, /* pIL:i (address, type code, value slot) */
  NCCC_BUILTIN_READ = 18, /* pL:i* (address, n -> n bytes in ceil(n/8) slots) */
  NCCC_BUILTIN_WRITE = 19, /* pL*:i (address, n, bytes...) */
  NCCC_BUILTIN_STRLEN = 20, /* p:iL (address -> length) */
  NCCC_BUILTIN_CLOSURE_CLAIM = 21, /* FLI:ip (target, env, flags (scope | notify) -> context) */
  NCCC_BUILTIN_CLOSURE_CLAIM_GROUP = 22, /* III*:ip (flags, final member, n, then n x (target, env) -> context) */
  NCCC_BUILTIN_CLOSURE_RELEASE = 23, /* p:i (context) */
  NCCC_BUILTIN_CLOSURE_STATS = 24, /* :iIILLL (-> capacity, in use, stale calls, type mismatches, wrong-thread calls) */
  NCCC_BUILTIN_TRACE_ENABLE = 25, /* I?:i (handle, on (handle 0 with off: all off)) */
  NCCC_BUILTIN_TRACE_ENABLE_MODULE = 26, /* H?:i (module, on) */
  NCCC_BUILTIN_TRACE_BUFFER = 27, /* pL:i (address, size (address 0: the static ring)) */
  NCCC_BUILTIN_TRACE_STATS = 28, /* :iLLI (-> first, next, capacity) */
  NCCC_BUILTIN_TRACE_READ = 29, /* L:iIILL (record number -> handle, status, start_ns, end_ns) */
  NCCC_BUILTIN_TRACE_CLEAR = 30, /* :i */
  NCCC_BUILTIN_FAULT_ARM = 31, /* IIiI*:i (handle, count, errno, n, n result slots) */
  NCCC_BUILTIN_FAULT_DISARM = 32, /* I:i (handle (0: all)) */
  NCCC_BUILTIN_FAULT_QUERY = 33, /* I:iIL (handle -> remaining, fired) */
  NCCC_BUILTIN_CLEAR_ERROR = 34, /* :i (the thread's last error cleared) */
  NCCC_BUILTIN_CLOSURE_CLAIM_TYPED = 35, /* FLIs:ip (target, env, flags, callback signature -> context) */
  NCCC_BUILTIN_CLOSURE_CLAIM_GROUP_TYPED = 36, /* III*:ip (flags, final member, n, then n x (target, env, callback signature) -> context) */
  NCCC_BUILTIN_COUNT = 37
} nccc_builtin_index;

/* OFFSET: the name's byte offset in a names blob of every name in index order */
/* NCCC_ABI_BUILTINS(X): X(INDEX, UPPER, name, SIGNATURE, N_IN, N_OUT, OFFSET) */
#define NCCC_ABI_BUILTINS(X) \
  X(0, BUILTIN, builtin, "I:ipss", 1u, 4u, 2u) \
  X(1, VERSION, version, ":iIs", 0u, 3u, 10u) \
  X(2, LAST_ERROR, last_error, ":iis", 0u, 3u, 18u) \
  X(3, LOOKUP, lookup, "s:iI", 1u, 2u, 29u) \
  X(4, FUNCTION, function, "I:ipssII", 1u, 6u, 36u) \
  X(5, CALL, call, "Ipp:i", 3u, 1u, 45u) \
  X(6, CALL_CHECKED, call_checked, "IpLpL:i", 5u, 1u, 50u) \
  X(7, REGISTER, register, "sps?:iI", 4u, 2u, 63u) \
  X(8, MODULE_COUNT, module_count, ":iI", 0u, 2u, 72u) \
  X(9, MODULE_INFO, module_info, "H:isIII", 1u, 5u, 85u) \
  X(10, MODULE_FIND, module_find, "s:iH", 1u, 2u, 97u) \
  X(11, MODULE_TYPE, module_type, "HH:isIIII", 2u, 6u, 109u) \
  X(12, MODULE_FIELD, module_field, "HHH:issIII", 3u, 6u, 121u) \
  X(13, MODULE_CONSTANT, module_constant, "HH:issL", 2u, 4u, 134u) \
  X(14, ALLOC, alloc, "L:ip", 1u, 2u, 150u) \
  X(15, FREE, free, "p:i", 1u, 1u, 156u) \
  X(16, PEEK, peek, "pI:iL", 2u, 2u, 161u) \
  X(17, POKE, poke, "pIL:i", 3u, 1u, 166u) \
  X(18, READ, read, "pL:i*", 2u, 1u | 0x8000u, 171u) \
  X(19, WRITE, write, "pL*:i", 2u | 0x8000u, 1u, 176u) \
  X(20, STRLEN, strlen, "p:iL", 1u, 2u, 182u) \
  X(21, CLOSURE_CLAIM, closure_claim, "FLI:ip", 3u, 2u, 189u) \
  X(22, CLOSURE_CLAIM_GROUP, closure_claim_group, "III*:ip", 3u | 0x8000u, 2u, 203u) \
  X(23, CLOSURE_RELEASE, closure_release, "p:i", 1u, 1u, 223u) \
  X(24, CLOSURE_STATS, closure_stats, ":iIILLL", 0u, 6u, 239u) \
  X(25, TRACE_ENABLE, trace_enable, "I?:i", 2u, 1u, 253u) \
  X(26, TRACE_ENABLE_MODULE, trace_enable_module, "H?:i", 2u, 1u, 266u) \
  X(27, TRACE_BUFFER, trace_buffer, "pL:i", 2u, 1u, 286u) \
  X(28, TRACE_STATS, trace_stats, ":iLLI", 0u, 4u, 299u) \
  X(29, TRACE_READ, trace_read, "L:iIILL", 1u, 5u, 311u) \
  X(30, TRACE_CLEAR, trace_clear, ":i", 0u, 1u, 322u) \
  X(31, FAULT_ARM, fault_arm, "IIiI*:i", 4u | 0x8000u, 1u, 334u) \
  X(32, FAULT_DISARM, fault_disarm, "I:i", 1u, 1u, 344u) \
  X(33, FAULT_QUERY, fault_query, "I:iIL", 1u, 3u, 357u) \
  X(34, CLEAR_ERROR, clear_error, ":i", 0u, 1u, 369u) \
  X(35, CLOSURE_CLAIM_TYPED, closure_claim_typed, "FLIs:ip", 4u, 2u, 381u) \
  X(36, CLOSURE_CLAIM_GROUP_TYPED, closure_claim_group_typed, "III*:ip", 3u | 0x8000u, 2u, 401u)

/* The size of a '*' side: argument ARG (0-based) holds n, and the side
** takes ceil(n * MUL / DIV) slots; OUT: it is the out side. */
/* NCCC_ABI_BUILTIN_RESTS(X): X(INDEX, ARG, MUL, DIV, OUT) */
#define NCCC_ABI_BUILTIN_RESTS(X) \
  X(18, 1, 1, 8, 1) \
  X(19, 1, 1, 8, 0) \
  X(22, 2, 2, 1, 0) \
  X(31, 3, 1, 1, 0) \
  X(36, 2, 3, 1, 0)

/* ---- closures ---- */

/* How C calls a closure's target (a host's dispatcher): in[0] = env, then
** the callback's argument slots; out: its result slots. */
#define NCCC_ABI_CLOSURE_TARGET_SIGNATURE "L*:*"

/* Lifetimes; the closure_claim built-in takes them. */
typedef enum nccc_scope {
  NCCC_SCOPE_CALL = 1, /* until the forward call returns */
  NCCC_SCOPE_ASYNC = 2, /* until its one (final member's) call returns */
  NCCC_SCOPE_NOTIFIED = 3, /* until the library calls the destroy notify */
  NCCC_SCOPE_FOREVER = 4 /* until released explicitly */
} nccc_scope;

/* or'ed into a scope: send release notices to the targets */
#define NCCC_CLOSURE_NOTIFY 0x100u
/* or'ed into a scope: calls and notices only on the thread that claimed it */
#define NCCC_CLOSURE_THREAD 0x200u
/* The type a typed closure records: NCCC_ABI_FNV1A over its callback's signature;
** a hash equal to UNTYPED becomes ZERO_BECOMES (UNTYPED marks the claims without
** a signature). */
#define NCCC_CLOSURE_UNTYPED 0u
#define NCCC_CLOSURE_TYPE_ZERO_BECOMES 1u

/* ---- packed functions ---- */

/* Flags of nccc_packed_register (nccc/packed.h). */
/* replace a global of the same name */
#define NCCC_PACKED_OVERRIDE 1u
/* fn writes a status to out[0] (0 = ok, else returned to the caller; the last error is cleared before fn runs, and set to "NAME: failed" if fn records none) and its result to out[1] */
#define NCCC_PACKED_STATUS 2u

/* ---- type layouts ---- */

typedef enum nccc_type_kind {
  NCCC_TYPE_STRUCT = 1,
  NCCC_TYPE_UNION = 2,
  NCCC_TYPE_OPAQUE = 3 /* size and alignment unknown: 0 */
} nccc_type_kind;

#endif
