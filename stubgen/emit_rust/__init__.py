"""The Rust emitter: M.rs, a module over the crate bindings/rust/nccc
(docs/RUST.md, "Generated modules").

    #[path = "gen/tour.rs"] mod tour;
    let m = tour::Module::bind(&rt)?;
    m.add(40, 2)?   // 42

The module is printed from the module's binding records alone
(stubgen/model/binding.py, docs/BINDING.md; the IDL is read only to
refuse what Rust cannot hold): one safe method per function from its
record (its error name, its parameters' names and its parameters' and
results' types (params and results, slots.py), which pointers are slices
with which counts, its closures and their callback types' records):
scalars as their Rust types, a pointer with
a count (a value description) and that count as one slice, strings as
&str, [out]/[inout] values in a tuple, errno and status as Result<T,
nccc::Error>, records passed by value as #[repr(C)] types whose layout
`bind` checks against the library's table, [owned(F)] results as
nccc::Owned<T> (strings copied, then freed at once), callbacks as
closures (call scope: &mut dyn FnMut; the other scopes: Box<dyn FnMut +
Send>). A function this target cannot type (a closure set's member, a
packed declaration taking its module, a '*' result side) gets a method
over raw slots instead. Every struct and union is also a C object's
record (objects.py), from the layout records.
"""

from stubgen.ctype import STRING_CODE
from stubgen.host import HostModule
from stubgen.emit_rust.values import counted, counts, described
from stubgen.errors import IdlError
from stubgen.model.binding import records as binding_records
from stubgen.emit_rust.callbacks import (ClosureSlot, callback_sigs,
                                         closure_params, set_closure_params)
from stubgen.emit_rust.objects import (emit_constructors, emit_layouts,
                                       emit_named, emit_records)
from stubgen.emit_rust.records import by_value, emit_record
from stubgen.emit_rust.slots import Slots
from stubgen.emit_rust.types import (ident, rust_str, sigs, slot_at,
                                     text_pointee, text_rust)
from stubgen.source import Source


def _typed(slots):
    """Whether the Rust target types a function of these slots: not with
    a '*' result side, nor a packed declaration taking its module."""
    return not slots.variable_out and not any(s.role == "module" for s in slots.ins)


class _Call:
    """One method being printed: its parameters, the statements before
    the call (slots in), the wrappers around it (strings, claims), and
    its results."""

    def __init__(self, host, record):
        self.host, self.record = host, record
        self.slots = Slots(record)
        self.qname = record["error_name"]
        self.params = []        # "name: Type"
        self.pre = []           # statements before the call
        self.wrap = []          # (open line, close line) around the call
        self.checks = []        # statements after the call
        self.results = []       # (Rust type, expression)
        self.claims = []        # statements claiming closures
        self.forever = []       # heap closures returned to the caller
        # the function record's value descriptions: which arguments are
        # slices, and which their counts (the slice gives them)
        self.values = described(record)
        self.counts = counts(self.values)
        # [kept=OWNER] arguments: position -> the owner's position
        self.kept = {d["arg"]: d["owner"] for d in record.get("kept", ())}
        self.keeps = []         # statements handing them to nccc::kept

    def slot_in(self, slot, expr):
        self.pre.append("input[%s] = %s;" % (slot_at(slot.index), expr))


def _param(call, slot):
    """The Rust parameter of an in slot of role arg/inout/target."""
    name = ident(slot.name or "arg%d" % slot.index.fixed)
    pos = slot.position
    if slot.role == "target":
        call.params.append("%s: nccc::FnPtr" % name)
        call.slot_in(slot, "nccc::Value::to_slot(%s)" % name)
        _nonnull(call, slot, name, pos)
        return
    if pos in call.counts:
        return
    if pos in call.kept and (slot.code == STRING_CODE or counted(call.values.get(pos))):
        _kept_param(call, slot, name, pos)
        return
    if slot.record is not None:
        call.params.append("%s: %s" % (name, ident(slot.record)))
        call.pre.append("nccc::Record::to_slots(%s, &mut input[%s..]);"
                        % (name, slot_at(slot.index)))
        return
    if slot.code == STRING_CODE:
        _string_param(call, slot, name, pos)
        return
    if counted(call.values.get(pos)):
        _slice_param(call, slot, name, call.values[pos])
        return
    call.params.append("%s: %s" % (name, text_rust(slot.type)))
    call.slot_in(slot, "nccc::Value::to_slot(%s)" % name)
    _nonnull(call, slot, name, pos)


