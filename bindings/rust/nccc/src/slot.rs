//! Values in slots (docs/ABI.md, "Slots"): every Rust type a generated
//! module passes by value converts to and from one 64-bit slot exactly as
//! the C side's `nccc/slot.h` does, and writes its bytes into a record.

use core::mem::size_of;

/// A value that sits at an offset in a record's bytes (the record's
/// slots as C lays them out): scalars, pointers, arrays and records.
pub trait Field: Copy {
    /// Writes the value's bytes at `at`.
    fn put(self, bytes: &mut [u8], at: usize);
    /// Reads the value at `at`.
    fn get(bytes: &[u8], at: usize) -> Self;
}

/// A value that travels in one slot.
pub trait Value: Field {
    /// The slot: signed integers sign-extended, unsigned ones and `bool`
    /// zero-extended, floating point by its binary64 bits.
    fn to_slot(self) -> u64;
    /// The value back from its slot (the low bits for a narrower type).
    fn from_slot(slot: u64) -> Self;
}

macro_rules! integer_value {
    ($($t:ty => $wide:ty),*) => {$(
        impl Field for $t {
            fn put(self, bytes: &mut [u8], at: usize) {
                bytes[at..at + size_of::<$t>()].copy_from_slice(&self.to_ne_bytes());
            }
            fn get(bytes: &[u8], at: usize) -> Self {
                let mut raw = [0u8; size_of::<$t>()];
                raw.copy_from_slice(&bytes[at..at + size_of::<$t>()]);
                <$t>::from_ne_bytes(raw)
            }
        }

        impl Value for $t {
            #[inline(always)]
            fn to_slot(self) -> u64 { self as $wide as u64 }
            #[inline(always)]
            fn from_slot(slot: u64) -> Self { slot as $t }
        }
    )*};
}

/// A value every bit pattern of its size is valid for (so C memory can be
/// read as it): integers, floating point, pointers.
///
/// # Safety
/// Implement only for such types.
pub unsafe trait Plain: Value {}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: every bit pattern is a value of the type.
        unsafe impl Plain for $t {}
    )*};
}

plain!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64, Ptr, FnPtr);

integer_value!(i8 => i64, i16 => i64, i32 => i64, i64 => i64, isize => i64,
               u8 => u64, u16 => u64, u32 => u64, u64 => u64, usize => u64);

impl Field for bool {
    fn put(self, bytes: &mut [u8], at: usize) {
        bytes[at] = self as u8;
    }
    fn get(bytes: &[u8], at: usize) -> Self {
        bytes[at] != 0
    }
}

impl Value for bool {
    #[inline(always)]
    fn to_slot(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from_slot(slot: u64) -> Self {
        slot & 1 != 0
    }
}

/// A float in memory: its bits, as the unsigned integer of its size.
macro_rules! float_field {
    ($($t:ty => $bits:ty),*) => {$(
        impl Field for $t {
            fn put(self, bytes: &mut [u8], at: usize) {
                self.to_bits().put(bytes, at)
            }
            fn get(bytes: &[u8], at: usize) -> Self {
                <$t>::from_bits(<$bits>::get(bytes, at))
            }
        }
    )*};
}

float_field!(f32 => u32, f64 => u64);

impl Value for f64 {
    #[inline(always)]
    fn to_slot(self) -> u64 {
        self.to_bits()
    }
    #[inline(always)]
    fn from_slot(slot: u64) -> Self {
        f64::from_bits(slot)
    }
}

/// binary32 NaNs are widened and narrowed by their bits (sign, then the
/// payload moved between the 23- and 52-bit fractions), so signalling
/// NaNs and payloads survive, as in nccc/slot.h; every other value
/// converts exactly with `as`.
const F32_EXP: u32 = 0xff << 23;
const F64_EXP: u64 = 0x7ff << 52;
const FRACTION_SHIFT: u32 = 52 - 23;

impl Value for f32 {
    #[inline(always)]
    fn to_slot(self) -> u64 {
        if self.is_nan() {
            let bits = self.to_bits();
            (((bits >> 31) as u64) << 63) | F64_EXP
                | (((bits & !F32_EXP & 0x7fff_ffff) as u64) << FRACTION_SHIFT)
        } else {
            (self as f64).to_bits()
        }
    }
    #[inline(always)]
    fn from_slot(slot: u64) -> Self {
        let wide = f64::from_bits(slot);
        if wide.is_nan() {
            let fraction = ((slot & !F64_EXP & !(1 << 63)) >> FRACTION_SHIFT) as u32;
            f32::from_bits((((slot >> 63) as u32) << 31) | F32_EXP | fraction.max(1))
        } else {
            wide as f32
        }
    }
}

/// A C data pointer, as a value (never dereferenced by Rust). Safe code
/// gets one only from C (a result) or as `Ptr::NULL`; `from_addr` makes
/// one from a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Ptr(usize);

impl Ptr {
    pub const NULL: Ptr = Ptr(0);

