//! The values of calls by name and of C objects by name (feature
//! `alloc`): `Dyn`, one value known only at run time, converted to and
//! from a slot by its signature code with the checks a generated module
//! leaves to the compiler (type, range, integral numbers, NUL in
//! strings); a refused value is an error about an argument ("bad
//! argument #k (WHY)") or a field ("field 'f' (WHY)").

use alloc::string::String;
use alloc::vec::Vec;

use crate::abi::{self, Code, Kind};
use crate::callback::Closure;
use crate::error::{Error, ErrorKind};
use crate::slot::{Ptr, Value};
use crate::text::c_bytes;

/// A value of a dynamic call.
#[derive(Clone, Debug, PartialEq)]
pub enum Dyn {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Null,
    Ptr(Ptr),
    /// A closure (its context goes in the slot).
    Closure(Closure),
    /// A struct or union by its fields' names (fields left out are 0).
    Struct(Vec<(String, Dyn)>),
    /// A struct or union by its bytes in the target's layout (the rest 0);
    /// for a pointer, a byte buffer (a copy for the call, its address).
    Bytes(Vec<u8>),
}


/// What a refused value was for: argument k (from 1), or a field.
#[derive(Clone, Copy, Debug)]
pub(crate) enum At<'a> {
    Arg(usize),
    Field(&'a str),
}

/// "bad argument #k (WHAT)", the error of one argument, or "field 'f'
/// (WHAT)", of a field.
pub(crate) fn kind_error(kind: ErrorKind, function: &'static str, at: At<'_>, what: &str) -> Error {
    let mut e = match at {
        At::Arg(position) => {
            let mut e = Error::new(kind, function, "bad argument #");
            e.append(itoa(position as i128).text());
            e.at(position)
        }
        At::Field(name) => {
            let mut e = Error::new(kind, function, "field '");
            e.append(name.as_bytes());
            e.append(b"'");
            e
        }
    };
    e.append(b" (");
    e.append(what.as_bytes());
    e.append(b")");
    e
}

/// A number as decimal text, without allocating.
pub(crate) struct Digits {
    buf: [u8; 48],
    at: usize,
}

impl Digits {
    pub(crate) fn text(&self) -> &[u8] {
        &self.buf[self.at..]
    }
}

