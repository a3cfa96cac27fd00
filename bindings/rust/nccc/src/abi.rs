//! The nccc ABI's facts (docs/ABI.md), generated from idl/abi.json by
//! stubgen/abi (python3 -m stubgen.abi --write); do not edit.

/// What a signature code's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Closure,
    Errno,
    Float,
    Function,
    Int,
    Pointer,
    String,
}

/// One signature code (`bytes` 0: pointer-sized).
#[derive(Clone, Copy, Debug)]
pub struct Code {
    pub code: u8,
    pub name: &'static str,
    pub kind: Kind,
    pub bytes: u8,
    pub signed: bool,
    pub in_ok: bool,
    pub out_ok: bool,
}

pub const CODES: &[Code] = &[
    Code { code: b'?', name: "bool", kind: Kind::Bool, bytes: 1, signed: false, in_ok: true, out_ok: true },
    Code { code: b'b', name: "int8", kind: Kind::Int, bytes: 1, signed: true, in_ok: true, out_ok: true },
    Code { code: b'B', name: "uint8", kind: Kind::Int, bytes: 1, signed: false, in_ok: true, out_ok: true },
    Code { code: b'h', name: "int16", kind: Kind::Int, bytes: 2, signed: true, in_ok: true, out_ok: true },
    Code { code: b'H', name: "uint16", kind: Kind::Int, bytes: 2, signed: false, in_ok: true, out_ok: true },
    Code { code: b'i', name: "int32", kind: Kind::Int, bytes: 4, signed: true, in_ok: true, out_ok: true },
    Code { code: b'I', name: "uint32", kind: Kind::Int, bytes: 4, signed: false, in_ok: true, out_ok: true },
    Code { code: b'l', name: "int64", kind: Kind::Int, bytes: 8, signed: true, in_ok: true, out_ok: true },
    Code { code: b'L', name: "uint64", kind: Kind::Int, bytes: 8, signed: false, in_ok: true, out_ok: true },
    Code { code: b'f', name: "float", kind: Kind::Float, bytes: 4, signed: true, in_ok: true, out_ok: true },
    Code { code: b'd', name: "double", kind: Kind::Float, bytes: 8, signed: true, in_ok: true, out_ok: true },
    Code { code: b'p', name: "pointer", kind: Kind::Pointer, bytes: 0, signed: false, in_ok: true, out_ok: true },
    Code { code: b's', name: "string", kind: Kind::String, bytes: 0, signed: false, in_ok: true, out_ok: true },
    Code { code: b'F', name: "function pointer", kind: Kind::Function, bytes: 0, signed: false, in_ok: true, out_ok: true },
    Code { code: b'c', name: "closure", kind: Kind::Closure, bytes: 0, signed: false, in_ok: true, out_ok: true },
    Code { code: b'e', name: "errno", kind: Kind::Errno, bytes: 4, signed: true, in_ok: false, out_ok: true },
    Code { code: b'W', name: "lasterror", kind: Kind::Errno, bytes: 4, signed: false, in_ok: false, out_ok: true },
];

pub const SIG_SEPARATOR: u8 = b':';
pub const SIG_VARIADIC: u8 = b'*';
pub const SIG_RECORD_OPEN: u8 = b'{';
pub const SIG_RECORD_CLOSE: u8 = b'}';
pub const SIG_RECORD_COUNT: u8 = b':';
pub const MAX_SLOTS: usize = 32767;