    /// A pointer from an address.
    ///
    /// # Safety
    /// C code that receives it will dereference it: the address must be
    /// what the C function expects there.
    pub unsafe fn from_addr(addr: usize) -> Ptr {
        Ptr(addr)
    }

    /// A pointer to Rust memory that C may read during one call (a value,
    /// or the first element of a slice); kept by C past the call it dangles.
    pub fn to<T: ?Sized>(value: &T) -> Ptr {
        Ptr(value as *const T as *const u8 as usize)
    }

    /// The same for memory C may also write (`next_out` of a `z_stream`).
    pub fn to_mut<T: ?Sized>(value: &mut T) -> Ptr {
        Ptr(value as *mut T as *mut u8 as usize)
    }
}

/// A C function pointer, as a value (Rust never calls it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct FnPtr(usize);

impl FnPtr {
    pub const NULL: FnPtr = FnPtr(0);

    /// A function pointer from an address.
    ///
    /// # Safety
    /// C code that receives it will call it: it must be a function of the
    /// type the C function expects there.
    pub unsafe fn from_addr(addr: usize) -> FnPtr {
        FnPtr(addr)
    }
}

/// What the address types (`Ptr`, `FnPtr`) have alike: the address, the
/// null test, a field and a slot holding the address.
macro_rules! address_value {
    ($($t:ident),*) => {$(
        impl $t {
            pub fn addr(self) -> usize {
                self.0
            }

            pub fn is_null(self) -> bool {
                self.0 == 0
            }
        }

        impl Field for $t {
            fn put(self, bytes: &mut [u8], at: usize) {
                self.0.put(bytes, at)
            }
            fn get(bytes: &[u8], at: usize) -> Self {
                $t(usize::get(bytes, at))
            }
        }

        impl Value for $t {
            #[inline(always)]
            fn to_slot(self) -> u64 {
                self.0 as u64
            }
            #[inline(always)]
            fn from_slot(slot: u64) -> Self {
                $t(slot as usize)
            }
        }
    )*};
}

address_value!(Ptr, FnPtr);

impl<T: Field, const N: usize> Field for [T; N] {
    fn put(self, bytes: &mut [u8], at: usize) {
        for (k, v) in self.iter().enumerate() {
            v.put(bytes, at + k * size_of::<T>());
        }
    }
    fn get(bytes: &[u8], at: usize) -> Self {
        core::array::from_fn(|k| T::get(bytes, at + k * size_of::<T>()))
    }
}

/// The bytes of a slot buffer (native-endian, as C sees them): what the
/// `read` built-in gives after its status.
pub fn slot_bytes(slots: &[u64]) -> &[u8] {
    // SAFETY: u64 has no padding and every byte of it is initialised; u8
    // has alignment 1; the length covers exactly the same memory.
    unsafe { core::slice::from_raw_parts(slots.as_ptr() as *const u8, slots.len() * 8) }
}

/// The bytes of a slot buffer, writable.
pub(crate) fn slot_bytes_mut(slots: &mut [u64]) -> &mut [u8] {
    // SAFETY: as slot_bytes; the borrow is unique, and any byte pattern
    // is a valid u64.
    unsafe { core::slice::from_raw_parts_mut(slots.as_mut_ptr() as *mut u8, slots.len() * 8) }
}
