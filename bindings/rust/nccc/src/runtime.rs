//! The runtime: its registry block from caller-owned memory, the root's
//! built-ins, lookup by name, functions by handle with their slot counts,
//! signature checks, and the layout and constant tables of modules.

use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, Ordering};

use crate::abi::{self, Builtin};
use crate::error::{Error, ErrorKind};
use crate::slot::Value;
use crate::slot::{slot_bytes, Ptr};
use crate::text::{c_bytes, push_str, with_c_str, String};
use crate::ffi::{nccc_init, nccc_root, RawFn};

/// Set while a `Runtime` exists: the C runtime is one per process.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// A function handle of the registry (docs/ABI.md, "Handles").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handle(pub u32);

/// A callable nccc function with the slot counts of its signature: the
/// one primitive, made safe by checking the buffers against them.
#[derive(Clone, Copy)]
pub struct Function {
    raw: RawFn,
    n_in: usize,
    n_out: usize,
}

impl Function {
    /// A function whose in and out sides take `n_in`/`n_out` slots (for
    /// a side ending in '*', its fixed part).
    ///
    /// # Safety
    /// `raw` must be an nccc function that reads at most `n_in` slots and
    /// writes at most `n_out` (or as many as its arguments say, for a
    /// variable side the caller sizes itself).
    pub unsafe fn from_raw(raw: RawFn, n_in: usize, n_out: usize) -> Function {
        Function { raw, n_in, n_out }
    }

    pub fn n_in(&self) -> usize {
        self.n_in
    }

    pub fn n_out(&self) -> usize {
        self.n_out
    }

    pub fn raw(&self) -> RawFn {
        self.raw
    }

    /// The function, when its signature takes exactly `n_in` and `n_out`
    /// slots (what a generated module's buffers hold); else an error of
    /// kind `Signature`.
    pub fn sized(self, n_in: usize, n_out: usize, function: &'static str) -> Result<Function, Error> {
        if self.n_in != n_in || self.n_out != n_out {
            return Err(Error::new(ErrorKind::Signature, function,
                                  "the library's slot counts differ from the IDL's"));
        }
        Ok(self)
    }

    /// The primitive without the length check.
    ///
    /// # Safety
    /// `input` holds at least `n_in()` slots and `output` at least
    /// `n_out()` (a generated module's buffers, sized when it bound).
    #[inline(always)]
    pub unsafe fn call_unchecked(&self, input: &[u64], output: &mut [u64]) {
        // SAFETY: the caller's promise: the buffers are long enough.
        unsafe { (self.raw)(input.as_ptr(), output.as_mut_ptr()) }
    }

    /// The primitive: `fn(in, out)`. Panics when a buffer is shorter than
    /// the signature's slot count (the C function would read or write
    /// past it).
    #[inline(always)]
    pub fn call(&self, input: &[u64], output: &mut [u64]) {
        assert!(input.len() >= self.n_in && output.len() >= self.n_out,
                "nccc: slot buffers shorter than the signature");
        // SAFETY: from_raw's contract: the function touches at most n_in
        // and n_out slots, and both buffers are at least that long.
        unsafe { (self.raw)(input.as_ptr(), output.as_mut_ptr()) }
    }
}

/// The layout of a struct, union or opaque type from a module's table.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub module: u16,
    pub index: u16,
    pub size: usize,
    pub align: usize,
    pub kind: u64,
    pub n_fields: usize,
}

/// One field of a layout.
#[derive(Clone, Copy, Debug)]
pub struct LayoutField<'r> {
    pub name: &'r [u8],
    pub code: &'r [u8],
    pub offset: usize,
    pub size: usize,
    pub count: usize,
}

/// The nccc runtime of this process, with its global registry in a block
/// the caller owns for as long as the runtime lives. There is one at a
/// time; dropping it re-initialises the C runtime onto its own static
/// block, so C never keeps a pointer into the caller's memory. It may be
/// shared between threads: the C runtime locks what it shares and keeps
/// the last error per thread.
pub struct Runtime<'p> {
    _pool: PhantomData<&'p mut [u8]>,
}

impl<'p> Runtime<'p> {
    /// Initialises the runtime with `pool` as its global registry block
    /// (`nccc_init(pool, len)`). Errors: a runtime exists already
    /// (`ErrorKind::Status`, `NCCC_ERR_ALREADY_DEFINED`), the block is too
    /// small (the runtime's status).
    pub fn new(pool: &'p mut [u8]) -> Result<Runtime<'p>, Error> {
        Runtime::start(pool.as_mut_ptr(), pool.len())
    }

    /// The same with the runtime's own static block.
    pub fn with_static_block() -> Result<Runtime<'static>, Error> {
        Runtime::start(core::ptr::null_mut(), 0)
    }

