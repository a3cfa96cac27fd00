"""A function of the registry and the checked module that holds it."""

from stubgen.ctype import FuncType
from stubgen.model.values import SlotIndex, Slotted, ValueInfo


class Function(Slotted):
    def __init__(self, pos, name, c_name, ret, params):
        self.pos = pos
        self.name = name            # registry and host name
        self.c_name = c_name        # the C function called
        self.ret = ret
        self.ret_info = ValueInfo()
        self.ret_anns = {}          # the function's annotations: name ->
        self.params = params        # (value, pos)
        self.errno = False
        self.lasterror = False      # [lasterror]: GetLastError() read
        self.windows = False        # [windows]: declared on Windows only
        self.function_pointer = False
        self.macro = False
        self.trace = False          # trace shim (NCCC_SITE_WRAP)
        self.fault = False          # fault injection shim
        self.index = 0              # position in the module's registry
        self.variadic_of = None     # C name of the variadic function called
        self.prototype = None       # its Prototype, when the IDL has one
        self.packed = None          # Packed, for a packed declaration
        self.in_slots = []
        self.out_slots = []
        self.n_in = SlotIndex()
        self.n_out = SlotIndex()

    @property
    def c_type(self):
        """The C function type the wrapper calls, array parameters spelled
        as declared."""
        return FuncType(self.ret, [(p.name, getattr(p.type, "declared",
                                                    p.type))
                                   for p in self.params], False)

    @property
    def shims(self):
        """The call-site shims of the wrapper: "trace", "fault"."""
        return [k for k in ("trace", "fault") if getattr(self, k)]


class Module:
    def __init__(self, name, pos):
        self.name = name
        self.pos = pos
        self.includes = []
        self.defines = []
        self.items = []             # declarations in IDL order
        self.layouts = []
        self.constants = []
        self.functions = []
        self.callbacks = []
        self.closure_sets = []      # ClosureSet, in IDL order
        self.prototypes = []
        self.used_scalars = set()   # scalar names whose size is assumed
        self.uses_errno = False
        self.uses_lasterror = False
        self.uses_callbacks = False  # a function takes a callback
        self.uses_ssize_t = False
        self.uses_tvm = False       # packed functions or TVM's types
        self.identifiers = set()    # every C identifier the IDL declares
        self.qualified_returns = False  # a return type has qualifiers
        self.lowered = None         # its Lowered, once lower() ran
        self.binding_records = None  # its binding records, once made

    @property
    def has_includes(self):
        return bool(self.includes)

    @property
    def uses_sites(self):
        """Some wrapper has the trace or fault shim."""
        return any(f.trace or f.fault for f in self.functions)

    def callback(self, name):
        for c in self.callbacks:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def packed_functions(self):
        return [f for f in self.functions if f.packed is not None]

    def function(self, name):
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)

    def layout(self, name):
        for entry in self.layouts:
            if entry.name == name:
                return entry
        raise KeyError(name)