/// Status codes (`nccc_status`).
pub const OK: u32 = 0;
pub const ERR_NAME_NOT_FOUND: u32 = 256;
pub const ERR_INDEX_INVALID: u32 = 257;
pub const ERR_REGISTRY_FULL: u32 = 258;
pub const ERR_ALREADY_DEFINED: u32 = 259;
pub const ERR_BUFFER_TOO_SMALL: u32 = 260;
pub const ERR_PLATFORM_CHECK: u32 = 1280;
pub const ERR_NO_MEMORY: u32 = 1283;
pub const ERR_NUM_ARGUMENTS: u32 = 2048;
pub const ERR_WRONG_ARG_TYPE: u32 = 2049;
pub const ERR_NOT_IMPLEMENTED: u32 = 2050;
pub const ERR_INVALID_ARG: u32 = 2051;
pub const ERR_BAD_NAME: u32 = 16384;
pub const ERR_BAD_HANDLE: u32 = 16385;
pub const ERR_BAD_SIGNATURE: u32 = 16386;
pub const ERR_MODULES_FULL: u32 = 16387;
pub const ERR_NULL_POINTER: u32 = 16388;
pub const ERR_NOT_INITIALIZED: u32 = 16389;
pub const ERR_STALE_CLOSURE: u32 = 16390;
pub const ERR_POOL_EXHAUSTED: u32 = 16391;
pub const ERR_FAULT_INJECTED: u32 = 16392;
pub const ERR_WRONG_THREAD: u32 = 16393;
pub const ERR_RPC_TRANSPORT: u32 = 16640;
pub const ERR_RPC_TIMEOUT: u32 = 16641;
pub const ERR_RPC_RESET: u32 = 16642;
pub const ERR_RPC_SESSION: u32 = 16643;
pub const ERR_RPC_REPLAYED: u32 = 16644;
pub const ERR_RPC_FRAME: u32 = 16645;
pub const ERR_RPC_PROTOCOL: u32 = 16646;
pub const ERR_RPC_TOO_BIG: u32 = 16647;
pub const ERR_RPC_WORD_SIZE: u32 = 16648;
pub const ERR_RPC_FREED: u32 = 16649;
pub const ERR_RPC_DEPTH: u32 = 16650;

/// What a generated wrapper refuses itself (docs/CALLBACKS.md, "Refused
/// calls"): an argument of one of these code kinds, leaving one of these
/// statuses as the thread's last error.
pub const REFUSAL_KINDS: &[Kind] = &[Kind::Pointer, Kind::String, Kind::Function, Kind::Closure];
pub const REFUSAL_STATUSES: &[u32] = &[ERR_NULL_POINTER, ERR_STALE_CLOSURE, ERR_POOL_EXHAUSTED];

/// The text of a status (`nccc_status_name`).
pub fn status_text(status: u32) -> &'static str {
    match status {
        0 => "ok",
        256 => "name not found",
        257 => "index out of range",
        258 => "registry full",
        259 => "already defined",
        260 => "buffer too small",
        1280 => "platform check failed",
        1283 => "out of memory",
        2048 => "wrong number of slots",
        2049 => "wrong argument type",
        2050 => "not implemented",
        2051 => "invalid argument",
        16384 => "bad name",
        16385 => "bad handle",
        16386 => "bad signature",
        16387 => "module table full",
        16388 => "null pointer",
        16389 => "runtime not initialized",
        16390 => "stale closure",
        16391 => "pool exhausted",
        16392 => "fault injected",
        16393 => "wrong thread",
        16640 => "transport failed",
        16641 => "no answer in time",
        16642 => "peer restarted",
        16643 => "stale session",
        16644 => "replayed request id",
        16645 => "bad frame",
        16646 => "protocol error",
        16647 => "message too big",
        16648 => "value too wide for the device",
        16649 => "remote pointer freed",
        16650 => "nesting too deep",
        _ => "unknown status",
    }
}

/// The size of a built-in's '*' side: argument `arg` (0-based) holds n,
/// and the side takes ceil(n * mul / div) slots; `out`: it is the out side.
#[derive(Clone, Copy, Debug)]
pub struct Rest {
    pub arg: usize,
    pub mul: usize,
    pub div: usize,
    pub out: bool,
}

/// A built-in: its index for the root, name, signature and '*' side.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    pub index: u64,
    pub name: &'static str,
    pub signature: &'static str,
    pub rest: Option<Rest>,
}

