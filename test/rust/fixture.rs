//! The shared host fixture for the Rust tests: the generated modules
//! `tour` and `hcb`, and `with_fixture`, which gives a test a fresh
//! runtime (its registry in a pool on the heap) with the fixture's modules
//! and globals added and both modules bound. The runtime is one per
//! process: tests take turns through a lock.

use std::sync::Mutex;

use nccc::{Error, Runtime};

// `#[path = "GENERATED/tour.rs"] pub mod tour;` and the same for hcb,
// written by build.rs (a path attribute takes no macro)
include!(concat!(env!("OUT_DIR"), "/modules.rs"));

extern "C" {
    fn nccc_fixture_open(input: *const u64, output: *mut u64);
}

static TURN: Mutex<()> = Mutex::new(());

const POOL_BYTES: usize = 64 * 1024;

/// Runs `test` with a fresh runtime and both modules bound.
pub fn with_fixture<R>(test: impl FnOnce(&Runtime<'_>, &tour::Module<'_>, &hcb::Module<'_>) -> R) -> R {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut pool = vec![0u8; POOL_BYTES];
    let rt = Runtime::new(&mut pool).expect("the runtime starts");
    open_fixture(&rt).expect("the fixture opens");
    let t = tour::Module::bind(&rt).expect("tour binds");
    let h = hcb::Module::bind(&rt).expect("hcb binds");
    test(&rt, &t, &h)
}

fn open_fixture(rt: &Runtime<'_>) -> Result<(), Error> {
    rt.open(nccc_fixture_open, "fixture")
}
