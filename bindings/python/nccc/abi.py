"""The nccc ABI's facts (docs/ABI.md), generated from idl/abi.json by
stubgen/abi (python3 -m stubgen.abi --write); do not edit."""

from collections import namedtuple

Code = namedtuple('Code', 'code name kind bytes signed in_ok out_ok bits min max')
Rest = namedtuple('Rest', 'arg per mul div out')
Builtin = namedtuple('Builtin', 'index name signature n_in n_out rest')
Target = namedtuple('Target', 'data_model char_signed')

CODES = {
    '?': Code('?', name='bool', kind='bool', bytes=1, signed=False, in_ok=True, out_ok=True, bits=8, min=0, max=1),
    'b': Code('b', name='int8', kind='int', bytes=1, signed=True, in_ok=True, out_ok=True, bits=8, min=-128, max=127),
    'B': Code('B', name='uint8', kind='int', bytes=1, signed=False, in_ok=True, out_ok=True, bits=8, min=0, max=255),
    'h': Code('h', name='int16', kind='int', bytes=2, signed=True, in_ok=True, out_ok=True, bits=16, min=-32768, max=32767),
    'H': Code('H', name='uint16', kind='int', bytes=2, signed=False, in_ok=True, out_ok=True, bits=16, min=0, max=65535),
    'i': Code('i', name='int32', kind='int', bytes=4, signed=True, in_ok=True, out_ok=True, bits=32, min=-2147483648, max=2147483647),
    'I': Code('I', name='uint32', kind='int', bytes=4, signed=False, in_ok=True, out_ok=True, bits=32, min=0, max=4294967295),
    'l': Code('l', name='int64', kind='int', bytes=8, signed=True, in_ok=True, out_ok=True, bits=64, min=-9223372036854775808, max=9223372036854775807),
    'L': Code('L', name='uint64', kind='int', bytes=8, signed=False, in_ok=True, out_ok=True, bits=64, min=0, max=18446744073709551615),
    'f': Code('f', name='float', kind='float', bytes=4, signed=True, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    'd': Code('d', name='double', kind='float', bytes=8, signed=True, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    'p': Code('p', name='pointer', kind='pointer', bytes=0, signed=False, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    's': Code('s', name='string', kind='string', bytes=0, signed=False, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    'F': Code('F', name='function pointer', kind='function', bytes=0, signed=False, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    'c': Code('c', name='closure', kind='closure', bytes=0, signed=False, in_ok=True, out_ok=True, bits=None, min=None, max=None),
    'e': Code('e', name='errno', kind='errno', bytes=4, signed=True, in_ok=False, out_ok=True, bits=32, min=-2147483648, max=2147483647),
    'W': Code('W', name='lasterror', kind='errno', bytes=4, signed=False, in_ok=False, out_ok=True, bits=32, min=0, max=4294967295),
}
IN_CODES = '?bBhHiIlLfdpsFc'
VALUE_CODES = '?bBhHiIlLfdpsF'
OUT_CODES = '?bBhHiIlLfdpsFceW'
GRAMMAR = {
    'separator': ':',
    'variadic': '*',
    'record_open': '{',
    'record_close': '}',
    'record_count': ':',
}
# the native cores' items: the marks before an item, and what slow takes
# in place of an argument number to raise a call's other errors
ITEM_NONNULL = '!'
ITEM_HELPER = '~'
HELPER_KEYS = {
    'count': 0,
    'callback_errors': -1,
    'pool_exhausted': -2,
    'keywords': -3,
}
# what a generated wrapper refuses itself: argument kinds, and the statuses
# it leaves as the last error
REFUSAL_KINDS = ('pointer', 'string', 'function', 'closure')
REFUSAL_STATUSES = ('ERR_NULL_POINTER', 'ERR_STALE_CLOSURE', 'ERR_POOL_EXHAUSTED')
MAX_SLOTS = 32767
SLOTS_VARIABLE = 32768
HANDLE = {
    'function_marker': 32768,
    'index_mask': 32767,
    'module_marker': 2147483648,
    'module_shift': 16,
}
STATUS = {
    'OK': 0,
    'ERR_NAME_NOT_FOUND': 256,
    'ERR_INDEX_INVALID': 257,
    'ERR_REGISTRY_FULL': 258,
    'ERR_ALREADY_DEFINED': 259,
    'ERR_BUFFER_TOO_SMALL': 260,
    'ERR_PLATFORM_CHECK': 1280,
    'ERR_NO_MEMORY': 1283,
    'ERR_NUM_ARGUMENTS': 2048,
    'ERR_WRONG_ARG_TYPE': 2049,
    'ERR_NOT_IMPLEMENTED': 2050,
    'ERR_INVALID_ARG': 2051,
    'ERR_BAD_NAME': 16384,
    'ERR_BAD_HANDLE': 16385,
    'ERR_BAD_SIGNATURE': 16386,
    'ERR_MODULES_FULL': 16387,
    'ERR_NULL_POINTER': 16388,
    'ERR_NOT_INITIALIZED': 16389,
    'ERR_STALE_CLOSURE': 16390,
    'ERR_POOL_EXHAUSTED': 16391,
    'ERR_FAULT_INJECTED': 16392,
    'ERR_WRONG_THREAD': 16393,
    'ERR_RPC_TRANSPORT': 16640,
    'ERR_RPC_TIMEOUT': 16641,
    'ERR_RPC_RESET': 16642,
    'ERR_RPC_SESSION': 16643,
    'ERR_RPC_REPLAYED': 16644,
    'ERR_RPC_FRAME': 16645,
    'ERR_RPC_PROTOCOL': 16646,
    'ERR_RPC_TOO_BIG': 16647,
    'ERR_RPC_WORD_SIZE': 16648,
    'ERR_RPC_FREED': 16649,
    'ERR_RPC_DEPTH': 16650,
}
STATUS_TEXT = {
    0: 'ok',
    256: 'name not found',
    257: 'index out of range',
    258: 'registry full',
    259: 'already defined',
    260: 'buffer too small',
    1280: 'platform check failed',
    1283: 'out of memory',
    2048: 'wrong number of slots',
    2049: 'wrong argument type',
    2050: 'not implemented',
    2051: 'invalid argument',
    16384: 'bad name',
    16385: 'bad handle',
    16386: 'bad signature',
    16387: 'module table full',
    16388: 'null pointer',
    16389: 'runtime not initialized',
    16390: 'stale closure',
    16391: 'pool exhausted',
    16392: 'fault injected',
    16393: 'wrong thread',
    16640: 'transport failed',
    16641: 'no answer in time',
    16642: 'peer restarted',
    16643: 'stale session',
    16644: 'replayed request id',
    16645: 'bad frame',
    16646: 'protocol error',
    16647: 'message too big',
    16648: 'value too wide for the device',
    16649: 'remote pointer freed',
    16650: 'nesting too deep',
}
# rest: a '*' side's size: argument arg (0-based) holds n, and the side
# takes ceil(n * mul / div) slots; out: it is the out side
BUILTINS = [
    Builtin(0, 'builtin', 'I:ipss', 1, 4, None),
    Builtin(1, 'version', ':iIs', 0, 3, None),
    Builtin(2, 'last_error', ':iis', 0, 3, None),
    Builtin(3, 'lookup', 's:iI', 1, 2, None),
    Builtin(4, 'function', 'I:ipssII', 1, 6, None),
    Builtin(5, 'call', 'Ipp:i', 3, 1, None),
    Builtin(6, 'call_checked', 'IpLpL:i', 5, 1, None),
    Builtin(7, 'register', 'sps?:iI', 4, 2, None),
    Builtin(8, 'module_count', ':iI', 0, 2, None),
    Builtin(9, 'module_info', 'H:isIII', 1, 5, None),
    Builtin(10, 'module_find', 's:iH', 1, 2, None),
    Builtin(11, 'module_type', 'HH:isIIII', 2, 6, None),
    Builtin(12, 'module_field', 'HHH:issIII', 3, 6, None),
    Builtin(13, 'module_constant', 'HH:issL', 2, 4, None),
    Builtin(14, 'alloc', 'L:ip', 1, 2, None),
    Builtin(15, 'free', 'p:i', 1, 1, None),
    Builtin(16, 'peek', 'pI:iL', 2, 2, None),
    Builtin(17, 'poke', 'pIL:i', 3, 1, None),
    Builtin(18, 'read', 'pL:i*', 2, 32769, Rest(arg=1, per='byte', mul=1, div=8, out=True)),
    Builtin(19, 'write', 'pL*:i', 32770, 1, Rest(arg=1, per='byte', mul=1, div=8, out=False)),
    Builtin(20, 'strlen', 'p:iL', 1, 2, None),
    Builtin(21, 'closure_claim', 'FLI:ip', 3, 2, None),
    Builtin(22, 'closure_claim_group', 'III*:ip', 32771, 2, Rest(arg=2, per='pair', mul=2, div=1, out=False)),
    Builtin(23, 'closure_release', 'p:i', 1, 1, None),
    Builtin(24, 'closure_stats', ':iIILLL', 0, 6, None),
    Builtin(25, 'trace_enable', 'I?:i', 2, 1, None),
    Builtin(26, 'trace_enable_module', 'H?:i', 2, 1, None),
    Builtin(27, 'trace_buffer', 'pL:i', 2, 1, None),
    Builtin(28, 'trace_stats', ':iLLI', 0, 4, None),
    Builtin(29, 'trace_read', 'L:iIILL', 1, 5, None),
    Builtin(30, 'trace_clear', ':i', 0, 1, None),
    Builtin(31, 'fault_arm', 'IIiI*:i', 32772, 1, Rest(arg=3, per='slot', mul=1, div=1, out=False)),
    Builtin(32, 'fault_disarm', 'I:i', 1, 1, None),
    Builtin(33, 'fault_query', 'I:iIL', 1, 3, None),
    Builtin(34, 'clear_error', ':i', 0, 1, None),
    Builtin(35, 'closure_claim_typed', 'FLIs:ip', 4, 2, None),
    Builtin(36, 'closure_claim_group_typed', 'III*:ip', 32771, 2, Rest(arg=2, per='triple', mul=3, div=1, out=False)),
]
BUILTIN = {b.name: b.index for b in BUILTINS}
SCOPES = {
    'call': 1,
    'async': 2,
    'notified': 3,
    'forever': 4,
}
CLOSURE_NOTIFY = 256
CLOSURE_THREAD = 512
CLOSURE_TARGET_SIGNATURE = 'L*:*'
# the targets a signature may differ on, in the order of a module's entries
TARGETS = [
    Target('LP64', True),
    Target('LP64', False),
    Target('ILP32', True),
    Target('ILP32', False),
    Target('LLP64', True),
    Target('LLP64', False),
]
# '*' sides an argument sizes, by qualified function name
SIZED = {
    'nccc.closure_claim_group': Rest(arg=2, per='pair', mul=2, div=1, out=False),
    'nccc.closure_claim_group_typed': Rest(arg=2, per='triple', mul=3, div=1, out=False),
    'nccc.fault_arm': Rest(arg=3, per='slot', mul=1, div=1, out=False),
    'nccc.read': Rest(arg=1, per='byte', mul=1, div=8, out=True),
    'nccc.write': Rest(arg=1, per='byte', mul=1, div=8, out=False),
    'tvm.call_global': Rest(arg=1, per='pair', mul=2, div=1, out=False),
    'tvm.call_packed': Rest(arg=1, per='pair', mul=2, div=1, out=False),
}
BUILTINS_MODULE = 'nccc'
PACKED_MODULE = 'tvm'
PACKED_OVERRIDE = 1
PACKED_STATUS = 2
PACKED_TYPE_CODES = {
    'int': 0,
    'uint': 1,
    'float': 2,
    'handle': 3,
    'null': 4,
    'str': 11,
    'bool': 15,
}
# the constant of modules bound from a device (docs/RPC.md)
RPC_BOUND_MARKER = 'nccc.remote'
TYPE_KINDS = {
    1: 'struct',
    2: 'union',
    3: 'opaque',
}
