//! C objects (docs/RUST.md, "C objects"; feature `alloc`): a struct or
//! union of a generated module in C memory, its fields read and written
//! by name through accessors the generator writes from the module's
//! layout records, at the offsets the library's layout table gives when
//! the module binds (so records C defines with more fields than the IDL
//! names, and anonymous members, are reached as C reaches them).
//!
//! A `CObject` is zeroed memory Rust owns (`Module::new`) or a borrowed
//! view of a `T *` C gave (`Module::view`), which never frees. Its
//! accessors borrow it; every read or write checks, through the object's
//! one address cell, that it is not freed and that the bytes lie inside
//! the record: a freed object or a place past the record is an `Err`,
//! never a read of memory the object does not cover.

use alloc::alloc::{alloc_zeroed, dealloc, Layout as Allocation};
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use core::marker::PhantomData;
use core::ops::Deref;

use crate::error::{Error, ErrorKind};
use crate::slot::{Field, Ptr};

/// A place in a C object's memory: `size` bytes at `offset` from the
/// object's address, which is read from the object's cell at every use
/// (0: the object is freed). Only the crate makes one; the accessors of
/// a generated record narrow it to their fields, borrowing the record
/// (a `Mem` is neither `Copy` nor `Clone`, so none outlives its object).
pub struct Mem<'a> {
    cell: *const Cell<usize>,
    offset: usize,
    size: usize,
    name: &'static str,
    _object: PhantomData<&'a Cell<usize>>,
}