pub const BUILTIN: Builtin = Builtin { index: 0, name: "builtin", signature: "I:ipss", rest: None };
pub const VERSION: Builtin = Builtin { index: 1, name: "version", signature: ":iIs", rest: None };
pub const LAST_ERROR: Builtin = Builtin { index: 2, name: "last_error", signature: ":iis", rest: None };
pub const LOOKUP: Builtin = Builtin { index: 3, name: "lookup", signature: "s:iI", rest: None };
pub const FUNCTION: Builtin = Builtin { index: 4, name: "function", signature: "I:ipssII", rest: None };
pub const CALL: Builtin = Builtin { index: 5, name: "call", signature: "Ipp:i", rest: None };
pub const CALL_CHECKED: Builtin = Builtin { index: 6, name: "call_checked", signature: "IpLpL:i", rest: None };
pub const REGISTER: Builtin = Builtin { index: 7, name: "register", signature: "sps?:iI", rest: None };
pub const MODULE_COUNT: Builtin = Builtin { index: 8, name: "module_count", signature: ":iI", rest: None };
pub const MODULE_INFO: Builtin = Builtin { index: 9, name: "module_info", signature: "H:isIII", rest: None };
pub const MODULE_FIND: Builtin = Builtin { index: 10, name: "module_find", signature: "s:iH", rest: None };
pub const MODULE_TYPE: Builtin = Builtin { index: 11, name: "module_type", signature: "HH:isIIII", rest: None };
pub const MODULE_FIELD: Builtin = Builtin { index: 12, name: "module_field", signature: "HHH:issIII", rest: None };
pub const MODULE_CONSTANT: Builtin = Builtin { index: 13, name: "module_constant", signature: "HH:issL", rest: None };
pub const ALLOC: Builtin = Builtin { index: 14, name: "alloc", signature: "L:ip", rest: None };
pub const FREE: Builtin = Builtin { index: 15, name: "free", signature: "p:i", rest: None };
pub const PEEK: Builtin = Builtin { index: 16, name: "peek", signature: "pI:iL", rest: None };
pub const POKE: Builtin = Builtin { index: 17, name: "poke", signature: "pIL:i", rest: None };
pub const READ: Builtin = Builtin { index: 18, name: "read", signature: "pL:i*", rest: Some(Rest { arg: 1, mul: 1, div: 8, out: true }) };
pub const WRITE: Builtin = Builtin { index: 19, name: "write", signature: "pL*:i", rest: Some(Rest { arg: 1, mul: 1, div: 8, out: false }) };
pub const STRLEN: Builtin = Builtin { index: 20, name: "strlen", signature: "p:iL", rest: None };
pub const CLOSURE_CLAIM: Builtin = Builtin { index: 21, name: "closure_claim", signature: "FLI:ip", rest: None };
pub const CLOSURE_CLAIM_GROUP: Builtin = Builtin { index: 22, name: "closure_claim_group", signature: "III*:ip", rest: Some(Rest { arg: 2, mul: 2, div: 1, out: false }) };
pub const CLOSURE_RELEASE: Builtin = Builtin { index: 23, name: "closure_release", signature: "p:i", rest: None };
pub const CLOSURE_STATS: Builtin = Builtin { index: 24, name: "closure_stats", signature: ":iIILLL", rest: None };
pub const TRACE_ENABLE: Builtin = Builtin { index: 25, name: "trace_enable", signature: "I?:i", rest: None };
pub const TRACE_ENABLE_MODULE: Builtin = Builtin { index: 26, name: "trace_enable_module", signature: "H?:i", rest: None };
pub const TRACE_BUFFER: Builtin = Builtin { index: 27, name: "trace_buffer", signature: "pL:i", rest: None };
pub const TRACE_STATS: Builtin = Builtin { index: 28, name: "trace_stats", signature: ":iLLI", rest: None };
pub const TRACE_READ: Builtin = Builtin { index: 29, name: "trace_read", signature: "L:iIILL", rest: None };
pub const TRACE_CLEAR: Builtin = Builtin { index: 30, name: "trace_clear", signature: ":i", rest: None };
pub const FAULT_ARM: Builtin = Builtin { index: 31, name: "fault_arm", signature: "IIiI*:i", rest: Some(Rest { arg: 3, mul: 1, div: 1, out: false }) };
pub const FAULT_DISARM: Builtin = Builtin { index: 32, name: "fault_disarm", signature: "I:i", rest: None };
pub const FAULT_QUERY: Builtin = Builtin { index: 33, name: "fault_query", signature: "I:iIL", rest: None };
pub const CLEAR_ERROR: Builtin = Builtin { index: 34, name: "clear_error", signature: ":i", rest: None };
pub const CLOSURE_CLAIM_TYPED: Builtin = Builtin { index: 35, name: "closure_claim_typed", signature: "FLIs:ip", rest: None };
pub const CLOSURE_CLAIM_GROUP_TYPED: Builtin = Builtin { index: 36, name: "closure_claim_group_typed", signature: "III*:ip", rest: Some(Rest { arg: 2, mul: 3, div: 1, out: false }) };