def _nonnull(call, slot, name, pos):
    if pos in call.record.get("nonnull", ()):
        call.pre.insert(0, "if %s.is_null() { return Err(nccc::Error::new("
                        "nccc::ErrorKind::Null, %s, \"NULL for a [nonnull] "
                        "parameter\").at(%d)); }" % (name, rust_str(call.qname), pos))


def _string_param(call, slot, name, pos):
    nullable = pos in call.record.get("nullable", ())
    c = "%s_c" % name.replace("r#", "")
    if nullable:
        call.params.append("%s: Option<&str>" % name)
        call.wrap.append(("nccc::with_c_str(%s.unwrap_or(\"\"), |%s| {" % (name, c),
                          "}).map_err(|e| e.about(%s, %d))?"
                          % (rust_str(call.qname), pos)))
        call.slot_in(slot, "if %s.is_some() { %s as u64 } else { 0 }" % (name, c))
    else:
        call.params.append("%s: &str" % name)
        call.wrap.append(("nccc::with_c_str(%s, |%s| {" % (name, c),
                          "}).map_err(|e| e.about(%s, %d))?"
                          % (rust_str(call.qname), pos)))
        call.slot_in(slot, "%s as u64" % c)


def _slice_param(call, slot, name, d):
    """A pointer with a count (its value description d) and that count:
    one slice."""
    elem, const = text_pointee(slot.type)
    mutable = not const
    call.params.append("%s: &%s[%s]" % (name, "mut " if mutable else "", elem))
    call.slot_in(slot, "%s.as%s_ptr() as usize as u64" % (name, "_mut" if mutable else ""))
    count = call.slots.ins[d["count"]["arg"] - 1]
    call.slot_in(count, "nccc::Value::to_slot(%s.len() as %s)"
                 % (name, text_rust(count.type)))


def _kept_param(call, slot, name, pos):
    """A string or slice the library keeps ([kept=OWNER]): a value the
    method takes over (a &str copied with its NUL, an nccc::Vec) and hands
    to nccc::kept after the call, held until the owner is freed."""
    owner = ident(call.slots.ins[call.kept[pos] - 1].name)
    keep = "nccc::kept::keep(%s.addr(), %d, nccc::Box::new(%%s));" % (owner, pos)
    if slot.code == STRING_CODE:
        c = "%s_c" % name.replace("r#", "")
        copy = "nccc::kept::c_string(%%s).map_err(|e| e.about(%s, %d))?" % (rust_str(call.qname), pos)
        if pos in call.record.get("nullable", ()):
            call.params.append("%s: Option<&str>" % name)
            call.pre.append("let %s = match %s { Some(t) => Some(%s), None => None };"
                            % (c, name, copy % "t"))
            call.slot_in(slot, "%s.as_ref().map_or(0, |b| b.as_ptr() as usize as u64)" % c)
            call.keeps.append("if let Some(b) = %s { %s }" % (c, keep % "b"))
        else:
            call.params.append("%s: &str" % name)
            call.pre.append("let %s = %s;" % (c, copy % name))
            call.slot_in(slot, "%s.as_ptr() as usize as u64" % c)
            call.keeps.append(keep % c)
        return
    elem, const = text_pointee(slot.type)
    mutable = not const
    call.params.append("%s%s: nccc::Vec<%s>" % ("mut " if mutable else "", name, elem))
    call.slot_in(slot, "%s.as%s_ptr() as usize as u64" % (name, "_mut" if mutable else ""))
    count = call.slots.ins[call.values[pos]["count"]["arg"] - 1]
    call.slot_in(count, "nccc::Value::to_slot(%s.len() as %s)" % (name, text_rust(count.type)))
    call.keeps.append(keep % name)


