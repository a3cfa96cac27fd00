//! nccc for Rust: call the functions of nccc's registries with the one
//! primitive, pass Rust closures as callbacks through the one dispatcher,
//! and bind the modules `nccc-stubgen --lang rust` generates (docs/RUST.md).
//!
//! The crate has no dependencies and builds without `std`. The feature
//! `alloc` adds heap-scoped callbacks (`Box<dyn FnMut>`) and heap strings;
//! `std` (implies `alloc`) catches a panic in a callback and reports it as
//! the `Err` of the forward call. Without `std` a panic in a callback aborts
//! the process: it never unwinds into C.
//!
//! The C runtime is linked into the final program: this crate declares
//! `nccc_root` and `nccc_init` and calls everything else through the root's
//! built-ins.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_camel_case_types)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod abi;
pub mod callback;
#[cfg(feature = "alloc")]
mod cdata;
#[cfg(feature = "alloc")]
mod convert;
#[cfg(feature = "alloc")]
pub mod dynamic;
#[cfg(feature = "alloc")]
mod packed;
mod error;
mod ffi;
#[cfg(feature = "alloc")]
pub mod kept;
#[cfg(feature = "alloc")]
mod lock;
#[cfg(feature = "alloc")]
mod named;
mod owned;
mod record;
mod runtime;
#[cfg(feature = "alloc")]
pub mod sets;
mod slot;
mod text;

pub use callback::{Callback, Closure, Stats, StrArray};
#[cfg(feature = "alloc")]
pub use cdata::{CArray, CObject, CRecord, CRecords, Mem, Nth};
pub use error::{Error, ErrorKind};
#[cfg(feature = "alloc")]
pub use named::{FieldInfo, NamedObject, RecordInfo, Shapes, TextCount, TextInfo};
pub use ffi::RawFn;
pub use owned::Owned;
pub use record::{check_layout, Place, Record, Shape};
pub use runtime::{Function, Handle, Layout, LayoutField, Runtime};
pub use slot::{slot_bytes, FnPtr, Field, Plain, Ptr, Value};
#[cfg(feature = "alloc")]
pub use dynamic::Dyn;
pub use text::{string_from_c, with_c_str, String};

#[cfg(feature = "alloc")]
pub use alloc::{boxed::Box, vec::Vec};

/// C's `char`: signed on x86 and most targets, unsigned on ARM, AArch64
/// (except Apple's), PowerPC, RISC-V and s390x, as the C compilers have it.
#[cfg(any(all(any(target_arch = "arm", target_arch = "aarch64"), not(target_vendor = "apple")),
          target_arch = "powerpc", target_arch = "powerpc64", target_arch = "riscv32",
          target_arch = "riscv64", target_arch = "s390x"))]
pub type c_char = u8;
#[cfg(not(any(all(any(target_arch = "arm", target_arch = "aarch64"), not(target_vendor = "apple")),
              target_arch = "powerpc", target_arch = "powerpc64", target_arch = "riscv32",
              target_arch = "riscv64", target_arch = "s390x")))]
pub type c_char = i8;
/// C's `long` and `unsigned long`: 64 bits on LP64, 32 on ILP32 and
/// LLP64 (Windows).
#[cfg(all(target_pointer_width = "64", not(windows)))]
pub type c_long = i64;
#[cfg(all(target_pointer_width = "64", not(windows)))]
pub type c_ulong = u64;
#[cfg(not(all(target_pointer_width = "64", not(windows))))]
pub type c_long = i32;
#[cfg(not(all(target_pointer_width = "64", not(windows))))]
pub type c_ulong = u32;

/// Dropping the `Runtime` releases the closure sets' groups left and drops
/// the buffers C kept (feature `alloc`; `sets` and `kept` work above the
/// runtime), then ends the C runtime.
impl Drop for Runtime<'_> {
    fn drop(&mut self) {
        #[cfg(feature = "alloc")]
        sets::release_all();
        #[cfg(feature = "alloc")]
        kept::release_all();
        self.end();
    }
}

/// The byte offset of a field in a `#[repr(C)]` struct, as the compiler
/// lays it out (what generated modules compare with the C layout table).
#[macro_export]
macro_rules! offset_of {
    ($ty:ty, $field:ident) => {{
        let probe = ::core::mem::MaybeUninit::<$ty>::uninit();
        let base = probe.as_ptr();
        // SAFETY: addr_of! takes the field's address without reading or
        // making a reference to the uninitialised value.
        let field = unsafe { ::core::ptr::addr_of!((*base).$field) };
        (field as *const u8 as usize) - (base as *const u8 as usize)
    }};
}

/// Items that need the `alloc` feature (heap-scoped callbacks): kept with
/// it, left out without it, so one generated module builds either way.
#[cfg(feature = "alloc")]
#[macro_export]
macro_rules! with_alloc {
    ($($body:tt)*) => { $($body)* };
}

/// Items that need the `alloc` feature: left out without it.
#[cfg(not(feature = "alloc"))]
#[macro_export]
macro_rules! with_alloc {
    ($($body:tt)*) => {};
}