    fn start<'a>(block: *mut u8, size: usize) -> Result<Runtime<'a>, Error> {
        if ACTIVE.swap(true, Ordering::AcqRel) {
            let mut e = Error::status(abi::ERR_ALREADY_DEFINED, "nccc_init", b"");
            e.set_message(b"a Runtime exists already");
            return Err(e);
        }
        // SAFETY: block is NULL or the caller's buffer of size bytes,
        // borrowed for the runtime's lifetime; Drop re-initialises the
        // runtime before the borrow ends.
        let status = unsafe { nccc_init(block, size) } as u32;
        if status != abi::OK {
            ACTIVE.store(false, Ordering::Release);
            return Err(Error::status(status, "nccc_init", b""));
        }
        Ok(Runtime { _pool: PhantomData })
    }

    /// A built-in by its entry in the ABI table (`abi::LOOKUP` ...).
    pub fn builtin(&self, b: Builtin) -> Result<Function, Error> {
        builtin(b)
    }

    /// Calls a built-in whose out side starts with its status; the
    /// status, when not OK, becomes the error with the runtime's message.
    pub fn run(&self, b: Builtin, input: &[u64], output: &mut [u64]) -> Result<(), Error> {
        let f = self.builtin(b)?;
        f.call(input, output);
        let status = output[0] as u32;
        if status != abi::OK {
            return Err(self.error(status, b.name));
        }
        Ok(())
    }

    /// The error of a failed status, with the thread's last error message.
    pub fn error(&self, status: u32, function: &'static str) -> Error {
        let mut out = [0u64; 3];
        match self.builtin(abi::LAST_ERROR) {
            Ok(f) => f.call(&[], &mut out),
            Err(e) => return e,
        }
        // SAFETY: last_error's message is a C string of the runtime (or 0).
        let message = unsafe { c_bytes(out[2] as usize) };
        let mut e = Error::status(status, function, message);
        if status == abi::ERR_NAME_NOT_FOUND {
            e.kind = ErrorKind::Unknown;
        }
        e
    }

    /// The thread's last error as an `Err` naming `function`, if there is
    /// one (after a call whose failure shows only there).
    pub fn check_error(&self, function: &'static str) -> Result<(), Error> {
        let mut out = [0u64; 3];
        self.builtin(abi::LAST_ERROR)?.call(&[], &mut out);
        let status = out[1] as u32;
        if status != abi::OK {
            // SAFETY: last_error's message is a C string of the runtime (or 0).
            let message = unsafe { c_bytes(out[2] as usize) };
            return Err(Error::status(status, function, message));
        }
        Ok(())
    }

    /// The thread's last error as an `Err` naming `function` when it is
    /// one of the refusals a generated wrapper leaves there
    /// (`abi::REFUSAL_STATUSES`: NULL for `[nonnull]`, a stale closure, a
    /// full thunk pool); any other status there is not the call's.
    pub fn check_refusal(&self, function: &'static str) -> Result<(), Error> {
        match self.check_error(function) {
            Err(e) if abi::REFUSAL_STATUSES.contains(&e.status) => Err(e),
            _ => Ok(()),
        }
    }

    /// Clears the thread's last error (before a call whose failure shows
    /// only there).
    pub fn clear_error(&self) -> Result<(), Error> {
        self.run(abi::CLEAR_ERROR, &[], &mut [0])
    }

    /// The handle of `name` ("F" global, "M.F" in module M).
    pub fn lookup(&self, name: &str) -> Result<Handle, Error> {
        let mut out = [0u64; 2];
        with_c_str(name, |p| self.run(abi::LOOKUP, &[p as u64], &mut out))??;
        Ok(Handle(out[1] as u32))
    }

    /// The function behind a handle and its registry signature.
    pub fn function(&self, h: Handle) -> Result<(Function, &[u8]), Error> {
        let mut out = [0u64; 6];
        self.run(abi::FUNCTION, &[h.0 as u64], &mut out)?;
        // SAFETY: the registry hands out an nccc function and its static
        // signature; out[4]/out[5] are the slot counts the runtime checks
        // calls against, so the function reads and writes no more.
        unsafe {
            let raw: RawFn = core::mem::transmute(out[1] as usize);
            let signature = c_bytes(out[3] as usize);
            let mask = abi::MAX_SLOTS as u64;
            Ok((Function::from_raw(raw, (out[4] & mask) as usize, (out[5] & mask) as usize),
                signature))
        }
    }

