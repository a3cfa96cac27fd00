//! `Error`: what a failed nccc call returns, with the status, the
//! function, the parameter and errno, and a short message copied out of
//! C (no allocation: the message is truncated to fit).

use core::fmt;

use crate::abi;

/// What went wrong, in Rust's terms (the status says it in nccc's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The runtime or a built-in returned a non-zero status.
    Status,
    /// The function set errno (`[errno]` functions); `errno` holds it.
    Errno,
    /// NULL where the IDL says `[nonnull]`.
    Null,
    /// An owned object used after it was closed.
    Closed,
    /// A closure released before it was passed or called.
    Released,
    /// A callback panicked; the message is the panic's.
    Panic,
    /// A struct's Rust layout differs from the library's layout table.
    Layout,
    /// The library's signature of a function is not the IDL's.
    Signature,
    /// No such module, function, type or constant.
    Unknown,
    /// A string with a NUL byte inside, or one too long for the buffer.
    Text,
    /// A wrong number of arguments, or a buffer with fewer slots than the
    /// function's signature needs.
    Count,
    /// A value of the wrong type for its slot (dynamic calls).
    Type,
    /// An integer or float out of its slot's range (dynamic calls).
    Range,
    /// A number with a fraction for an integer slot (dynamic calls).
    Integral,
    /// No such field in a struct (dynamic calls).
    Field,
    /// No such closure scope (dynamic closures).
    Scope,
}

const MESSAGE_BYTES: usize = 96;

/// A failed call: `status` (an nccc status, 0 when the failure is Rust's
/// own, such as a closed object), the registry name of the `function`,
/// the 1-based `parameter` it concerns (0: none), `errno` (0: none), and a
/// message.
#[derive(Clone, Copy)]
pub struct Error {
    pub kind: ErrorKind,
    pub status: u32,
    pub function: &'static str,
    pub parameter: usize,
    pub errno: i32,
    message: [u8; MESSAGE_BYTES],
    message_len: u8,
}

impl Error {
    pub fn new(kind: ErrorKind, function: &'static str, message: &str) -> Error {
        let mut e = Error {
            kind,
            status: 0,
            function,
            parameter: 0,
            errno: 0,
            message: [0; MESSAGE_BYTES],
            message_len: 0,
        };
        e.set_message(message.as_bytes());
        e
    }

    /// An error of a status, with the runtime's message for it.
    pub fn status(status: u32, function: &'static str, message: &[u8]) -> Error {
        let mut e = Error::new(ErrorKind::Status, function, abi::status_text(status));
        e.status = status;
        if !message.is_empty() {
            e.set_message(message);
        }
        e
    }

    /// The same error about parameter `parameter` (1-based) of `function`.
    pub fn about(mut self, function: &'static str, parameter: usize) -> Error {
        self.function = function;
        self.parameter = parameter;
        self
    }

    /// The same error about parameter `k` (1-based).
    pub fn at(mut self, parameter: usize) -> Error {
        self.parameter = parameter;
        self
    }

    /// The error of an `[errno]` function that set errno.
    pub fn errno(function: &'static str, errno: i32) -> Error {
        let mut e = Error::new(ErrorKind::Errno, function, "errno set");
        e.errno = errno;
        e
    }

    /// The message (at most 96 bytes of it, cut at a character boundary).
    pub fn message(&self) -> &str {
        let bytes = &self.message[..self.message_len as usize];
        match core::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => core::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
        }
    }

    pub(crate) fn set_message(&mut self, text: &[u8]) {
        let n = text.len().min(MESSAGE_BYTES);
        self.message[..n].copy_from_slice(&text[..n]);
        self.message_len = n as u8;
    }

    /// Appends to the message what fits.
    pub(crate) fn append(&mut self, text: &[u8]) {
        let at = self.message_len as usize;
        let n = text.len().min(MESSAGE_BYTES - at);
        self.message[at..at + n].copy_from_slice(&text[..n]);
        self.message_len = (at + n) as u8;
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("status", &self.status)
            .field("function", &self.function)
            .field("parameter", &self.parameter)
            .field("errno", &self.errno)
            .field("message", &self.message())
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.function.is_empty() {
            write!(f, "'{}': ", self.function)?;
        }
        if self.parameter != 0 {
            write!(f, "argument {}: ", self.parameter)?;
        }
        f.write_str(self.message())?;
        if self.status != 0 {
            write!(f, " (status {:#06x})", self.status)?;
        }
        if self.errno != 0 {
            write!(f, " (errno {})", self.errno)?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
