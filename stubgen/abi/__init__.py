"""The ABI description (idl/abi.json), loaded and checked once.

Every table of an ABI fact — signature codes, the code grammar, the
handle layout, status codes, built-ins (with the size of their '*'
sides), the closure target's signature, closure scopes and flags, type
kinds, the targets a signature may differ on, packed functions' flags,
type codes and sized calls, the native cores' item format and helper
keys — is generated from this one file: the C header nccc/abi.h (and
the Python C extension's nccc_items.h), the Lua table nccc/abi.lua, the
Scheme library (nccc abi), and the generator's own tables
(stubgen.ctype, the host emitters) read it here.

    abi = stubgen.abi.load()
    abi.code("h").max   # 32767
"""

import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "idl", "abi.json")

KINDS = ("bool", "int", "float", "pointer", "string", "function",
         "closure", "errno")

# What one unit of a built-in's sizing argument takes on its '*' side, as
# slots = ceil(n * mul / div): a slot holds 8 bytes.
REST_UNITS = {"byte": (1, 8), "slot": (1, 1), "pair": (2, 1),
              "triple": (3, 1)}


class AbiError(Exception):
    """idl/abi.json breaks one of the rules below (message names it)."""


def _copy(obj, data, names):
    """Sets obj.NAME to data[NAME] for each of the space-separated names."""
    for name in names.split():
        setattr(obj, name, data[name])


def _named(data, key):
    """The entries of the list data[key] as Named."""
    return [Named(e) for e in data[key]]


class Code:
    """One signature code: code, name, kind, bytes (0 = pointer-sized),
    signed, in_ok / out_ok; min / max for integer-valued kinds (bool,
    int, errno), derived from bytes and signed; None for the others."""

    def __init__(self, entry):
        _copy(self, entry, "code name kind bytes signed")
        sides = entry["sides"].split()
        self.in_ok = "in" in sides
        self.out_ok = "out" in sides
        self.min = self.max = None
        if self.kind == "bool":
            self.min, self.max = 0, 1
        elif self.kind in ("int", "errno"):
            bits = 8 * self.bytes
            if self.signed:
                self.min, self.max = -2 ** (bits - 1), 2 ** (bits - 1) - 1
            else:
                self.min, self.max = 0, 2 ** bits - 1

    @property
    def bits(self):
        return 8 * self.bytes

    @property
    def ident(self):
        """The code's C identifier part: BOOL, INT8, FUNCTION_POINTER ..."""
        return self.name.upper().replace(" ", "_")