    /// Looks `name` up and checks that its registry signature is one of
    /// `signatures` (the IDL's, one per target): what a generated module
    /// does for each function when it binds.
    pub fn bind(&self, name: &'static str, signatures: &[&str]) -> Result<Function, Error> {
        let h = self.lookup(name).map_err(|mut e| {
            e.function = name;
            e
        })?;
        let (f, signature) = self.function(h)?;
        if !signatures.iter().any(|s| s.as_bytes() == signature) {
            let mut e = Error::new(ErrorKind::Signature, name, "the library's signature is ");
            e.append(signature);
            e.append(b", not the IDL's ");
            e.append(signatures.first().map_or(&b""[..], |s| s.as_bytes()));
            return Err(e);
        }
        Ok(f)
    }

    /// The same, also saying which of `signatures` the library's is: bit
    /// k set when it equals `signatures[k]` (all bits for one signature,
    /// which holds on every target).
    pub fn bind_targets(&self, name: &'static str, signatures: &[&str])
                        -> Result<(Function, u32), Error> {
        let f = self.bind(name, signatures)?;
        if signatures.len() == 1 {
            return Ok((f, u32::MAX));
        }
        let (_, signature) = self.function(self.lookup(name)?)?;
        let mut mask = 0;
        for (k, s) in signatures.iter().enumerate() {
            if s.as_bytes() == signature {
                mask |= 1 << k;
            }
        }
        Ok((f, mask))
    }

    /// Runs a module's open function (`nccc_M_open`, generated beside the
    /// wrappers): it adds the module unless it is present.
    pub fn open(&self, open: RawFn, module: &'static str) -> Result<(), Error> {
        let mut out = [0u64; 1];
        // SAFETY: a generated open function reads nothing and writes out[0].
        unsafe { open([0u64].as_ptr(), out.as_mut_ptr()) };
        if out[0] as u32 != abi::OK {
            return Err(self.error(out[0] as u32, module));
        }
        Ok(())
    }

    /// The C string at `ptr` (`None` for NULL), read with the runtime's
    /// `strlen` and `read` built-ins, as any host reads C memory. Errors:
    /// not UTF-8, or (without `alloc`) longer than 256 bytes.
    pub fn string_at(&self, ptr: Ptr) -> Result<Option<String>, Error> {
        if ptr.is_null() {
            return Ok(None);
        }
        let mut len = [0u64; 2];
        self.run(abi::STRLEN, &[ptr.to_slot()], &mut len)?;
        let mut out = String::new();
        let mut chunk = [0u64; 33];
        let mut bytes = [0u8; 256];
        let mut done = 0;
        let mut pending = 0;
        while done < len[1] as usize {
            let n = (len[1] as usize - done).min(256);
            self.run(abi::READ, &[(ptr.addr() + done) as u64, n as u64], &mut chunk)?;
            for (k, b) in slot_bytes(&chunk[1..]).iter().take(n).enumerate() {
                bytes[pending + k] = *b;
            }
            let valid = match core::str::from_utf8(&bytes[..pending + n]) {
                Ok(text) => text.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => return Err(Error::new(ErrorKind::Text, "read", "a C string that is not UTF-8")),
            };
            // SAFETY: from_utf8 accepted the first `valid` bytes.
            push_str(&mut out, unsafe { core::str::from_utf8_unchecked(&bytes[..valid]) })?;
            bytes.copy_within(valid..pending + n, 0);
            pending = pending + n - valid;
            done += n;
        }
        if pending != 0 {
            return Err(Error::new(ErrorKind::Text, "read", "a C string that is not UTF-8"));
        }
        Ok(Some(out))
    }

    /// The index of a module.
    pub fn module(&self, name: &str) -> Result<u16, Error> {
        let mut out = [0u64; 2];
        with_c_str(name, |p| self.run(abi::MODULE_FIND, &[p as u64], &mut out))??;
        Ok(out[1] as u16)
    }

    /// The entry called `name` among module `m`'s types or constants and
    /// its index: `count_at`, where module_info gives how many there are;
    /// `entry`, the built-in that reads entry k (its name in `out[1]`).
    fn named_entry<const N: usize>(&self, m: u16, count_at: usize, entry: Builtin,
                                   name: &str) -> Result<Option<(u16, [u64; N])>, Error> {
        let mut info = [0u64; 5];
        self.run(abi::MODULE_INFO, &[m as u64], &mut info)?;
        for k in 0..info[count_at] as u16 {
            let mut out = [0u64; N];
            self.run(entry, &[m as u64, k as u64], &mut out)?;
            // SAFETY: the entry's name is a static string of the module.
            if unsafe { c_bytes(out[1] as usize) } == name.as_bytes() {
                return Ok(Some((k, out)));
            }
        }
        Ok(None)
    }

    /// The layout of type `name` of a module.
    pub fn layout(&self, module: &str, name: &str) -> Result<Layout, Error> {
        let m = self.module(module)?;
        match self.named_entry::<6>(m, 3, abi::MODULE_TYPE, name)? {
            Some((t, out)) => Ok(Layout { module: m, index: t, size: out[2] as usize,
                                          align: out[3] as usize, kind: out[4],
                                          n_fields: out[5] as usize }),
            None => Err(Error::new(ErrorKind::Unknown, "module_type", "no such type")),
        }
    }

    /// Field `k` of a layout.
    pub fn field(&self, layout: &Layout, k: usize) -> Result<LayoutField<'_>, Error> {
        let mut out = [0u64; 6];
        self.run(abi::MODULE_FIELD, &[layout.module as u64, layout.index as u64, k as u64],
                 &mut out)?;
        // SAFETY: name and code are static strings of the module's table.
        let (name, code) = unsafe { (c_bytes(out[1] as usize), c_bytes(out[2] as usize)) };
        Ok(LayoutField { name, code, offset: out[3] as usize, size: out[4] as usize,
                         count: out[5] as usize })
    }