pub const BUILTINS: &[Builtin] = &[
    BUILTIN,
    VERSION,
    LAST_ERROR,
    LOOKUP,
    FUNCTION,
    CALL,
    CALL_CHECKED,
    REGISTER,
    MODULE_COUNT,
    MODULE_INFO,
    MODULE_FIND,
    MODULE_TYPE,
    MODULE_FIELD,
    MODULE_CONSTANT,
    ALLOC,
    FREE,
    PEEK,
    POKE,
    READ,
    WRITE,
    STRLEN,
    CLOSURE_CLAIM,
    CLOSURE_CLAIM_GROUP,
    CLOSURE_RELEASE,
    CLOSURE_STATS,
    TRACE_ENABLE,
    TRACE_ENABLE_MODULE,
    TRACE_BUFFER,
    TRACE_STATS,
    TRACE_READ,
    TRACE_CLEAR,
    FAULT_ARM,
    FAULT_DISARM,
    FAULT_QUERY,
    CLEAR_ERROR,
    CLOSURE_CLAIM_TYPED,
    CLOSURE_CLAIM_GROUP_TYPED,
];

/// Closure scopes and the flags or'ed into them.
pub const SCOPE_CALL: u64 = 1;
pub const SCOPE_ASYNC: u64 = 2;
pub const SCOPE_NOTIFIED: u64 = 3;
pub const SCOPE_FOREVER: u64 = 4;
pub const SCOPES: &[(&str, u64)] = &[("call", SCOPE_CALL), ("async", SCOPE_ASYNC), ("notified", SCOPE_NOTIFIED), ("forever", SCOPE_FOREVER)];
pub const CLOSURE_NOTIFY: u64 = 256;
pub const CLOSURE_THREAD: u64 = 512;
pub const CLOSURE_TARGET_SIGNATURE: &str = "L*:*";

/// The module of the built-ins.
pub const BUILTINS_MODULE: &str = "nccc";
/// Packed functions: their module for hosts, the flags of registering one,
/// TVM's type codes of packed values.
pub const PACKED_MODULE: &str = "tvm";
pub const PACKED_OVERRIDE: u64 = 1;
pub const PACKED_STATUS: u64 = 2;
pub const PACKED_TYPE_INT: u64 = 0;
pub const PACKED_TYPE_UINT: u64 = 1;
pub const PACKED_TYPE_FLOAT: u64 = 2;
pub const PACKED_TYPE_HANDLE: u64 = 3;
pub const PACKED_TYPE_NULL: u64 = 4;
pub const PACKED_TYPE_STR: u64 = 11;
pub const PACKED_TYPE_BOOL: u64 = 15;
/// The '*' sides an argument sizes, by qualified function name.
pub const SIZED: &[(&str, Rest)] = &[
    ("nccc.closure_claim_group", Rest { arg: 2, mul: 2, div: 1, out: false }),
    ("nccc.closure_claim_group_typed", Rest { arg: 2, mul: 3, div: 1, out: false }),
    ("nccc.fault_arm", Rest { arg: 3, mul: 1, div: 1, out: false }),
    ("nccc.read", Rest { arg: 1, mul: 1, div: 8, out: true }),
    ("nccc.write", Rest { arg: 1, mul: 1, div: 8, out: false }),
    ("tvm.call_global", Rest { arg: 1, mul: 2, div: 1, out: false }),
    ("tvm.call_packed", Rest { arg: 1, mul: 2, div: 1, out: false }),
];
/// The targets a signature may differ on (data model, plain char signed), in
/// the order of a module's entries.
pub const TARGETS: &[(&str, bool)] = &[("LP64", true), ("LP64", false), ("ILP32", true), ("ILP32", false), ("LLP64", true), ("LLP64", false)];

/// Type kinds of the layout table.
pub const TYPE_STRUCT: u64 = 1;
pub const TYPE_UNION: u64 = 2;
pub const TYPE_OPAQUE: u64 = 3;
