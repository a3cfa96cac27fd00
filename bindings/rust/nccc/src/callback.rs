//! Callbacks: Rust closures called from C through the one dispatcher
//! (docs/CALLBACKS.md, "The dispatcher protocol").
//!
//! Every closure is an `Entry`: a slot-level `FnMut(&[u64], &mut [u64])`
//! (the generated module converts the typed closure's arguments and
//! results around it) with the slot counts of its callback type. The
//! address of the entry is the closure's environment word, and the
//! dispatcher `dispatch` is the target of every claim. Claims are typed
//! (the callback's signature) and bound to the claiming thread, with
//! release notices:
//!
//! - call scope: the entry lives on the caller's stack; `CallClaim` keeps
//!   it borrowed until the claim is released (by the forward wrapper at
//!   the end of the C call, or by `CallClaim`'s drop when it was not);
//! - async, notified, forever (feature `alloc`): the entry and its boxed
//!   closure are on the heap, dropped by the release notice.
//!
//! A closure running when C calls it again (re-entered) is not run a
//! second time: its results are 0. A panic in a closure is caught (feature
//! `std`) and reported by the forward call that led to it; without `std`
//! it aborts the process, as unwinding into C would be undefined.

use core::cell::Cell;
use core::marker::PhantomData;

use crate::abi;
use crate::error::{Error, ErrorKind};
use crate::ffi::RawFn;
use crate::runtime::Runtime;

type SlotFn<'a> = dyn FnMut(&[u64], &mut [u64]) + 'a;

/// One closure's state, at the address C's context resolves to.
pub struct Entry<'a> {
    run: *mut SlotFn<'a>,
    n_in: usize,
    n_out: usize,
    busy: Cell<bool>,
    claimed: Cell<bool>,
    heap: bool,
    _borrow: PhantomData<&'a mut SlotFn<'a>>,
}

impl<'a> Entry<'a> {
    /// A call-scoped entry over `run`, for a callback type taking `n_in`
    /// slots (after the environment word) and giving `n_out`.
    pub fn new(run: &'a mut SlotFn<'a>, n_in: usize, n_out: usize) -> Entry<'a> {
        Entry { run, n_in, n_out, busy: Cell::new(false), claimed: Cell::new(false),
                heap: false, _borrow: PhantomData }
    }

    fn env(&self) -> u64 {
        self as *const Entry<'a> as usize as u64
    }
}

/// A member of a claim: an entry and its callback type's signature, a
/// string ending in NUL (`"ii:i\0"`).
pub type Member<'e, 'a> = (&'e Entry<'a>, &'static str);

/// The claim of call-scoped closures for one forward call: `context` goes
/// in the closure slot. Dropping it releases the claim unless C did.
pub struct CallClaim<'r, 'e, 'a> {
    rt: &'r Runtime<'r>,
    pub context: u64,
    members: &'e [Member<'e, 'a>],
}

impl Drop for CallClaim<'_, '_, '_> {
    fn drop(&mut self) {
        if self.members.iter().any(|(e, _)| e.claimed.get()) {
            // a release of a claim C released already is refused: either
            // way no notice can reach the entries afterwards
            let _ = self.rt.run(abi::CLOSURE_RELEASE, &[self.context], &mut [0]);
        }
        for (e, _) in self.members {
            e.claimed.set(false);
        }
    }
}

/// Claims call-scoped closures (one, or a group sharing one context whose
/// member `k` is `members[k]`).
pub fn claim_call<'r, 'e, 'a>(rt: &'r Runtime<'r>, members: &'e [Member<'e, 'a>])
                              -> Result<CallClaim<'r, 'e, 'a>, Error> {
    let context = claim(rt, abi::SCOPE_CALL, 0, members.iter().map(|(e, s)| (e.env(), *s)),
                        members.len())?;
    for (e, _) in members {
        e.claimed.set(true);
    }
    Ok(CallClaim { rt, context, members })
}