pub(crate) fn itoa(n: i128) -> Digits {
    let mut d = Digits { buf: [0; 48], at: 48 };
    let mut m = n.unsigned_abs();
    loop {
        d.at -= 1;
        d.buf[d.at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        d.at -= 1;
        d.buf[d.at] = b'-';
    }
    d
}

fn range_error(code: &Code, n: i128, function: &'static str, at: At<'_>) -> Error {
    let mut text = String::from("value ");
    text.push_str(core::str::from_utf8(itoa(n).text()).unwrap_or(""));
    text.push_str(" out of range for ");
    text.push_str(code.name);
    kind_error(ErrorKind::Range, function, at, &text)
}

/// The range of an integer code: (min, max).
fn range(code: &Code) -> (i128, i128) {
    let bytes = if code.bytes == 0 { core::mem::size_of::<usize>() } else { code.bytes as usize };
    let bits = 8 * bytes as u32;
    if code.kind == Kind::Bool {
        (0, 1)
    } else if code.signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// The slot of `value` for `code`, checked.
pub(crate) fn encode(code: &Code, value: &Dyn, function: &'static str, at: At<'_>,
                     strings: &mut Vec<Vec<u8>>) -> Result<u64, Error> {
    encode_slot(code, value, function, at, strings, false)
}

/// The same; `variadic`: a slot of a '*' side, which also takes a pointer.
pub(crate) fn encode_slot(code: &Code, value: &Dyn, function: &'static str, at: At<'_>,
                          strings: &mut Vec<Vec<u8>>, variadic: bool) -> Result<u64, Error> {
    let wrong = |what| Err(kind_error(ErrorKind::Type, function, at, what));
    let expected = match code.kind {
        Kind::Bool => "boolean expected",
        Kind::Int | Kind::Errno => "integer expected",
        Kind::Float => "number expected",
        Kind::String => "string expected",
        Kind::Closure => "closure expected",
        Kind::Pointer | Kind::Function => "pointer expected",
    };
    match (code.kind, value) {
        (Kind::Bool, Dyn::Bool(b)) => Ok(*b as u64),
        (Kind::Bool, _) => wrong(expected),
        (Kind::Int, Dyn::Int(n)) => {
            let (lo, hi) = range(code);
            if *n < lo || *n > hi {
                return Err(range_error(code, *n, function, at));
            }
            Ok(*n as i64 as u64)
        }
        (Kind::Int, Dyn::Float(x)) if !x.is_finite() || *x != (*x as i128) as f64 => {
            Err(kind_error(ErrorKind::Integral, function, at, "a non-integral number for an integer"))
        }
        (Kind::Int, Dyn::Float(x)) => {
            encode_slot(code, &Dyn::Int(*x as i128), function, at, strings, variadic)
        }
        (Kind::Int, Dyn::Ptr(p)) if variadic => Ok(p.to_slot()),
        (Kind::Int, Dyn::Str(_)) if variadic => {
            let string = abi::CODES.iter().find(|c| c.kind == Kind::String).copied().unwrap_or(*code);
            encode_slot(&string, value, function, at, strings, false)
        }
        (Kind::Int, _) => wrong(expected),
        (Kind::Float, Dyn::Int(n)) => encode(code, &Dyn::Float(*n as f64), function, at, strings),
        (Kind::Float, Dyn::Float(x)) if code.bytes == 4 => {
            if x.is_finite() && (*x > f32::MAX as f64 || *x < f32::MIN as f64) {
                return Err(kind_error(ErrorKind::Range, function, at, "a number out of float's range"));
            }
            Ok((*x as f32).to_slot())
        }
        (Kind::Float, Dyn::Float(x)) => Ok(x.to_slot()),
        (Kind::Float, _) => wrong(expected),
        (Kind::Pointer | Kind::Function | Kind::Closure, Dyn::Null) => Ok(0),
        (Kind::Pointer | Kind::Function, Dyn::Ptr(p)) => Ok(p.to_slot()),
        (Kind::Pointer, Dyn::Bytes(b)) => {
            // a byte buffer: a copy of it, kept for the call, as strings are
            let bytes = b.clone();
            let addr = bytes.as_ptr() as u64;
            strings.push(bytes);
            Ok(addr)
        }
        (Kind::Closure, Dyn::Closure(c)) => Ok(c.context),
        (Kind::String, Dyn::Null) => Ok(0),
        // text as a string, or as bytes (unsigned-char text)
        (Kind::String, Dyn::Str(s)) => lend_text(s.as_bytes(), strings, function, at),
        (Kind::String, Dyn::Bytes(b)) => lend_text(b, strings, function, at),
        _ => wrong(expected),
    }
}

/// The address of a NUL-terminated copy of `text`, kept in `strings` for
/// the call. Errors: a NUL inside (kind Text).
fn lend_text(text: &[u8], strings: &mut Vec<Vec<u8>>, function: &'static str, at: At<'_>)
             -> Result<u64, Error> {
    if text.contains(&0) {
        return Err(kind_error(ErrorKind::Text, function, at, "a NUL byte inside a string"));
    }
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text);
    bytes.push(0);
    let addr = bytes.as_ptr() as u64;
    strings.push(bytes);
    Ok(addr)
}

/// The value of a result slot.
pub(crate) fn decode(code: &Code, slot: u64) -> Result<Dyn, Error> {
    Ok(match code.kind {
        Kind::Bool => Dyn::Bool(slot & 1 != 0),
        Kind::Int | Kind::Errno => {
            let bytes = if code.bytes == 0 { core::mem::size_of::<usize>() } else { code.bytes as usize };
            let bits = 8 * bytes as u32;
            if code.signed {
                Dyn::Int(((slot << (64 - bits)) as i64 >> (64 - bits)) as i128)
            } else {
                Dyn::Int((if bits == 64 { slot } else { slot & ((1 << bits) - 1) }) as i128)
            }
        }
        Kind::Float if code.bytes == 4 => Dyn::Float(f32::from_slot(slot) as f64),
        Kind::Float => Dyn::Float(f64::from_slot(slot)),
        Kind::String if slot == 0 => Dyn::Null,
        // SAFETY: a string result is NULL or a C string (its signature says so).
        Kind::String => Dyn::Str(String::from_utf8_lossy(unsafe { c_bytes(slot as usize) }).into_owned()),
        Kind::Closure => Dyn::Closure(Closure::from_c(slot)),
        _ if slot == 0 => Dyn::Null,
        _ => Dyn::Ptr(Ptr::from_slot(slot)),
    })
}

