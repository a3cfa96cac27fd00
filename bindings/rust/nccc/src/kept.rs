//! What the library keeps after a call (`[kept=OWNER]`, IDL.md; feature
//! `alloc`): a generated method takes such a buffer or string as a value
//! it owns (`nccc::Vec<T>`; a string is copied with its NUL), and hands it
//! here after C returns. It is dropped when a later call keeps another for
//! the same owner and argument, when the owner is freed (a `CObject`'s
//! `free` or drop, an `Owned`'s close or drop), or when the `Runtime` is
//! dropped: until then C may read it.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;

use crate::error::{Error, ErrorKind};
use crate::lock::SpinLock;

struct Kept {
    owner: usize,
    arg: usize,
    value: Box<dyn Any + Send>,
}

static KEPT: SpinLock<Vec<Kept>> = SpinLock::new(Vec::new());

/// Holds `value`, which C keeps as argument `arg` (its position) of a call
/// on `owner` (its address), dropping what an earlier call kept there.
pub fn keep(owner: usize, arg: usize, value: Box<dyn Any + Send>) {
    let replaced = KEPT.with(|kept| match kept.iter_mut().find(|k| k.owner == owner && k.arg == arg) {
        Some(k) => Some(core::mem::replace(&mut k.value, value)),
        None => {
            kept.push(Kept { owner, arg, value });
            None
        }
    });
    drop(replaced); // outside the lock
}

/// Drops what C kept for `owner`: the owner is freed.
pub fn release(owner: usize) {
    let gone: Vec<Kept> = KEPT.with(|kept| {
        let (gone, rest) = core::mem::take(kept).into_iter().partition(|k| k.owner == owner);
        *kept = rest;
        gone
    });
    drop(gone);
}

/// Drops everything C kept (the `Runtime` ends).
pub(crate) fn release_all() {
    drop(KEPT.with(core::mem::take));
}

/// How many owners' arguments are held now (for tests of the above).
pub fn count() -> usize {
    KEPT.with(|kept| kept.len())
}

/// `text` with a NUL after it, for C to keep. Errors: a NUL inside (kind
/// `Text`).
pub fn c_string(text: &str) -> Result<Vec<u8>, Error> {
    if text.as_bytes().contains(&0) {
        return Err(Error::new(ErrorKind::Text, "", "a string with a NUL inside"));
    }
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    Ok(bytes)
}