fn claim<'s>(rt: &Runtime<'_>, scope: u64, final_member: usize,
             members: impl Iterator<Item = (u64, &'s str)>, n: usize) -> Result<u64, Error> {
    let flags = scope | abi::CLOSURE_NOTIFY | abi::CLOSURE_THREAD;
    let target = dispatch as RawFn as usize as u64;
    let mut slots = [0u64; 3 + 3 * MAX_MEMBERS];
    if n == 0 || n > MAX_MEMBERS {
        return Err(Error::new(ErrorKind::Count, "closure_claim_group_typed",
                              "a claim has 1 to 8 members"));
    }
    slots[..3].copy_from_slice(&[flags, final_member as u64, n as u64]);
    for (k, (env, signature)) in members.enumerate() {
        if !signature.ends_with('\0') {
            return Err(Error::new(ErrorKind::Text, "closure_claim_group_typed",
                                  "a callback signature must end in NUL"));
        }
        let at = 3 + 3 * k;
        slots[at..at + 3].copy_from_slice(&[target, env, signature.as_ptr() as usize as u64]);
    }
    let mut out = [0u64; 2];
    rt.run(abi::CLOSURE_CLAIM_GROUP_TYPED, &slots[..3 + 3 * n], &mut out)?;
    Ok(out[1])
}

const MAX_MEMBERS: usize = 8;

/// A closure of a heap scope (async, notified, forever): its context. It
/// stays valid until the closure is released, by C or by `release`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "a forever closure lives until it is released"]
pub struct Closure {
    pub context: u64,
    /// The scope it was claimed with (0 when unknown: a context from C).
    pub scope: u64,
    /// A fingerprint of each member's callback signature (0 past the last
    /// member; all 0 when unknown: a context from C).
    types: [u32; MAX_MEMBERS],
}

/// A fingerprint of a callback signature (FNV-1a of its text, never 0):
/// what `Closure::made_for` compares.
fn fingerprint(signature: &str) -> u32 {
    let text = signature.strip_suffix('\0').unwrap_or(signature);
    text.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193)) | 1
}

impl Closure {
    /// A closure C gave (its callback types unknown).
    #[cfg(feature = "alloc")]
    pub(crate) fn from_c(context: u64) -> Closure {
        Closure { context, scope: 0, types: [0; MAX_MEMBERS] }
    }

    /// Whether it was made for callbacks of `signatures` (member k for
    /// `signatures[k]`, as "ii:i"); a closure from C, whose callback types
    /// the crate does not know, is taken as made for any.
    pub fn made_for(&self, signatures: &[&str]) -> bool {
        self.types[0] == 0 || (signatures.len() <= MAX_MEMBERS && self.types.iter().enumerate()
            .all(|(k, t)| *t == signatures.get(k).map_or(0, |s| fingerprint(s))))
    }