def _results(call):
    """The results, from the out slots and the record's owned ones."""
    rec = call.record
    # by result position: what the caller owns, and its free function
    owned = {o["result"]: o for o in [rec.get("owned")] + rec.get("owned_strings", [])
             + rec.get("owned_pointers", []) if o is not None}
    for j, slot in enumerate(call.slots.outs):
        at = slot_at(slot.index)
        if slot.role == "errno":
            call.checks.append("let errno = output[%s] as i32; if errno != 0 { return Err(nccc::Error::errno(%s, errno)); }"
                               % (at, rust_str(call.qname)))
            continue
        if slot.role == "status":
            call.checks.append("let status = output[%s] as i32 as u32; if status != 0 { return Err(nccc::Error::status(status, %s, b\"the packed function failed\")); }"
                               % (at, rust_str(call.qname)))
            continue
        if slot.record is not None:
            call.results.append((ident(slot.record),
                                 "<%s as nccc::Record>::from_slots(&output[%s..])"
                                 % (ident(slot.record), at)))
        elif j + 1 in owned and owned[j + 1].get("kind", "string") == "string":
            free = "self.f_%s" % owned[j + 1]["free"]
            call.results.append(("nccc::String", "owned_string_result(output[%s], %s)?" % (at, free)))
        elif slot.code == STRING_CODE:
            call.results.append(("Option<nccc::String>",
                                 "string_result(output[%s])?" % at))
        elif j + 1 in owned:
            # an owned object: the return value, or an [out] pointer
            marker = text_pointee(slot.type)[0]
            sets = _set_names(call.host, owned[j + 1].get("frees"))
            call.results.append(("nccc::Owned<%s>" % marker,
                                 "nccc::Owned::%s(nccc::Value::from_slot(output[%s]), self.f_%s%s)"
                                 % ("with_sets" if sets else "new", at, owned[j + 1]["free"],
                                    ", " + sets if sets else "")))
        else:
            call.results.append((text_rust(slot.type),
                                 "nccc::Value::from_slot(output[%s])" % at))


def _set_names(host, sets):
    """The closure sets' names (of the records) as a Rust slice of their
    registry names ("" for none)."""
    if not sets:
        return ""
    return "&[%s]" % ", ".join(rust_str(host.qualified(name)) for name in sets)


def _method(host, rec):
    call = _Call(host, rec)
    for slot in call.slots.ins:
        if slot.role == "closure":
            closure = ClosureSlot(call, next(c for c in call.record["closures"]
                                             if c["arg"] == slot.position), slot)
            if closure.set_name is not None:
                set_closure_params(call, closure)
            else:
                closure_params(call, closure)
        elif slot.role != "module":
            _param(call, slot)
    _results(call)
    call.types = [t for t, _ in call.results] + [
        "Option<nccc::Closure>" if nullable else "nccc::Closure"
        for _, nullable in call.forever]
    return call


def rust_signature(module, idl_name, name):
    """(parameters as "name: Type", result types) of a function's method;
    None when there is no such function or it is not typed (a method
    over raw slots)."""
    host = _host(module, idl_name)
    rec = host.function_records.get(name)
    if rec is None or not _typed(Slots(rec)):
        return None
    call = _method(host, rec)
    return call.params, call.types


def _host(module, idl_name):
    """The module's lowered parts, with the binding record of each
    function and callback type (stubgen/model/binding.py), which the
    emitter reads its facts from."""
    host = HostModule(module, idl_name)
    host.records = binding_records(module)
    host.function_records = {f["name"]: f for f in host.records["functions"]}
    host.callback_records = {c["name"]: c for c in host.records["callbacks"]}
    host.closure_set_records = {cs["name"]: cs for cs in host.records["closure_sets"]}
    return host


