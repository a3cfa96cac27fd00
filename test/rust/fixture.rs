//! The shared host fixture for the Rust tests: the generated modules
//! `tour`, `hcb` and `cdata` (which the cases of the C objects bind
//! themselves), and `with_fixture`, which gives a test a fresh
//! runtime (its registry in a pool on the heap) with the fixture's modules
//! and globals added and both modules bound. The runtime is one per
//! process: tests take turns through a lock.

use std::cell::Cell;
use std::sync::Mutex;

use nccc::{Error, Runtime};

// `#[path = "GENERATED/tour.rs"] pub mod tour;`, the same for hcb and
// cdata, and
// the cases refused at compile time (GENERATED/refusals.rs), all
// written by build.rs (a path attribute takes no macro)
include!(concat!(env!("OUT_DIR"), "/modules.rs"));

extern "C" {
    fn nccc_fixture_open(input: *const u64, output: *mut u64);
}

static TURN: Mutex<()> = Mutex::new(());

thread_local! {
    /// The address of the runtime of the test running on this thread
    /// (0 between tests): what `cases::with_runtime` gives a callback.
    static RUNNING: Cell<usize> = const { Cell::new(0) };
}

/// Clears RUNNING when the test ends, even by a panic.
struct Running;

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(0));
    }
}

const POOL_BYTES: usize = 64 * 1024;

/// Runs `test` with a fresh runtime and both modules bound.
pub fn with_fixture<R>(test: impl FnOnce(&Runtime<'_>, &tour::Module<'_>, &hcb::Module<'_>) -> R) -> R {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut pool = vec![0u8; POOL_BYTES];
    let rt = Runtime::new(&mut pool).expect("the runtime starts");
    open_fixture(&rt).expect("the fixture opens");
    let t = tour::Module::bind(&rt).expect("tour binds");
    let h = hcb::Module::bind(&rt).expect("hcb binds");
    RUNNING.with(|r| r.set(&rt as *const Runtime<'_> as usize));
    let _running = Running;
    test(&rt, &t, &h)
}

fn open_fixture(rt: &Runtime<'_>) -> Result<(), Error> {
    rt.open(nccc_fixture_open, "fixture")
}

/// What the converted cases (tests/cases.rs) share: comparing and making
/// the values of dynamic calls, the behaviours of dynamic closures.
pub mod cases {
    pub use nccc::Dyn;
    use nccc::Ptr;

    /// Equal as the case table compares: floats by their bits.
    pub fn same(got: &Dyn, want: &Dyn) -> bool {
        match (got, want) {
            (Dyn::Float(a), Dyn::Float(b)) => a.to_bits() == b.to_bits(),
            (Dyn::Float(a), Dyn::Int(b)) => *a == *b as f64,
            (Dyn::Ptr(p), Dyn::Int(0)) | (Dyn::Ptr(p), Dyn::Null) => p.is_null(),
            (Dyn::Null, Dyn::Int(0)) => true,
            (Dyn::Struct(fields), Dyn::Struct(wanted)) => wanted.iter().all(|(name, w)| {
                fields.iter().any(|(n, g)| n == name && same(g, w))
            }),
            _ => got == want,
        }
    }

    /// The behaviour "sum": the arguments added (floats if any is one).
    pub fn sum(args: &[Dyn]) -> Dyn {
        if args.iter().any(|a| matches!(a, Dyn::Float(_))) {
            return Dyn::Float(args.iter().map(|a| match a {
                Dyn::Float(x) => *x,
                Dyn::Int(n) => *n as f64,
                _ => 0.0,
            }).sum());
        }
        Dyn::Int(args.iter().map(|a| if let Dyn::Int(n) = a { *n } else { 0 }).sum())
    }

    /// The behaviour "double".
    pub fn double(arg: &Dyn) -> Dyn {
        match arg {
            Dyn::Float(x) => Dyn::Float(2.0 * x),
            Dyn::Int(n) => Dyn::Int(2 * n),
            other => other.clone(),
        }
    }

    /// An argument as the typed closures record it (`{:?}` of the value).
    pub fn show(arg: &Dyn) -> String {
        match arg {
            Dyn::Int(n) => format!("{}", n),
            Dyn::Float(x) => format!("{:?}", x),
            Dyn::Bool(b) => format!("{}", b),
            Dyn::Str(s) => format!("{:?}", s),
            other => format!("{:?}", other),
        }
    }

    /// TVM's type codes of packed values (TVM's ABI, not nccc's): what
    /// tvm.call_global takes beside each value and gives with its result.
    const K_DL_INT: i128 = 0;
    const K_DL_FLOAT: i128 = 2;
    const K_TVM_NULLPTR: i128 = 4;
    const K_TVM_STR: i128 = 11;

    /// Calls the global packed function `name` through tvm.call_global: an
    /// integer goes as kDLInt, a float as kDLFloat, a string as kTVMStr,
    /// NULL as kTVMNullptr; the result comes back by its type code (none
    /// for kTVMNullptr). A non-zero status is an error of kind Status with
    /// the runtime's message.
    pub fn packed(rt: &nccc::Runtime<'_>, name: &str, args: &[Dyn]) -> Result<Vec<Dyn>, nccc::Error> {
        let mut slots = vec![Dyn::Str(name.into()), Dyn::Int(args.len() as i128)];
        for a in args {
            let (code, value) = match a {
                Dyn::Int(n) => (K_DL_INT, Dyn::Int(*n as i64 as u64 as i128)),
                Dyn::Float(x) => (K_DL_FLOAT, Dyn::Int(x.to_bits() as i128)),
                Dyn::Str(_) => (K_TVM_STR, a.clone()),
                _ => (K_TVM_NULLPTR, Dyn::Int(0)),
            };
            slots.push(Dyn::Int(code));
            slots.push(value);
        }
        let out = rt.call_dynamic("tvm.call_global", &slots)?;
        let status = match out[0] { Dyn::Int(s) => s as u32, _ => 0 };
        if status != 0 {
            let mut e = rt.error(status, "tvm.call_global");
            e.kind = nccc::ErrorKind::Status;
            return Err(e);
        }
        let raw = match out[2] { Dyn::Int(v) => v as u64, _ => 0 };
        Ok(match out[1] {
            Dyn::Int(K_DL_INT) => vec![Dyn::Int(raw as i64 as i128)],
            Dyn::Int(K_DL_FLOAT) => vec![Dyn::Float(f64::from_bits(raw))],
            _ => vec![],
        })
    }

    /// Runs `f` with the runtime of the test running on this thread: how
    /// a boxed callback, which cannot borrow it, makes its own calls and
    /// releases closures (its own too) while C calls it.
    pub fn with_runtime<R>(f: impl FnOnce(&nccc::Runtime<'_>) -> R) -> R {
        let at = super::RUNNING.with(|r| r.get());
        assert!(at != 0, "no test is running on this thread");
        // SAFETY: `at` is the address of the runtime with_fixture made,
        // set while its test runs and cleared (by Running) before the
        // runtime is dropped; callbacks run on the test's thread, inside
        // its calls.
        f(unsafe { &*(at as *const nccc::Runtime<'static>) })
    }

    /// The pointer a dynamic value holds (NULL for anything else).
    pub fn dyn_ptr(v: &Dyn) -> Ptr {
        match v {
            Dyn::Ptr(p) => *p,
            _ => Ptr::NULL,
        }
    }
}