    /// The value of constant `name` of a module, converted from its slot.
    pub fn constant<T: Value>(&self, module: &str, name: &str) -> Result<T, Error> {
        let m = self.module(module)?;
        match self.named_entry::<4>(m, 4, abi::MODULE_CONSTANT, name)? {
            Some((_, out)) => Ok(T::from_slot(out[3])),
            None => Err(Error::new(ErrorKind::Unknown, "module_constant", "no such constant")),
        }
    }
}

impl Runtime<'_> {
    /// Ends the C runtime (what dropping the `Runtime` does last, lib.rs):
    /// re-initialised onto its static block, it holds nothing of the
    /// caller's pool, and a new `Runtime` may start.
    pub(crate) fn end(&mut self) {
        // SAFETY: re-initialising onto the static block drops every
        // reference the C runtime held into the caller's pool.
        unsafe { nccc_init(core::ptr::null_mut(), 0) };
        ACTIVE.store(false, Ordering::Release);
    }
}

/// A built-in by its entry in the ABI table: the root needs no `Runtime`.
fn builtin(b: Builtin) -> Result<Function, Error> {
    let mut out = [0u64; 4];
    // SAFETY: the root reads in[0] and writes out[0..4].
    unsafe { nccc_root([b.index].as_ptr(), out.as_mut_ptr()) };
    if out[0] as u32 != abi::OK {
        return Err(Error::status(out[0] as u32, b.name, b""));
    }
    // SAFETY: out[1] is the built-in's address, an nccc function, and
    // the signature out[3] is a static string of the runtime.
    unsafe {
        let raw: RawFn = core::mem::transmute(out[1] as usize);
        let (n_in, n_out) = counts(c_bytes(out[3] as usize));
        Ok(Function::from_raw(raw, n_in, n_out))
    }
}

/// Runs a built-in whose out side starts with its status, without a
/// `Runtime` (what an `Owned`'s drop needs); the status when not OK.
#[cfg(feature = "alloc")]
pub(crate) fn run_builtin(b: Builtin, input: &[u64], output: &mut [u64]) -> Result<(), u32> {
    let f = builtin(b).map_err(|e| e.status)?;
    f.call(input, output);
    match output[0] as u32 {
        abi::OK => Ok(()),
        status => Err(status),
    }
}

/// The fixed slot counts of a built-in's signature (docs/ABI.md,
/// "Signature strings"): (in, out); the built-ins take no records.
fn counts(signature: &[u8]) -> (usize, usize) {
    let mut sides = [0usize; 2];
    let mut side = 0;
    for &c in signature {
        match c {
            abi::SIG_SEPARATOR => side = 1,
            abi::SIG_VARIADIC => {}
            _ => sides[side] += 1,
        }
    }
    (sides[0], sides[1])
}