def _typed_method(src, host, rec):
    call = _method(host, rec)
    types = [t for t, _ in call.results] + [
        "Option<nccc::Closure>" if nullable else "nccc::Closure"
        for _, nullable in call.forever]
    values = [v for _, v in call.results] + [
        c if nullable else "%s.unwrap()" % c for c, nullable in call.forever]
    ret = "()" if not types else types[0] if len(types) == 1 else \
        "(%s)" % ", ".join(types)
    value = "()" if not values else values[0] if len(values) == 1 else \
        "(%s)" % ", ".join(values)
    checks = [line for line in call.pre if line.startswith("if ")]
    slots = [line for line in call.pre if not line.startswith("if ")]
    heap = any(c["scope"] != "call" for c in call.record.get("closures", ())) or call.keeps
    if heap:
        src.line("nccc::with_alloc! {")
        src.indent()
    src.line("/// `%s`: %s" % (call.qname, " | ".join(call.record["signatures"])))
    with src.block("pub fn %s(&self%s) -> Result<%s, nccc::Error> {" % (
            _method_name(rec["name"]), "".join(", " + p for p in call.params), ret), "}"):
        for line in checks:
            src.line(line)
        src.line("let mut input = [0u64; %s];" % (slot_at(call.slots.n_in) or "0"))
        src.line("let mut output = [0u64; %s];" % (slot_at(call.slots.n_out) or "0"))
        # strings lent to C wrap the rest: each a closure giving the result
        for opening, _ in call.wrap:
            src.line(opening.replace("| {", ": usize| -> Result<%s, nccc::Error> {" % ret))
            src.indent()
        for line in call.claims + slots:
            src.line(line)
        if "thunks" in call.record:
            # binding a thunk fails only in the thread's last error
            src.line("self.rt.clear_error()?;")
        src.line("// SAFETY: bind checked that the function takes as many slots as these buffers hold.")
        src.line("#[cfg(not(%s))]" % _static_cfg(host))
        src.line("unsafe { self.f_%s.call_unchecked(&input, &mut output) };" % rec["name"])
        src.line("// SAFETY: the same, by the wrapper's symbol (a statically linked module).")
        src.line("#[cfg(%s)]" % _static_cfg(host))
        src.line("unsafe { %s(input.as_ptr(), output.as_mut_ptr()) };" % _symbol(host, rec["name"]))
        for line in call.keeps:
            src.line(line)
        src.line("nccc::callback::take_panic(%s)?;" % rust_str(call.qname))
        if "frees" in call.record:
            # the destructor freed argument 1: its closure groups go
            owner = ident(call.slots.ins[0].name)
            src.line("nccc::with_alloc! { nccc::sets::release(%s, %s.addr()); }"
                     % (_set_names(host, call.record["frees"]), owner))
        if "thunks" in call.record:
            src.line("self.rt.check_refusal(%s)?;" % rust_str(call.qname))
        for line in call.checks:
            src.line(line)
        src.line("Ok(%s)" % value)
        for _, closing in reversed(call.wrap):
            src.dedent()
            src.line(closing)
    if heap:
        src.dedent()
        src.line("}")


def _static_cfg(host):
    """The cfg under which the module's methods call its wrappers by
    symbol instead of through the pointers bound at Module::bind."""
    return "nccc_static = %s" % rust_str(host.name)


def _symbol(host, name):
    """The C wrapper of function `name` (stubgen/emit_c)."""
    return "nccc_%s_%s" % (host.name, name)


def _raw_method(src, host, rec):
    qname = rust_str(rec["error_name"])
    src.line("/// `%s`: %s (raw slots: this function's values are not typed in Rust)"
             % (rec["error_name"], " | ".join(rec["signatures"])))
    with src.block("pub fn %s(&self, input: &[u64], output: &mut [u64]) -> Result<(), nccc::Error> {"
                   % _method_name(rec["name"]), "}"):
        src.line("let f = &self.f_%s;" % rec["name"])
        src.line("if input.len() < f.n_in() || output.len() < f.n_out() { return Err(nccc::Error::new(nccc::ErrorKind::Count, %s, \"fewer slots than the signature\")); }"
                 % qname)
        src.line("f.call(input, output);")
        src.line("nccc::callback::take_panic(%s)" % qname)


def _refuse_anonymous(module, passed):
    """A record passed by value has no anonymous member: a Rust record
    has no place for one (a check of the IDL, not a fact the module
    prints)."""
    for layout in module.layouts:
        if layout.name in passed and any(f.anonymous for f in layout.decl.fields or ()):
            raise IdlError(layout.decl.pos, "the Rust module cannot hold %s %s: "
                           "it has an anonymous member, which a Rust record has "
                           "no place for" % (layout.kind, layout.name))