impl<'a> Mem<'a> {
    /// The bytes `at..at + size` of this place, as a place of their own
    /// borrowing this one (empty when they do not lie inside: every use
    /// of it is then an error, kind `Range`).
    pub fn sub(&self, at: usize, size: usize, name: &'static str) -> Mem<'_> {
        self.narrow(at, size, name)
    }

    /// The same for the crate's arrays, which are borrowed themselves.
    fn narrow(&self, at: usize, size: usize, name: &'static str) -> Mem<'a> {
        let inside = at.checked_add(size).map_or(false, |end| end <= self.size);
        Mem { cell: self.cell, offset: self.offset + if inside { at } else { 0 },
              size: if inside { size } else { 0 }, name, _object: PhantomData }
    }

    /// The address of `n` bytes at `at`. Errors: the object is freed (kind
    /// `Closed`), the bytes are not inside the place (kind `Range`).
    fn addr(&self, at: usize, n: usize) -> Result<usize, Error> {
        // SAFETY: a Mem is made from a CObject's boxed cell and borrows the
        // object for 'a, so the cell outlives it.
        let base = unsafe { (*self.cell).get() };
        if base == 0 {
            // the other hosts' words: "cd_event object was freed"
            let mut e = Error::new(ErrorKind::Closed, self.name, self.name);
            e.append(b" object was freed");
            return Err(e);
        }
        if at.checked_add(n).map_or(true, |end| end > self.size) {
            return Err(Error::new(ErrorKind::Range, self.name, "past the C object's size"));
        }
        Ok(base + self.offset + at)
    }

    /// Copies the bytes at `at` into `out`.
    pub(crate) fn read_into(&self, at: usize, out: &mut [u8]) -> Result<(), Error> {
        let addr = self.addr(at, out.len())?;
        // SAFETY: as get.
        out.copy_from_slice(unsafe { core::slice::from_raw_parts(addr as *const u8, out.len()) });
        Ok(())
    }

    /// Copies `bytes` to `at`.
    pub(crate) fn write_from(&self, at: usize, bytes: &[u8]) -> Result<(), Error> {
        let addr = self.addr(at, bytes.len())?;
        // SAFETY: as set_bytes.
        unsafe { core::ptr::copy(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
        Ok(())
    }

    /// The value at `at` (a scalar, pointer or by-value record).
    pub fn get<T: Field>(&self, at: usize) -> Result<T, Error> {
        let n = core::mem::size_of::<T>();
        let addr = self.addr(at, n)?;
        // SAFETY: addr..addr+n lies inside the live object (checked), and
        // a byte slice over it lives only for this read.
        Ok(T::get(unsafe { core::slice::from_raw_parts(addr as *const u8, n) }, 0))
    }

    /// Writes `value` at `at`.
    pub fn put<T: Field>(&self, at: usize, value: T) -> Result<(), Error> {
        let n = core::mem::size_of::<T>();
        let addr = self.addr(at, n)?;
        // SAFETY: as get; no other reference to these bytes exists while
        // the value is written.
        value.put(unsafe { core::slice::from_raw_parts_mut(addr as *mut u8, n) }, 0);
        Ok(())
    }

    /// A copy of the place's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let addr = self.addr(0, self.size)?;
        // SAFETY: the whole place lies inside the live object (checked).
        Ok(unsafe { core::slice::from_raw_parts(addr as *const u8, self.size) }.to_vec())
    }

    /// Copies `bytes` over the place. Errors: not exactly its size (kind
    /// `Count`).
    pub fn set_bytes(&self, bytes: &[u8]) -> Result<(), Error> {
        self.check_bytes(bytes.len())?;
        let addr = self.addr(0, self.size)?;
        // SAFETY: the place lies inside the live object; `bytes` is Rust
        // memory, which never overlaps a C object's (copy semantics).
        unsafe { core::ptr::copy(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
        Ok(())
    }

    /// The error of `set_bytes` for `n` bytes: not exactly the place's
    /// size (kind `Count`).
    pub(crate) fn check_bytes(&self, n: usize) -> Result<(), Error> {
        if n != self.size {
            return Err(Error::new(ErrorKind::Count, self.name, "bytes of another size than the record's"));
        }
        Ok(())
    }

    /// The place's address, to pass where C expects a `T *`.
    pub fn ptr(&self) -> Result<Ptr, Error> {
        // SAFETY: the address of a live C object (or of memory Rust owns
        // for it), valid for as long as the object.
        self.addr(0, 0).map(|a| unsafe { Ptr::from_addr(a) })
    }

    /// The `count` bytes the pointer at `at` points to (`None` for NULL):
    /// a text field of the layout record (its `texts`). The pointer is
    /// C's: it must point to `count` readable bytes, as the IDL says.
    pub fn text_bytes(&self, at: usize, count: usize) -> Result<Option<Vec<u8>>, Error> {
        let p: Ptr = self.get(at)?;
        if p.is_null() {
            return Ok(None);
        }
        // SAFETY: the record's own field says that `count` bytes are there
        // (the IDL's [length] or [size] of the text field).
        Ok(Some(unsafe { core::slice::from_raw_parts(p.addr() as *const u8, count) }.to_vec()))
    }

    /// The same as text (bad UTF-8 replaced, as the other hosts do).
    pub fn text(&self, at: usize, count: usize) -> Result<Option<String>, Error> {
        Ok(self.text_bytes(at, count)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
    }
}

/// A struct or union of a generated module as a place in C memory: the
/// generator writes one per layout, with a getter `f()` and a setter
/// `set_f(v)` per scalar or pointer field, a view per record field, and
/// an `nccc::CArray` or `nccc::CRecords` per array field.
pub trait CRecord<'a>: Sized {
    /// The module's table of record shapes (its `Layouts`).
    type Table: 'a;
    /// The layout's name in the module's table.
    const NAME: &'static str;
    /// The record's size and alignment in C.
    fn size(table: &Self::Table) -> (usize, usize);
    /// The record at a place.
    fn at(mem: Mem<'a>, table: &'a Self::Table) -> Self;
    /// Its place.
    fn mem(&self) -> &Mem<'a>;

    /// Its address, to pass where C expects a `T *`. Errors: freed.
    fn ptr(&self) -> Result<Ptr, Error> {
        self.mem().ptr()
    }
    /// A copy of the whole record's bytes.
    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        self.mem().to_bytes()
    }
    /// The whole record copied in from bytes of its size.
    fn set_bytes(&self, bytes: &[u8]) -> Result<(), Error> {
        self.mem().set_bytes(bytes)
    }
    /// The whole record copied in from another of its type.
    fn copy_from(&self, other: &Self) -> Result<(), Error> {
        self.set_bytes(&other.to_bytes()?)
    }
}

/// An array field of scalars or pointers: `count` elements of `T`,
/// indexes checked (kind `Range`).
pub struct CArray<'a, T> {
    mem: Mem<'a>,
    count: usize,
    _elem: PhantomData<T>,
}

impl<'a, T: Field> CArray<'a, T> {
    pub fn new(mem: Mem<'a>, count: usize) -> CArray<'a, T> {
        CArray { mem, count, _elem: PhantomData }
    }
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    pub fn get(&self, k: usize) -> Result<T, Error> {
        self.mem.get(self.at(k)?)
    }
    pub fn set(&self, k: usize, value: T) -> Result<(), Error> {
        self.mem.put(self.at(k)?, value)
    }
    fn at(&self, k: usize) -> Result<usize, Error> {
        if k >= self.count {
            return Err(Error::new(ErrorKind::Range, self.mem.name, "array index out of range"));
        }
        Ok(k * core::mem::size_of::<T>())
    }
}

/// An array of records (a field, or a view of several records C gave):
/// `count` of them, `at(k)` the k-th, indexes checked (kind `Range`).
pub struct CRecords<'a, R: CRecord<'a>> {
    mem: Mem<'a>,
    count: usize,
    table: &'a R::Table,
}

impl<'a, R: CRecord<'a>> CRecords<'a, R> {
    pub fn new(mem: Mem<'a>, count: usize, table: &'a R::Table) -> CRecords<'a, R> {
        CRecords { mem, count, table }
    }
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    pub fn at(&self, k: usize) -> Result<R, Error> {
        if k >= self.count {
            return Err(Error::new(ErrorKind::Range, R::NAME, "array index out of range"));
        }
        let size = R::size(self.table).0;
        Ok(R::at(self.mem.narrow(k * size, size, R::NAME), self.table))
    }
}

/// The memory of a C object: zeroed memory Rust allocated (freed by
/// `free` or the drop) or C's memory viewed (never freed), behind one
/// address cell that every `Mem` of the object reads (0: freed).
pub(crate) struct Block {
    cell: Box<Cell<usize>>,
    owned: Option<Allocation>,
}

impl Block {
    /// Zeroed memory of `size` bytes and `align`, owned. Errors: no such
    /// size and alignment (kind `Layout`), no memory (kind `Count`).
    pub(crate) fn new(size: usize, align: usize, name: &'static str) -> Result<Block, Error> {
        let layout = Allocation::from_size_align(size.max(1), align.max(1))
            .map_err(|_| Error::new(ErrorKind::Layout, name, "no such size and alignment"))?;
        // SAFETY: the layout's size is not 0.
        let addr = unsafe { alloc_zeroed(layout) } as usize;
        if addr == 0 {
            return Err(Error::new(ErrorKind::Count, name, "out of memory"));
        }
        Ok(Block { cell: Box::new(Cell::new(addr)), owned: Some(layout) })
    }

    /// A view of `count` records of `size` bytes at `ptr`, which C gave.
    /// Errors: NULL (kind `Null`), a count whose bytes overflow (kind
    /// `Range`).
    pub(crate) fn view(ptr: Ptr, size: usize, count: usize, name: &'static str) -> Result<Block, Error> {
        if ptr.is_null() {
            return Err(Error::new(ErrorKind::Null, name, "a view of NULL"));
        }
        if size.checked_mul(count).is_none() {
            return Err(Error::new(ErrorKind::Range, name, "too many records"));
        }
        Ok(Block { cell: Box::new(Cell::new(ptr.addr())), owned: None })
    }

    /// The place of `size` bytes at `offset`, borrowing the block.
    pub(crate) fn mem(&self, offset: usize, size: usize, name: &'static str) -> Mem<'_> {
        // SAFETY: the place borrows the block, which holds the cell.
        unsafe { self.mem_for(offset, size, name) }
    }

    /// The same for any lifetime 'a.
    ///
    /// # Safety
    /// The place must not be used after the block is dropped (a CObject
    /// holds its block and its record's place together).
    unsafe fn mem_for<'a>(&self, offset: usize, size: usize, name: &'static str) -> Mem<'a> {
        Mem { cell: &*self.cell, offset, size, name, _object: PhantomData }
    }

    pub(crate) fn is_owned(&self) -> bool {
        self.owned.is_some()
    }

    pub(crate) fn is_freed(&self) -> bool {
        self.cell.get() == 0
    }

    pub(crate) fn addr(&self) -> usize {
        self.cell.get()
    }

    /// Frees owned memory now (with what C kept for it, kept.rs); on a
    /// view, only ends it. `true` the first time, `false` after.
    pub(crate) fn free(&mut self) -> bool {
        let addr = self.cell.replace(0);
        if addr == 0 {
            return false;
        }
        if let Some(layout) = self.owned {
            crate::kept::release(addr);
            // SAFETY: addr was allocated with this layout by new, and is
            // freed once (the cell is 0 from now on).
            unsafe { dealloc(addr as *mut u8, layout) };
        }
        true
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        self.free();
    }
}

/// A record in C memory: owned (zeroed memory Rust allocated, freed by
/// `free` or its drop) or a view of C's memory (never freed), of one
/// record or of `count()` records side by side (`view_records`). It
/// derefs to the generated record `R` (the first), whose accessors borrow
/// it; `nth(k)` gives the k-th. A field named like one of its methods is
/// reached through the record: `(*obj).count()`.
pub struct CObject<'m, R: CRecord<'m>> {
    record: R,
    block: Block,
    count: usize,
    table: &'m R::Table,
}

/// The k-th record of a `CObject`, borrowing it (`CObject::nth`).
pub struct Nth<'s, R> {
    record: R,
    _object: PhantomData<&'s ()>,
}