    /// Releases the closure now (its boxed closures are dropped): `true`
    /// when it was live, `false` when it was released already.
    pub fn release(self, rt: &Runtime<'_>) -> Result<bool, Error> {
        match rt.run(abi::CLOSURE_RELEASE, &[self.context], &mut [0]) {
            Ok(()) => Ok(true),
            Err(e) if e.status == abi::ERR_STALE_CLOSURE => {
                rt.clear_error()?;
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }
}

/// A boxed slot-level closure of a heap scope: the closure, its slot
/// counts and its callback type's signature (ending in NUL).
#[cfg(feature = "alloc")]
pub type Callback = (alloc::boxed::Box<dyn FnMut(&[u64], &mut [u64]) + Send>, usize, usize,
                     &'static str);

/// Without `alloc` there are no heap-scoped callbacks.
#[cfg(not(feature = "alloc"))]
pub type Callback = core::convert::Infallible;

/// Claims boxed closures with a heap scope (`abi::SCOPE_ASYNC`,
/// `SCOPE_NOTIFIED`, `SCOPE_FOREVER`); for an async group, `final_member`
/// ends it. Each box is dropped by its release notice.
#[cfg(feature = "alloc")]
pub fn claim_boxed<const N: usize>(rt: &Runtime<'_>, scope: u64, final_member: usize,
                                   members: [(alloc::boxed::Box<dyn FnMut(&[u64], &mut [u64]) + Send>,
                                              usize, usize, &str); N]) -> Result<Closure, Error> {
    claim_boxed_all(rt, scope, final_member, members.into_iter().collect())
}

/// The same for any number of members (at most 8).
#[cfg(feature = "alloc")]
pub fn claim_boxed_all(rt: &Runtime<'_>, scope: u64, final_member: usize,
                       members: alloc::vec::Vec<(alloc::boxed::Box<dyn FnMut(&[u64], &mut [u64]) + Send>,
                                                 usize, usize, &str)>) -> Result<Closure, Error> {
    use alloc::boxed::Box;
    let n = members.len();
    let mut types = [0u32; MAX_MEMBERS];
    for (t, (_, _, _, signature)) in types.iter_mut().zip(members.iter()) {
        *t = fingerprint(signature);
    }
    let mut envs = alloc::vec::Vec::with_capacity(n);
    for (run, n_in, n_out, signature) in members {
        let run: *mut SlotFn<'static> = Box::into_raw(run);
        let entry = Box::new(Entry { run, n_in, n_out, busy: Cell::new(false),
                                     claimed: Cell::new(true), heap: true,
                                     _borrow: PhantomData });
        envs.push((Box::into_raw(entry) as usize as u64, signature));
    }
    claim(rt, scope, final_member, envs.iter().copied(), n).map(|context| Closure { context, scope, types })
        .map_err(|e| {
            for (env, _) in envs {
                // SAFETY: the claim failed, so no closure refers to the
                // entries made above: they are freed here, once.
                unsafe { free_heap(env as usize as *mut Entry<'static>) };
            }
            e
        })
}

/// A closure for C to call for the rest of the process (a packed
/// function: TVM's registry sends no notice when a name stops being
/// used): its environment word and the dispatcher's address.
#[cfg(feature = "alloc")]
pub(crate) fn leak_entry(run: alloc::boxed::Box<dyn FnMut(&[u64], &mut [u64]) + Send>,
                         n_in: usize, n_out: usize) -> (u64, u64) {
    let run: *mut SlotFn<'static> = alloc::boxed::Box::into_raw(run);
    let entry = alloc::boxed::Box::new(Entry { run, n_in, n_out, busy: Cell::new(false),
                                               claimed: Cell::new(true), heap: true,
                                               _borrow: PhantomData });
    (alloc::boxed::Box::into_raw(entry) as usize as u64, dispatch as RawFn as usize as u64)
}

/// Frees an entry of leak_entry that C never received.
///
/// # Safety
/// `env` came from leak_entry, and no C code holds it.
#[cfg(feature = "alloc")]
pub(crate) unsafe fn free_entry(env: u64) {
    // SAFETY: the caller's promise: nothing refers to the entry.
    unsafe { free_heap(env as usize as *mut Entry<'static>) }
}

#[cfg(feature = "alloc")]
unsafe fn free_heap(entry: *mut Entry<'static>) {
    // SAFETY: (the caller's) entry and its closure came from Box::into_raw
    // in claim_boxed and nothing refers to them any more.
    unsafe {
        let entry = alloc::boxed::Box::from_raw(entry);
        drop(alloc::boxed::Box::from_raw(entry.run));
    }
}

#[cfg(not(feature = "alloc"))]
unsafe fn free_heap(_: *mut Entry<'static>) {}

/// The one dispatcher: the target of every closure this crate claims.
/// `in[0]` is the entry's address; `out == NULL` is a release notice.
unsafe extern "C" fn dispatch(input: *const u64, output: *mut u64) {
    // SAFETY: the runtime calls the target with in[0] = the environment
    // word this crate claimed the closure with: the address of an Entry
    // that lives until the release notice (call scope: CallClaim keeps
    // it borrowed; heap: freed only by that notice).
    let entry = unsafe { &*(*input as usize as *const Entry<'static>) };
    if output.is_null() {
        // SAFETY: a notice for the entry, which the runtime sends last.
        return unsafe { notice(entry) };
    }
    // SAFETY: in[1..] holds the callback type's n_in slots and out its
    // n_out (the backward wrapper sized them by the same signature, which
    // the claim recorded and the runtime checked).
    let (args, results) = unsafe {
        (core::slice::from_raw_parts(input.add(1), entry.n_in),
         core::slice::from_raw_parts_mut(output, entry.n_out))
    };
    if entry.busy.replace(true) {
        return zero(results);
    }
    // SAFETY: not busy, so no other call holds the closure: this is its
    // only use until busy is cleared below.
    let run = unsafe { &mut *entry.run };
    run_caught(run, args, results);
    entry.busy.set(false);
    if entry.heap && !entry.claimed.get() {
        // SAFETY: the release notice came during the call (the callback
        // released its closure, or C's destroy notify did) and left the
        // entry to this call: nothing reaches it again.
        unsafe { free_heap(entry as *const Entry<'static> as *mut Entry<'static>) };
    }
}

// The rare paths of dispatch, out of line: its common one then keeps few
// registers and no frame for them.

/// A release notice: the claim is over; a heap entry is freed, at once
/// or, when the notice comes during the entry's own call, by that call
/// once its results are written (docs/CALLBACKS.md, "Release inside a
/// callback").
///
/// # Safety
/// The runtime sends no other call or notice for the entry afterwards.
#[cold]
#[inline(never)]
unsafe fn notice(entry: &Entry<'static>) {
    entry.claimed.set(false);
    if entry.heap && !entry.busy.get() {
        // SAFETY: the caller's promise: nothing reaches the entry again.
        unsafe { free_heap(entry as *const Entry<'static> as *mut Entry<'static>) };
    }
}

/// The results of a callback that does not run (re-entered, panicked).
#[cold]
#[inline(never)]
fn zero(results: &mut [u64]) {
    for r in results.iter_mut() {
        *r = 0;
    }
}

#[cfg(feature = "std")]
#[inline(always)]
fn run_caught(run: &mut SlotFn<'_>, args: &[u64], results: &mut [u64]) {
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(args, results)));
    if let Err(payload) = caught {
        zero(results);
        record_panic(payload);
    }
}

/// Keeps the panic of a callback for the forward call to report.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn record_panic(payload: std::boxed::Box<dyn core::any::Any + Send>) {
    let text = payload.downcast_ref::<&str>().copied()
        .or_else(|| payload.downcast_ref::<std::string::String>().map(|s| s.as_str()))
        .unwrap_or("a callback panicked");
    PANICS.with(|p| {
        let (count, first) = p.get();
        if count == 0 {
            PENDING.fetch_add(1, core::sync::atomic::Ordering::SeqCst);
        }
        p.set((count + 1, first.or_else(|| Some(Error::new(ErrorKind::Panic, "", text)))));
    });
}

#[cfg(not(feature = "std"))]
fn run_caught(run: &mut SlotFn<'_>, args: &[u64], results: &mut [u64]) {
    struct AbortOnUnwind;
    impl Drop for AbortOnUnwind {
        fn drop(&mut self) {
            // only reached while unwinding: a second panic aborts
            panic!("nccc: a callback panicked without the std feature; aborting");
        }
    }
    let guard = AbortOnUnwind;
    run(args, results);
    core::mem::forget(guard);
}

#[cfg(feature = "std")]
std::thread_local! {
    static PANICS: Cell<(usize, Option<Error>)> = Cell::new((0, None));
}

/// How many threads have a caught panic not yet reported: lets every
/// forward call skip the thread-local check with one load.
#[cfg(feature = "std")]
static PENDING: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// After a forward call: the first panic of a callback since the last
/// check on this thread, as the call's error ("boom (and 2 more)").
#[inline(always)]
pub fn take_panic(function: &'static str) -> Result<(), Error> {
    #[cfg(feature = "std")]
    if PENDING.load(core::sync::atomic::Ordering::Relaxed) != 0 {
        return report_panic(function);
    }
    let _ = function;
    Ok(())
}

/// The slow path of take_panic, out of line so that the forward calls stay
/// small.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn report_panic(function: &'static str) -> Result<(), Error> {
    let (count, first) = PANICS.with(|p| p.replace((0, None)));
    if let Some(mut e) = first {
        PENDING.fetch_sub(1, core::sync::atomic::Ordering::SeqCst);
        e.function = function;
        if count > 1 {
            let mut digits = [0u8; 20];
            e.append(b" (and ");
            e.append(decimal(count - 1, &mut digits));
            e.append(b" more)");
        }
        return Err(e);
    }
    Ok(())
}

#[cfg(feature = "std")]
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// A string argument of a callback (what C passed in its slot), for the
/// duration of the callback; NULL and text that is not UTF-8 read as "".
pub fn str_arg<'a>(slot: u64) -> &'a str {
    // SAFETY: a callback's string argument is NULL or a NUL-terminated
    // string its C caller keeps for the call, which outlives this borrow
    // in the generated closure (it is only passed to the user's closure).
    let bytes = unsafe { crate::text::c_bytes(slot as usize) };
    core::str::from_utf8(bytes).unwrap_or("")
}

/// An array argument of a callback: `n` elements of `T` at `slot` (what
/// C passed for a `[length=n]` pointer), for the duration of the callback;
/// NULL reads as empty.
pub fn slice_arg<'a, T: crate::slot::Plain>(slot: u64, n: u64) -> &'a [T] {
    if slot == 0 || n == 0 {
        return &[];
    }
    // SAFETY: C passes n elements of the IDL's element type at the
    // address, kept for the call; T is that type's Rust spelling (same
    // size and alignment, checked by the layout of its module or
    // primitive), and any bit pattern is a valid T (Plain).
    unsafe { core::slice::from_raw_parts(slot as usize as *const T, n as usize) }
}

/// A buffer a callback fills (`[out, length=n]` on a callback
/// parameter): `n` elements of `T` at `slot` to write, for the duration
/// of the callback; what the callback writes is what C reads after it
/// returns. NULL reads as empty.
pub fn slice_arg_mut<'a, T: crate::slot::Plain>(slot: u64, n: u64) -> &'a mut [T] {
    if slot == 0 || n == 0 {
        return &mut [];
    }
    // SAFETY: as slice_arg's; C hands the buffer to this callback alone
    // to write, and it is not read until the callback returns.
    unsafe { core::slice::from_raw_parts_mut(slot as usize as *mut T, n as usize) }
}

/// A `[zero_terminated]` array of C strings a callback receives (what C
/// passed, up to its NULL), for the duration of the callback: iterate it
/// for each string as `&str` ("" for text that is not UTF-8). NULL reads
/// as empty. `Debug` prints it as a list.
#[derive(Clone, Copy)]
pub struct StrArray<'a> {
    at: usize,
    _call: PhantomData<&'a str>,
}

impl<'a> StrArray<'a> {
    /// The array at `slot` (what C passed).
    pub fn arg(slot: u64) -> StrArray<'a> {
        StrArray { at: slot as usize, _call: PhantomData }
    }

    /// The strings, in order, up to the NULL.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + 'a {
        let at = self.at;
        (0..).map(move |k| {
            if at == 0 {
                return 0;
            }
            // SAFETY: C passes an array of string pointers ending in
            // NULL, kept for the call; k stops at the first NULL (below).
            unsafe { *(at as *const usize).add(k) }
        }).take_while(|&p| p != 0).map(|p| str_arg(p as u64))
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl core::fmt::Debug for StrArray<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The runtime's closure counters (`closure_stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub capacity: u64,
    pub in_use: u64,
    pub stale_calls: u64,
    pub type_mismatches: u64,
    pub wrong_thread: u64,
}

impl Runtime<'_> {
    /// The closure counters.
    pub fn closure_stats(&self) -> Result<Stats, Error> {
        let mut out = [0u64; 6];
        self.run(abi::CLOSURE_STATS, &[], &mut out)?;
        Ok(Stats { capacity: out[1], in_use: out[2], stale_calls: out[3],
                   type_mismatches: out[4], wrong_thread: out[5] })
    }
}