def emit(module, idl_name):
    host = _host(module, idl_name)
    src = Source(indent="    ")
    src.line("//! %s.rs: the nccc module %s for Rust, %s." % (
        host.name, rust_str(host.name), host.generated_by()))
    src.line("//! Over the crate nccc (docs/RUST.md, \"Generated modules\"):")
    src.line("//! `let m = %s::Module::bind(&runtime)?;`" % host.name)
    src.line("#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]")
    src.line("#![allow(dead_code, unused_mut, unused_imports, clippy::all)]")
    src.line("#![allow(unknown_lints, unexpected_cfgs)]  // %s: set by the crate" % _static_cfg(host))
    src.line("pub const MODULE: &str = %s;" % rust_str(host.name))
    src.blank()
    layouts = host.records["layouts"]
    by_name = {rec["name"]: rec for rec in layouts}
    passed = by_value(host, by_name)
    _refuse_anonymous(module, passed)
    for layout in layouts:
        if layout["kind"] == "opaque" or layout["name"] in passed:
            emit_record(src, host, layout, by_name)
            src.blank()
    emit_layouts(src, layouts)
    src.blank()
    emit_records(src, layouts)
    src.blank()
    emit_named(src, layouts)
    src.blank()
    src.line("/// The module's constants and enumerators, read from the library when it binds.")
    src.line("#[derive(Clone, Copy, Debug)]")
    with src.block("pub struct Constants {", "}"):
        for name, text in zip(host.records["constants"], host.records["constant_types"]):
            src.line("pub %s: %s," % (ident(name), text_rust(text)))
    src.blank()
    with src.block('extern "C" {', "}"):
        src.line("fn nccc_%s_open(input: *const u64, output: *mut u64);" % host.name)
    src.blank()
    src.line("// The wrappers by symbol, which the methods call directly when the crate")
    src.line("// sets the cfg `%s` (docs/RUST.md, \"Static linking and LTO\")." % _static_cfg(host))
    src.line("#[cfg(%s)]" % _static_cfg(host))
    with src.block('extern "C" {', "}"):
        for rec in host.records["functions"]:
            if _typed(Slots(rec)):
                src.line("fn %s(input: *const u64, output: *mut u64);" % _symbol(host, rec["name"]))
    src.blank()
    src.line("/// The module bound to a runtime: one method per function.")
    with src.block("pub struct Module<'r> {", "}"):
        src.line("rt: &'r nccc::Runtime<'r>,")
        src.line("target: usize,")
        src.line("pub constants: Constants,")
        src.line("pub layouts: Layouts,")
        for rec in host.records["functions"]:
            src.line("f_%s: nccc::Function," % rec["name"])
    src.blank()
    with src.block("impl<'r> Module<'r> {", "}"):
        _bind(src, host, module)
        src.blank()
        _callback_signature(src, host)
        src.blank()
        _call_dynamic(src, host)
        src.blank()
        emit_constructors(src)
        for rec in host.records["functions"]:
            src.blank()
            if _typed(Slots(rec)):
                _typed_method(src, host, rec)
            else:
                _raw_method(src, host, rec)
    src.blank()
    _helpers(src)
    return {host.name + ".rs": str(src)}


def _helpers(src):
    src.lines("""
        /// The signature of a callback type for the target the module bound to.
        fn pick_signature(target: usize, signatures: &'static [&'static str]) -> &'static str {
            signatures[if signatures.len() > 1 { target } else { 0 }]
        }

        fn string_result(slot: u64) -> Result<Option<nccc::String>, nccc::Error> {
            // SAFETY: a string result is NULL or a NUL-terminated C string (the IDL says so).
            unsafe { nccc::string_from_c(slot as usize, MODULE) }
        }

        /// An owned string: copied, then freed at once by its destructor.
        fn owned_string_result(slot: u64, free: nccc::Function) -> Result<nccc::String, nccc::Error> {
            let text = string_result(slot);
            free.call(&[slot], &mut [0u64; 1]);
            Ok(text?.unwrap_or_default())
        }
        """)


def _method_name(name):
    """The method of function `name`: its name, unless a method of the
    module's own has it."""
    return ident(name) + ("_" if name in ("bind", "callback_signature") else "")


