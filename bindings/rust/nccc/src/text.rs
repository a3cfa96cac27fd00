//! Strings across the boundary: a Rust `&str` lent to C as a
//! NUL-terminated copy for one call, and a C string copied back into a
//! `nccc::String` (`alloc::string::String` with the `alloc` feature, a
//! fixed buffer of 256 bytes without it).

#[cfg(not(feature = "alloc"))]
use core::ops::Deref;

use crate::error::{Error, ErrorKind};

const STACK_BYTES: usize = 256;

/// Runs `f` with the address of a NUL-terminated copy of `text` (on the
/// stack when it fits in 256 bytes, else on the heap with `alloc`).
/// Errors: a NUL byte inside `text` (`ErrorKind::Text`), or a text too long
/// for the stack without `alloc`.
pub fn with_c_str<R>(text: &str, f: impl FnOnce(usize) -> R) -> Result<R, Error> {
    let bytes = text.as_bytes();
    if bytes.contains(&0) {
        return Err(Error::new(ErrorKind::Text, "", "a NUL byte inside a string"));
    }
    if bytes.len() < STACK_BYTES {
        let mut buf = [0u8; STACK_BYTES];
        buf[..bytes.len()].copy_from_slice(bytes);
        return Ok(f(buf.as_ptr() as usize));
    }
    heap_c_str(bytes, f)
}

#[cfg(feature = "alloc")]
fn heap_c_str<R>(bytes: &[u8], f: impl FnOnce(usize) -> R) -> Result<R, Error> {
    let mut buf = alloc::vec::Vec::with_capacity(bytes.len() + 1);
    buf.extend_from_slice(bytes);
    buf.push(0);
    Ok(f(buf.as_ptr() as usize))
}

#[cfg(not(feature = "alloc"))]
fn heap_c_str<R>(_: &[u8], _: impl FnOnce(usize) -> R) -> Result<R, Error> {
    Err(Error::new(ErrorKind::Text, "", "a string of 256 bytes or more needs the alloc feature"))
}

/// The bytes of the C string at `addr` (empty for NULL), without its NUL.
///
/// # Safety
/// `addr` is 0 or the address of a NUL-terminated string that stays
/// unchanged for `'a`.
pub(crate) unsafe fn c_bytes<'a>(addr: usize) -> &'a [u8] {
    if addr == 0 {
        return &[];
    }
    let start = addr as *const u8;
    let mut n = 0;
    // SAFETY: the caller promises a NUL-terminated string at addr.
    while unsafe { *start.add(n) } != 0 {
        n += 1;
    }
    // SAFETY: the n bytes before the NUL are readable and unchanged.
    unsafe { core::slice::from_raw_parts(start, n) }
}

/// A string copied out of C.
#[cfg(feature = "alloc")]
pub type String = alloc::string::String;

/// A string copied out of C (without `alloc`: at most 256 bytes).
#[cfg(not(feature = "alloc"))]
#[derive(Clone, Copy)]
pub struct String {
    bytes: [u8; STACK_BYTES],
    len: usize,
}

#[cfg(not(feature = "alloc"))]
impl Default for String {
    fn default() -> String {
        String { bytes: [0; STACK_BYTES], len: 0 }
    }
}

#[cfg(not(feature = "alloc"))]
impl String {
    pub fn new() -> String {
        String::default()
    }
}

#[cfg(not(feature = "alloc"))]
impl Deref for String {
    type Target = str;
    fn deref(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

#[cfg(not(feature = "alloc"))]
impl core::fmt::Debug for String {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.deref(), f)
    }
}

/// Copies the C string at `addr` into a `String`; NULL gives `None`.
/// Errors: not UTF-8 (`ErrorKind::Text`); without `alloc`, longer than
/// 256 bytes.
///
/// # Safety
/// As `c_bytes`: `addr` is 0 or a NUL-terminated string.
pub unsafe fn string_from_c(addr: usize, function: &'static str) -> Result<Option<String>, Error> {
    if addr == 0 {
        return Ok(None);
    }
    // SAFETY: the caller's promise, passed on.
    let bytes = unsafe { c_bytes(addr) };
    let text = core::str::from_utf8(bytes)
        .map_err(|_| Error::new(ErrorKind::Text, function, "a C string that is not UTF-8"))?;
    make_string(text, function).map(Some)
}

/// Appends `text` to `s`. Errors (without `alloc`): past 256 bytes.
pub(crate) fn push_str(s: &mut String, text: &str) -> Result<(), Error> {
    #[cfg(feature = "alloc")]
    s.push_str(text);
    #[cfg(not(feature = "alloc"))]
    {
        if s.len + text.len() > STACK_BYTES {
            return Err(Error::new(ErrorKind::Text, "read",
                                  "a C string over 256 bytes needs the alloc feature"));
        }
        s.bytes[s.len..s.len + text.len()].copy_from_slice(text.as_bytes());
        s.len += text.len();
    }
    Ok(())
}

#[cfg(feature = "alloc")]
fn make_string(text: &str, _: &'static str) -> Result<String, Error> {
    Ok(String::from(text))
}

#[cfg(not(feature = "alloc"))]
fn make_string(text: &str, function: &'static str) -> Result<String, Error> {
    let mut s = String::default();
    push_str(&mut s, text).map_err(|e| e.about(function, 0))?;
    Ok(s)
}