impl<'s, R> Deref for Nth<'s, R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.record
    }
}

impl<'m, R: CRecord<'m>> CObject<'m, R> {
    /// A zeroed record of the layout's size and alignment, owned by the
    /// returned object. Errors: no memory (kind `Count`).
    pub fn new(table: &'m R::Table) -> Result<CObject<'m, R>, Error> {
        let (size, align) = R::size(table);
        Ok(CObject::make(Block::new(size, align, R::NAME)?, table, 1))
    }

    /// A view of the record at `ptr`, which C gave as an `R *`: never
    /// freed by Rust. Errors: NULL (kind `Null`).
    pub fn view(table: &'m R::Table, ptr: Ptr) -> Result<CObject<'m, R>, Error> {
        CObject::view_records(table, ptr, 1)
    }

    /// A view of `count` records side by side at `ptr` (an array C gave):
    /// `nth(k)` the k-th, an index past them an `Err` of kind `Range`.
    /// Errors: NULL (kind `Null`), a count whose bytes overflow (kind
    /// `Range`).
    pub fn view_records(table: &'m R::Table, ptr: Ptr, count: usize) -> Result<CObject<'m, R>, Error> {
        let block = Block::view(ptr, R::size(table).0, count, R::NAME)?;
        Ok(CObject::make(block, table, count))
    }

    fn make(block: Block, table: &'m R::Table, count: usize) -> CObject<'m, R> {
        let size = R::size(table).0;
        // SAFETY: the record's place lives in the object beside its block
        // and is dropped with it.
        let record = R::at(unsafe { block.mem_for(0, size, R::NAME) }, table);
        CObject { record, block, count, table }
    }

    /// The number of records (1 but for `view_records`).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The k-th record, borrowing the object. Errors: past `count()` (kind
    /// `Range`).
    pub fn nth(&self, k: usize) -> Result<Nth<'_, R>, Error> {
        if k >= self.count {
            return Err(Error::new(ErrorKind::Range, R::NAME, "record index out of range"));
        }
        let size = R::size(self.table).0;
        // SAFETY: the place borrows the object (Nth<'_>), which holds the block.
        let mem = unsafe { self.block.mem_for(k * size, size, R::NAME) };
        Ok(Nth { record: R::at(mem, self.table), _object: PhantomData })
    }

    /// Whether Rust owns the memory (made by `new`), rather than viewing C's.
    pub fn is_owned(&self) -> bool {
        self.block.is_owned()
    }

    /// Frees an owned object's memory now; on a view, only ends the view.
    /// Every later use is an `Err` of kind `Closed`. `true` the first
    /// time, `false` after.
    pub fn free(&mut self) -> bool {
        self.block.free()
    }

    pub fn is_freed(&self) -> bool {
        self.block.is_freed()
    }
}

impl<'m, R: CRecord<'m>> Deref for CObject<'m, R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.record
    }
}

impl<'m, R: CRecord<'m>> core::fmt::Debug for CObject<'m, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let what = if self.is_owned() { "C object" } else { "view of" };
        write!(f, "<{} {} at {:#x}>", what, R::NAME, self.block.addr())
    }
}
