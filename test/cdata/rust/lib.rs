//! What a Rust test of C objects shares: its generated module (declared
//! by build.rs) and `with_runtime`, which gives a test a fresh runtime.
//! The runtime is one per process: tests take turns through a lock.

use std::sync::Mutex;

use nccc::Runtime;

include!(concat!(env!("OUT_DIR"), "/module.rs"));

static TURN: Mutex<()> = Mutex::new(());

/// Runs `test` with a fresh runtime (its registry in a pool on the heap).
pub fn with_runtime<R>(test: impl FnOnce(&Runtime<'_>) -> R) -> R {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut pool = vec![0u8; 64 * 1024];
    let rt = Runtime::new(&mut pool).expect("the runtime starts");
    test(&rt)
}