class Rest:
    """The size of a built-in's '*' side: the argument at index arg
    (0-based) holds n units of per ("byte", "slot", "pair" or "triple"),
    and the side takes slots(n) = ceil(n * mul / div) slots; out says
    which side ends in '*'."""

    def __init__(self, entry, out):
        self.arg = entry["arg"]
        self.per = entry["per"]
        self.out = out
        self.mul, self.div = REST_UNITS.get(self.per, (None, None))

    def slots(self, n):
        return -(-n * self.mul // self.div)


class Builtin:
    """One built-in: index, name, signature, n_in / n_out (slot counts,
    NCCC_SLOTS_VARIABLE or'ed in for a side ending in '*'), doc; rest,
    the Rest of its '*' side, or None."""

    def __init__(self, index, entry, abi):
        self.index = index
        self.name = entry["name"]
        self.signature = entry["signature"]
        self.doc = entry.get("doc", "")
        self.n_in, self.n_out = abi.counts(self.signature)
        self.rest = None
        if "rest" in entry:
            self.rest = Rest(entry["rest"],
                             bool(self.n_out & abi.slots_variable))

    @property
    def ident(self):
        return self.name.upper()


class Target:
    """One target a signature may differ on: the data model (name,
    long_bytes, pointer_bytes) and whether plain char is signed."""

    def __init__(self, model, char_signed):
        self.data_model = model["name"]
        _copy(self, model, "long_bytes pointer_bytes")
        self.char_signed = char_signed


class Named:
    """A name/value pair with an optional doc (status, scope, flag, type
    kind); status entries also carry text and, where TVM has the same
    condition, its tvm_crt_error_t name."""

    def __init__(self, entry):
        self.name = entry["name"]
        self.value = entry["value"]
        self.doc = entry.get("doc", "")
        self.text = entry.get("text", "")
        self.tvm = entry.get("tvm")


class Packed:
    """Packed functions' facts: module (the packed calls' module for
    hosts), flags (of nccc_packed_register), type_codes (TVM's, each
    Named with its tvm spelling), sized [(name in module, Rest)]."""

    def __init__(self, data):
        self.module = data["module"]
        self.flags = _named(data, "flags")
        self.type_codes = _named(data, "type_codes")
        self.sized = [(e["name"], Rest(e["rest"], False))
                      for e in data["sized"]]

    def type_code(self, name):
        """The value of the type code called name (int, float, str ...)."""
        return next(t.value for t in self.type_codes if t.name == name)


class Items:
    """The item format of the hosts' native cores: nonnull and helper,
    the marks before an item; helper_keys (Named), what slow takes in
    place of an argument number to raise a call's other errors."""

    def __init__(self, data):
        self.nonnull = data["nonnull"]
        self.helper = data["helper"]
        self.helper_keys = _named(data, "helper_keys")

    def key(self, name):
        """The value of the helper key called name."""
        return next(k.value for k in self.helper_keys if k.name == name)


class Abi:
    def __init__(self, data):
        self.codes = [Code(e) for e in data["codes"]]
        self._by_code = {c.code: c for c in self.codes}
        g = data["grammar"]
        _copy(self, g, "separator variadic record_open record_close "
                       "record_count slots_variable")
        self.max_slots = g["max_slots_per_side"]
        self.handle = dict(data["handle"])
        for group in ("status", "scopes", "closure_flags", "type_kinds"):
            setattr(self, group, _named(data, group))
        self.fnv1a_32 = dict(data["fnv1a_32"])
        self.name_index_params = dict(data["name_index"])
        self.closure_type_params = dict(data["closure_type"])
        self.builtins = [Builtin(k, e, self)
                         for k, e in enumerate(data["builtins"])]
        self.closure_target_signature = data["closure_target"]["signature"]
        self.items = Items(data["items"])
        self.refusal_kinds = list(data["refusals"]["kinds"])
        self.refusal_statuses = list(data["refusals"]["statuses"])
        self.builtins_module = data["builtins_module"]
        t = data["targets"]
        self.targets = [Target(m, signed) for m in t["data_models"]
                        for signed in t["plain_char"]]
        self.data_models = [m["name"] for m in t["data_models"]]
        self.packed = Packed(data["packed"])
        self.rpc = Rpc(data["rpc"])
        _check(self)

    def sized(self):
        """{qualified function name: Rest} of every function whose '*'
        side one of its arguments sizes: the built-ins', the packed
        calls'."""
        out = {"%s.%s" % (self.builtins_module, b.name): b.rest
               for b in self.builtins if b.rest}
        out.update(("%s.%s" % (self.packed.module, name), rest)
                   for name, rest in self.packed.sized)
        return out

    def closure_type(self, signature):
        """The type a typed closure of this callback signature records
        (idl/abi.json, closure_type): FNV-1a 32 over its bytes, 0 -> 1."""
        p = self.closure_type_params
        h = self.hash(signature)
        return p["zero_becomes"] if h == p["untyped"] else h

    def hash(self, text):
        """FNV-1a 32 over the UTF-8 bytes of text (idl/abi.json,
        fnv1a_32)."""
        h = self.fnv1a_32["offset_basis"]
        for byte in text.encode("utf-8"):
            h = ((h ^ byte) * self.fnv1a_32["prime"]) & 0xFFFFFFFF
        return h

    def name_index(self, names):
        """A registry's hash index of names, in index order (idl/abi.json,
        name_index): [slot count - 1, slot, slot, ...]."""
        p = self.name_index_params
        count = 2
        while count < p["slots_per_name"] * len(names):
            count *= 2
        slots = [p["empty"]] * count
        for i, name in enumerate(names):
            k = self.hash(name) & (count - 1)
            while slots[k] != p["empty"]:
                k = (k + 1) & (count - 1)
            slots[k] = i + 1
        return [count - 1] + slots

    def code(self, c):
        """The Code of one signature letter, or None."""
        return self._by_code.get(c)

    def grammar_chars(self):
        """[(role, character)] of the signature grammar, in a fixed order."""
        return [("separator", self.separator), ("variadic", self.variadic),
                ("record_open", self.record_open),
                ("record_close", self.record_close),
                ("record_count", self.record_count)]

    def value_codes(self):
        """The codes of one plain value (not a closure context, not errno):
        what a dynamic caller such as libffi can pass."""
        return "".join(c.code for c in self.codes
                       if c.kind not in ("closure", "errno"))

    def in_codes(self):
        return "".join(c.code for c in self.codes if c.in_ok)

    def out_codes(self):
        return "".join(c.code for c in self.codes if c.out_ok)

    def counts(self, signature):
        """(n_in, n_out) of a signature made of one-slot codes and '*'
        (the built-ins' signatures), as the runtime stores them."""
        sides = signature.split(self.separator)
        if len(sides) != 2:
            raise AbiError("signature %r: one '%s' expected"
                           % (signature, self.separator))
        return tuple(self._count(side, out)
                     for side, out in zip(sides, (False, True)))

    def _count(self, side, out):
        n = 0
        for k, c in enumerate(side):
            if c == self.variadic and k == len(side) - 1:
                return n | self.slots_variable
            code = self.code(c)
            if code is None or not (code.out_ok if out else code.in_ok):
                raise AbiError("signature side %r: code %r not allowed"
                               % (side, c))
            n += 1
        return n


class Rpc:
    """The remote-call protocol's numbers (docs/RPC.md): version, the
    framing bytes and CRC, the header size, message types, byte orders
    and log levels (lists of Named)."""

    def __init__(self, data):
        _copy(self, data, "version escape start nop data_ff length_bytes "
                          "crc_bytes header_bytes header largest_message "
                          "largest_message_doc max_name_bytes "
                          "max_name_bytes_doc bound_marker bound_marker_doc")
        self.crc = dict(data["crc"])
        for group in ("result_flags", "messages", "byte_orders",
                      "log_levels"):
            setattr(self, group, _named(data, group))
        # each message's layout, and a request's answer, as docs/RPC.md
        # shows them (emit_js reads their offsets)
        self.layouts = {e["name"]: e["layout"] for e in data["messages"]
                        if "layout" in e}
        self.answers = {e["name"]: e["answer"] for e in data["messages"]
                        if "answer" in e}
        self.callbacks = dict(data["callbacks"])

    def crc16(self, data):
        """The frame CRC of data (bytes): MSB first, no final xor."""
        c = self.crc["init"]
        for byte in data:
            c ^= byte << 8
            for _ in range(8):
                c = ((c << 1) ^ self.crc["poly"]) if c & 0x8000 else c << 1
                c &= 0xFFFF
        return c


def _check_rpc(rpc):
    framing = [rpc.escape, rpc.start, rpc.nop, rpc.data_ff]
    if len(set(framing)) != 4 or any(not 0 <= b <= 255 for b in framing):
        raise AbiError("rpc: escape, start, nop and data_ff are four distinct bytes")
    name_field = re.search(r"\blength:(\d+)", rpc.layouts.get("lookup", ""))
    if not name_field or \
            rpc.max_name_bytes != (1 << (8 * int(name_field.group(1)))) - 1:
        raise AbiError("rpc: max_name_bytes is the most the lookup's length "
                       "field holds")
    if rpc.crc16(b"123456789") != rpc.crc["check"]:
        raise AbiError("rpc: the CRC of '123456789' is not crc.check")
    for group in ("messages", "byte_orders", "log_levels", "result_flags"):
        entries = getattr(rpc, group)
        _check_distinct("rpc " + group, entries)
        if any(not 0 <= e.value <= 255 for e in entries):
            raise AbiError("rpc %s: values are bytes" % group)


def _check(abi):
    letters = [c.code for c in abi.codes]
    if len(set(letters)) != len(letters) or \
            any(len(c) != 1 for c in letters):
        raise AbiError("codes: each code is one distinct character")
    grammar = {abi.variadic, abi.record_open, abi.record_close}
    if grammar & set(letters) or abi.separator in letters:
        raise AbiError("codes: a code may not be a grammar character")
    for c in abi.codes:
        if c.kind not in KINDS:
            raise AbiError("code %r: unknown kind %r" % (c.code, c.kind))
        if c.bytes not in (0, 1, 2, 4, 8):
            raise AbiError("code %r: bytes must be 0, 1, 2, 4 or 8"
                           % c.code)
        if (c.bytes == 0) != (c.kind in ("pointer", "string", "function",
                                         "closure")):
            raise AbiError("code %r: bytes 0 is for pointer-sized kinds "
                           "only" % c.code)
        if not (c.in_ok or c.out_ok):
            raise AbiError("code %r: sides must name in, out or both"
                           % c.code)
    for group, entries in (("status", abi.status), ("scopes", abi.scopes),
                           ("closure_flags", abi.closure_flags),
                           ("type_kinds", abi.type_kinds),
                           ("packed flags", abi.packed.flags),
                           ("packed type_codes", abi.packed.type_codes)):
        _check_distinct(group, entries)
    _check_items(abi, letters)
    if not set(abi.refusal_kinds) <= set(KINDS) or \
            not set(abi.refusal_statuses) <= {st.name for st in abi.status}:
        raise AbiError("refusals: kinds are code kinds, statuses status names")
    ct = abi.closure_type_params
    if ct.get("hash") != "fnv1a_32" or ct["untyped"] == ct["zero_becomes"]:
        raise AbiError("closure_type: fnv1a_32 with distinct untyped and "
                       "zero_becomes values")
    ni = abi.name_index_params
    if ni.get("hash") != "fnv1a_32" or ni["empty"] != 0 or \
            ni["slots_per_name"] < 2:
        raise AbiError("name_index: fnv1a_32, empty 0 (slots hold an index "
                       "plus one), at least 2 slots per name")
    names = [b.name for b in abi.builtins]
    if len(set(names)) != len(names):
        raise AbiError("builtins: duplicate name")
    for b in abi.builtins:
        _check_rest(abi, b)
    abi.counts(abi.closure_target_signature)
    _check_targets(abi)
    for name, rest in abi.packed.sized:
        if rest.mul is None:
            raise AbiError("packed sized %s: rest per must be one of %s"
                           % (name, ", ".join(sorted(REST_UNITS))))
    _check_rpc(abi.rpc)
    h = abi.handle
    if h["index_mask"] + 1 != h["function_marker"] or \
            h["function_marker"] << h["module_shift"] != h["module_marker"]:
        raise AbiError("handle: markers must sit just above each 15-bit "
                       "index, the module's in the upper half")


def _check_distinct(group, entries):
    """No two Named entries of a group share a name or a value."""
    for attr in ("name", "value"):
        seen = [getattr(e, attr) for e in entries]
        if len(set(seen)) != len(seen):
            raise AbiError("%s: duplicate %s" % (group, attr))


def _check_items(abi, letters):
    marks = [abi.items.nonnull, abi.items.helper]
    grammar = [g for _, g in abi.grammar_chars()]
    if len(set(marks)) != 2 or any(len(m) != 1 for m in marks) or \
            set(marks) & set(letters + grammar):
        raise AbiError("items: nonnull and helper are two distinct "
                       "characters, neither a code nor a grammar character")
    keys = [k.value for k in abi.items.helper_keys]
    if len(set(keys)) != len(keys) or any(v > 0 for v in keys):
        raise AbiError("items: helper keys are distinct and not above 0 "
                       "(argument numbers start at 1)")


def _check_targets(abi):
    keys = [(t.data_model, t.char_signed) for t in abi.targets]
    if not keys or len(set(keys)) != len(keys):
        raise AbiError("targets: distinct data models and plain chars")
    for t in abi.targets:
        if t.long_bytes not in (4, 8) or t.pointer_bytes not in (4, 8):
            raise AbiError("targets: %s: long and pointer take 4 or 8 bytes"
                           % t.data_model)


def _check_rest(abi, b):
    """A built-in whose signature has a '*' side says how big it is, from
    one of its fixed unsigned arguments."""
    variable = (b.n_in | b.n_out) & abi.slots_variable
    if (b.rest is None) != (not variable):
        raise AbiError("builtin %s: rest is for a signature with '*', and "
                       "one with '*' needs it" % b.name)
    if b.rest is None:
        return
    if b.rest.mul is None:
        raise AbiError("builtin %s: rest per must be one of %s"
                       % (b.name, ", ".join(sorted(REST_UNITS))))
    fixed = b.signature.split(abi.separator)[0].rstrip(abi.variadic)
    code = abi.code(fixed[b.rest.arg]) \
        if 0 <= b.rest.arg < len(fixed) else None
    if code is None or code.kind != "int" or code.signed:
        raise AbiError("builtin %s: rest arg must be the index of a fixed "
                       "unsigned integer argument" % b.name)


def load(path=SOURCE):
    """The checked Abi of path (idl/abi.json by default)."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except ValueError as e:
            raise AbiError("%s: %s" % (path, e))
    try:
        return Abi(data)
    except KeyError as e:
        raise AbiError("%s: missing key %s" % (path, e))