def _callback_signature(src, host):
    src.line("/// The signature of callback type `name` for the target the module bound")
    src.line("/// to (for nccc::dynamic closures). Errors: no such type (kind Unknown).")
    unknown = ("Err(nccc::Error::new(nccc::ErrorKind::Unknown, MODULE, "
               "\"no such callback type\"))")
    with src.block("pub fn callback_signature(&self, name: &str) -> Result<&'static str, nccc::Error> {", "}"):
        if not host.records["callbacks"]:  # a match of one arm would leave Ok unreachable
            src.line("let _ = (self, name);")
            src.line(unknown)
            return
        with src.block("let signatures: &'static [&'static str] = match name {", "};"):
            for cb in host.records["callbacks"]:
                src.line("%s => %s," % (rust_str(cb["name"]), callback_sigs(host, cb["name"])))
            src.line("_ => return %s," % unknown)
        src.line("Ok(pick_signature(self.target, signatures))")


def _call_dynamic(src, host):
    """m.call_dynamic: the registry call with the closure arguments'
    callback types checked, as the methods' types check them."""
    src.line("nccc::with_alloc! {")
    src.indent()
    src.line("/// `rt.call_dynamic(name, args)`, refusing first a closure argument made for")
    src.line("/// other callback types than its parameter's (kind Type), or of scope call")
    src.line("/// where the parameter's is another (kind Scope), as the methods' types do")
    src.line("/// at compile time (the slots of closure sets are not checked).")
    with src.block("pub fn call_dynamic(&self, name: &'static str, args: &[nccc::Dyn])"
                   " -> Result<nccc::Vec<nccc::Dyn>, nccc::Error> {", "}"):
        with src.block("match name {", "}"):
            for rec in host.records["functions"]:
                typed = [c for c in rec.get("closures", ()) if c["callbacks"] and "set" not in c]
                if not typed:
                    continue
                checks = ", ".join("(%d, %s, &[%s])" % (c["arg"], rust_str(c["scope"]), ", ".join(
                    "pick_signature(self.target, %s)" % callback_sigs(host, cb)
                    for cb in c["callbacks"])) for c in typed)
                src.line("%s => self.rt.call_typed(name, args, &[%s])," % (
                    rust_str(rec["error_name"]), checks))
            src.line("_ => self.rt.call_dynamic(name, args),")
    src.dedent()
    src.line("}")


def _bind(src, host, module):
    src.line("/// Adds the module to the runtime unless it is there (`nccc_%s_open`), checks" % host.name)
    src.line("/// every function's signature and every record's layout against the library's,")
    src.line("/// and reads the constants. Errors: kind Signature, Layout or Unknown.")
    with src.block("pub fn bind(rt: &'r nccc::Runtime<'r>) -> Result<Module<'r>, nccc::Error> {", "}"):
        src.line("rt.open(nccc_%s_open, MODULE)?;" % host.name)
        layouts = host.records["layouts"]
        passed = by_value(host, {rec["name"]: rec for rec in layouts})
        for layout in layouts:
            if layout["kind"] != "opaque" and layout["name"] in passed:
                src.line("nccc::check_layout::<%s>(rt)?;" % ident(layout["name"]))
        src.line("let layouts = Layouts::read(rt)?;")
        src.line("let mut targets = u32::MAX;")
        for rec in host.records["functions"]:
            name = rec["name"]
            src.line("let (f_%s, t) = rt.bind_targets(%s, %s)?; targets &= t;"
                     % (name, rust_str(rec["error_name"]), sigs(rec["signatures"])))
            slots = Slots(rec)
            if _typed(slots):
                src.line("let f_%s = f_%s.sized(%s, %s, %s)?;" % (
                    name, name, slot_at(slots.n_in) or "0",
                    slot_at(slots.n_out) or "0", rust_str(rec["error_name"])))
        src.line("if targets == 0 { return Err(nccc::Error::new(nccc::ErrorKind::Signature, MODULE, \"no target agrees with every signature\")); }")
        with src.block("let constants = Constants {", "};"):
            for name in host.records["constants"]:
                src.line("%s: rt.constant(MODULE, %s)?," % (ident(name), rust_str(name)))
        src.line("Ok(Module { rt, target: targets.trailing_zeros() as usize, constants, layouts, %s })"
                 % ", ".join("f_%s" % rec["name"] for rec in host.records["functions"]))
