//! Structs and unions by value: a generated `#[repr(C)]` type written
//! into its slots field by field (padding bytes 0, docs/ABI.md "Slots"),
//! read back the same way, and its Rust layout compared with the
//! module's layout table when the module binds; and the `Shape` of every
//! record, read from that table, by which C objects (cdata.rs) reach
//! their fields.

use core::mem::{align_of, size_of};

use crate::error::{Error, ErrorKind};
use crate::runtime::Runtime;
use crate::slot::{slot_bytes, slot_bytes_mut, Field};

/// A struct or union of a module, generated as a `#[repr(C)]` Rust type.
pub trait Record: Field {
    /// The module and the type's name in its layout table.
    const MODULE: &'static str;
    const NAME: &'static str;
    /// The slots a value takes: `NCCC_SLOTS(sizeof)`.
    const SLOTS: usize = (size_of::<Self>() + 7) / 8;

    /// Calls `each(name, offset, size)` for every field, with Rust's own
    /// offsets and sizes.
    fn fields(each: &mut dyn FnMut(&'static str, usize, usize));

    /// The value into `slots` (at least `SLOTS` long), every byte that is
    /// not a field's 0.
    fn to_slots(self, slots: &mut [u64]) {
        for s in slots[..Self::SLOTS].iter_mut() {
            *s = 0;
        }
        self.put(slot_bytes_mut(slots), 0);
    }

    /// The value from its slots.
    fn from_slots(slots: &[u64]) -> Self {
        Self::get(slot_bytes(&slots[..Self::SLOTS]), 0)
    }
}

/// Compares `T`'s size, alignment and every field's offset and size with
/// the module's layout table; a difference is an error of kind `Layout`
/// naming the type and the field.
pub fn check_layout<T: Record>(rt: &Runtime<'_>) -> Result<(), Error> {
    let layout = rt.layout(T::MODULE, T::NAME).map_err(|mut e| {
        e.function = T::NAME;
        e
    })?;
    if layout.size != size_of::<T>() || layout.align != align_of::<T>() {
        return Err(mismatch::<T>("size or alignment", layout.size));
    }
    let mut result = Ok(());
    let mut seen = 0;
    T::fields(&mut |name, offset, size| {
        seen += 1;
        if result.is_err() {
            return;
        }
        let found = (0..layout.n_fields).find_map(|k| match rt.field(&layout, k) {
            Ok(f) if f.name == name.as_bytes() => Some(Ok((f.offset, f.size))),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        });
        result = match found {
            Some(Ok((o, s))) if o == offset && s == size => Ok(()),
            Some(Ok((o, _))) => Err(mismatch::<T>(name, o)),
            Some(Err(e)) => Err(e),
            None => Err(mismatch::<T>(name, usize::MAX)),
        };
    });
    result?;
    if seen != layout.n_fields {
        return Err(mismatch::<T>("the number of fields", layout.n_fields));
    }
    Ok(())
}

fn mismatch<T: Record>(what: &str, c_value: usize) -> Error {
    let mut e = Error::new(ErrorKind::Layout, T::NAME, "Rust's layout differs from C's: ");
    e.append(what.as_bytes());
    if c_value == usize::MAX {
        e.append(b" (not in C's table)");
    }
    e
}

/// Where a field lies in its record, from the library's layout table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub offset: usize,
    pub size: usize,
    /// Array elements, 1 for a plain field.
    pub count: usize,
    /// The signature code of a scalar or pointer element in C's table
    /// (idl/abi.json `codes`), 0 for a record.
    pub code: u8,
}

/// A record's size, alignment and its N fields' places, in the order of
/// the module's layout record (`field_names`).
#[derive(Clone, Copy, Debug)]
pub struct Shape<const N: usize> {
    pub size: usize,
    pub align: usize,
    pub fields: [Place; N],
}

impl<const N: usize> Shape<N> {
    /// The size, alignment and field places, of any number of fields.
    pub fn parts(&self) -> (usize, usize, &[Place]) {
        (self.size, self.align, &self.fields)
    }

    /// Reads layout `name` of `module` from the library's table: each of
    /// `fields` is (its name, the size of one element in Rust, 0 when the
    /// element is a record). Errors: kind `Unknown` (no such layout), kind
    /// `Layout` (a field missing, or an element size C does not have).
    pub fn read(rt: &Runtime<'_>, module: &str, name: &'static str,
                fields: [(&str, usize); N]) -> Result<Shape<N>, Error> {
        let layout = rt.layout(module, name).map_err(|mut e| {
            e.function = name;
            e
        })?;
        let mut shape = Shape { size: layout.size, align: layout.align, fields: [Place::default(); N] };
        for (k, (field, elem)) in fields.iter().enumerate() {
            let mut found = None;
            for j in 0..layout.n_fields {
                let f = rt.field(&layout, j)?;
                if f.name == field.as_bytes() {
                    let code = if f.code.len() == 1 { f.code[0] } else { 0 };
                    found = Some(Place { offset: f.offset, size: f.size, count: f.count.max(1), code });
                }
            }
            let place = found.ok_or_else(|| layout_error(name, field, " (not in C's table)"))?;
            if *elem != 0 && place.size != place.count * elem
                || place.offset + place.size > shape.size {
                return Err(layout_error(name, field, " (C's size differs)"));
            }
            shape.fields[k] = place;
        }
        Ok(shape)
    }
}

fn layout_error(name: &'static str, field: &str, why: &str) -> Error {
    let mut e = Error::new(ErrorKind::Layout, name, "field ");
    e.append(field.as_bytes());
    e.append(why.as_bytes());
    e
}
