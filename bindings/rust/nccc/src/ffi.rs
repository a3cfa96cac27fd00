//! The C runtime's two symbols the crate links to (`nccc_root`, the one
//! entry point of every built-in, and `nccc_init`), and the type of an
//! nccc function.

/// An nccc function: `void f(const uint64_t *in, uint64_t *out)`.
pub type RawFn = unsafe extern "C" fn(input: *const u64, output: *mut u64);

extern "C" {
    pub(crate) fn nccc_root(input: *const u64, output: *mut u64);
    pub(crate) fn nccc_init(block: *mut u8, size: usize) -> i32;
}
