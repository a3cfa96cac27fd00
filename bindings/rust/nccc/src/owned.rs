//! `Owned<T>`: a pointer an `[owned(F)]` result gave, freed by F exactly
//! once, when it is closed or dropped; the closure sets of the owner are
//! released after F returns.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use crate::error::{Error, ErrorKind};
use crate::runtime::Function;
use crate::slot::{Ptr, Value};

/// An object of C type `T` (a marker type of the generated module) that
/// Rust owns: `free` (the IDL's F, an nccc function taking the pointer)
/// runs when it is closed or dropped, whichever comes first.
pub struct Owned<T> {
    ptr: Cell<usize>,
    free: Function,
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    sets: &'static [&'static str],
    _type: PhantomData<*const T>,
}

impl<T> Owned<T> {
    /// Takes ownership of `ptr`, to be freed by `free` (a function of
    /// signature `p:`; a NULL pointer is never freed).
    pub fn new(ptr: Ptr, free: Function) -> Owned<T> {
        Owned::with_sets(ptr, free, &[])
    }

    /// The same for the owner of closure sets (their names, "M.S"): its
    /// groups are released after `free` returns (`nccc::sets`).
    pub fn with_sets(ptr: Ptr, free: Function, sets: &'static [&'static str]) -> Owned<T> {
        Owned { ptr: Cell::new(ptr.addr()), free, sets, _type: PhantomData }
    }

    /// The pointer, to pass to C. Errors: the object is closed
    /// (`ErrorKind::Closed`).
    pub fn ptr(&self) -> Result<Ptr, Error> {
        match self.ptr.get() {
            0 => Err(Error::new(ErrorKind::Closed, "", "the object is closed")),
            // SAFETY: the address came from C as this object's pointer.
            addr => Ok(unsafe { Ptr::from_addr(addr) }),
        }
    }

    /// Frees the object now: `true` the first time, `false` when it was
    /// closed already.
    pub fn close(&self) -> bool {
        let addr = self.ptr.replace(0);
        if addr == 0 {
            return false;
        }
        // SAFETY: the pointer was owned by this object and is freed once.
        let ptr = unsafe { Ptr::from_addr(addr) };
        self.free.call(&[ptr.to_slot()], &mut [0u64; 1]);
        #[cfg(feature = "alloc")]
        crate::sets::release(self.sets, addr);
        #[cfg(feature = "alloc")]
        crate::kept::release(addr);
        true
    }

    pub fn is_closed(&self) -> bool {
        self.ptr.get() == 0
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        self.close();
    }
}

impl<T> fmt::Debug for Owned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Owned({:#x})", self.ptr.get())
    }
}
