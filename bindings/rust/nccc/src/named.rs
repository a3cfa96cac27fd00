//! C objects by name (docs/RUST.md, "C objects by name"; feature
//! `alloc`): a struct or union of a generated module chosen by its name
//! at run time, its fields read and written by a path ("data.shape.
//! corners[1].y") with `Dyn` values, checked when they run. Built from
//! what the typed records (cdata.rs) use: the module's layout records,
//! generated as `RecordInfo`s, and the places its `Layouts` read from the
//! library's layout table when the module binds; a scalar's type is its
//! signature code in that table, converted as a call's argument is
//! (convert.rs). An unknown record or field, a value of the wrong type,
//! an index out of range and a freed object are each an `Err`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::abi::{self, Code, Kind};
use crate::cdata::{Block, Mem};
use crate::convert::{decode, encode, itoa, kind_error, At, Dyn};
use crate::error::{Error, ErrorKind};
use crate::record::Place;
use crate::slot::{Ptr, Value};

/// One field of a record, as the module's layout record says
/// (docs/BINDING.md, "A layout").
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    pub name: &'static str,
    /// The record it holds by value (`records`), by its index in the
    /// module's `RecordInfo`s; `None` for a scalar or pointer.
    pub record: Option<usize>,
    /// An array (`arrays`).
    pub array: bool,
    /// A text field (`texts`).
    pub text: Option<TextInfo>,
}

/// A pointer field holding text (`string`) or bytes, of a count.
#[derive(Clone, Copy, Debug)]
pub struct TextInfo {
    pub string: bool,
    pub count: TextCount,
}

/// A text field's count: another field of its record (by index), or fixed.
#[derive(Clone, Copy, Debug)]
pub enum TextCount {
    Field(usize),
    Fixed(usize),
}

/// A struct or union of a module and its fields, in the order of the
/// library's table.
#[derive(Clone, Copy, Debug)]
pub struct RecordInfo {
    pub name: &'static str,
    pub fields: &'static [FieldInfo],
}

/// A module's records and their places in C: what a generated module's
/// `Layouts` implements.
pub trait Shapes {
    /// The module's name.
    fn module(&self) -> &'static str;
    /// Its structs and unions.
    fn records(&self) -> &'static [RecordInfo];
    /// Record `k`'s size, alignment and field places, in its fields' order.
    fn shape(&self, k: usize) -> (usize, usize, &[Place]);
}

/// What a path ends at.
enum Target {
    /// A scalar or pointer: its record, field, offset in the object and
    /// the offset of its record's start.
    Scalar { record: usize, field: usize, at: usize, base: usize },
    /// A record (the whole object for an empty path).
    Record { record: usize, at: usize },
    /// An array field, without an index.
    Array { record: usize, field: usize },
}

/// One step of a path.
enum Step<'p> {
    Name(&'p str),
    Index(usize),
}

/// A struct or union of a module in C memory, by name (`m.new_named`,
/// `m.view_named`, `m.view_records_named`): owned (zeroed, freed by `free`
/// or its drop) or a view of C's memory (never freed), of `count()`
/// records side by side.
pub struct NamedObject<'m> {
    block: Block,
    table: &'m dyn Shapes,
    record: usize,
    count: usize,
}

fn find(table: &dyn Shapes, name: &str, what: &str) -> Result<usize, Error> {
    table.records().iter().position(|r| r.name == name).ok_or_else(|| {
        let mut e = Error::new(ErrorKind::Unknown, table.module(), "bad argument #1 to '");
        for part in [what, "' (a struct or union of ", table.module(), " expected, got '", name, "')"] {
            e.append(part.as_bytes());
        }
        e
    })
}

fn parse<'p>(path: &'p str, name: &'static str) -> Result<Vec<Step<'p>>, Error> {
    let bad = || Error::new(ErrorKind::Field, name, "a path of names and [indexes] expected");
    let mut steps = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inside) = rest.strip_prefix('[') {
            let end = inside.find(']').ok_or_else(bad)?;
            steps.push(Step::Index(inside[..end].parse().map_err(|_| bad())?));
            rest = &inside[end + 1..];
            continue;
        }
        if !steps.is_empty() {
            rest = rest.strip_prefix('.').ok_or_else(bad)?;
        }
        let end = rest.find(|c| c == '.' || c == '[').unwrap_or(rest.len());
        if end == 0 {
            return Err(bad());
        }
        steps.push(Step::Name(&rest[..end]));
        rest = &rest[end..];
    }
    Ok(steps)
}

/// "index K out of range 0..LAST of field 'F'", as the other hosts say it.
fn index_error(name: &'static str, field: &str, k: usize, count: usize) -> Error {
    let mut e = Error::new(ErrorKind::Range, name, "index ");
    e.append(itoa(k as i128).text());
    e.append(b" out of range 0..");
    e.append(itoa(count as i128 - 1).text());
    e.append(b" of field '");
    e.append(field.as_bytes());
    e.append(b"'");
    e
}

/// The bytes of a scalar `width` bytes wide within its slot's bytes (the
/// slot's low-order ones, in the target's byte order).
fn low_bytes(slot: &mut [u8; 8], width: usize) -> &mut [u8] {
    if cfg!(target_endian = "little") {
        &mut slot[..width]
    } else {
        &mut slot[8 - width..]
    }
}

/// A C float (4 bytes in memory, a double in its slot).
fn is_float(code: &Code) -> bool {
    code.kind == Kind::Float && code.bytes == 4
}

impl<'m> NamedObject<'m> {
    /// A zeroed record `name` of the module, owned. Errors: no struct or
    /// union of that name (kind `Unknown`), no memory (kind `Count`).
    pub fn new(table: &'m dyn Shapes, name: &str) -> Result<NamedObject<'m>, Error> {
        let record = find(table, name, "new")?;
        let (size, align, _) = table.shape(record);
        let block = Block::new(size, align, table.records()[record].name)?;
        Ok(NamedObject { block, table, record, count: 1 })
    }

    /// A view of `count` records `name` at `ptr`, which C gave: never
    /// freed. Errors: an unknown name (kind `Unknown`), NULL (kind `Null`),
    /// a count whose bytes overflow (kind `Range`).
    pub fn view(table: &'m dyn Shapes, name: &str, ptr: Ptr, count: usize) -> Result<NamedObject<'m>, Error> {
        let record = find(table, name, "view")?;
        let block = Block::view(ptr, table.shape(record).0, count, table.records()[record].name)?;
        Ok(NamedObject { block, table, record, count })
    }

    /// The record's name.
    pub fn name(&self) -> &'static str {
        self.table.records()[self.record].name
    }

    /// The number of records (1 but for a view of several).
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn is_owned(&self) -> bool {
        self.block.is_owned()
    }

    pub fn is_freed(&self) -> bool {
        self.block.is_freed()
    }

    /// Frees an owned object now; on a view, only ends it. Every later use
    /// is an `Err` of kind `Closed`. `true` the first time, `false` after.
    pub fn free(&mut self) -> bool {
        self.block.free()
    }

    fn whole(&self) -> Mem<'_> {
        self.block.mem(0, self.table.shape(self.record).0 * self.count, self.name())
    }

    /// Its address, to pass where C expects a `T *`. Errors: freed.
    pub fn ptr(&self) -> Result<Ptr, Error> {
        self.whole().ptr()
    }

    /// A copy of all its bytes (of every record of a view of several).
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        self.whole().to_bytes()
    }

    /// All its bytes copied in. Errors: another size (kind `Count`).
    pub fn set_bytes(&self, bytes: &[u8]) -> Result<(), Error> {
        self.whole().set_bytes(bytes)
    }

    fn resolve(&self, path: &str) -> Result<Target, Error> {
        // a freed object refuses every path (kind Closed)
        self.whole().ptr()?;
        let records = self.table.records();
        let (mut record, mut at) = (self.record, 0);
        let mut steps = parse(path, self.name())?.into_iter().peekable();
        if let Some(&Step::Index(k)) = steps.peek() {
            if k >= self.count {
                return Err(Error::new(ErrorKind::Range, self.name(), "record index out of range"));
            }
            at = k * self.table.shape(record).0;
            steps.next();
        }
        while let Some(step) = steps.next() {
            let info = &records[record];
            let name = match step {
                Step::Name(name) => name,
                Step::Index(_) => return Err(Error::new(ErrorKind::Field, info.name, "an index into a record")),
            };
            let field = info.fields.iter().position(|f| f.name == name).ok_or_else(|| {
                // the other hosts' words: "cdata.cd_event has no field 'f'"
                let mut e = Error::new(ErrorKind::Field, info.name, self.table.module());
                for part in [".", info.name, " has no field '", name, "'"] {
                    e.append(part.as_bytes());
                }
                e
            })?;
            let (fi, place) = (&info.fields[field], self.table.shape(record).2[field]);
            let mut here = at + place.offset;
            if fi.array {
                match steps.next() {
                    None => return Ok(Target::Array { record, field }),
                    Some(Step::Index(k)) if k < place.count => here += k * (place.size / place.count),
                    Some(Step::Index(k)) => return Err(index_error(info.name, name, k, place.count)),
                    Some(Step::Name(_)) => {
                        return Err(kind_error(ErrorKind::Field, info.name, At::Field(name), "an index expected"))
                    }
                }
            }
            match fi.record {
                Some(inner) => {
                    record = inner;
                    at = here;
                }
                None if steps.peek().is_none() => return Ok(Target::Scalar { record, field, at: here, base: at }),
                None => return Err(kind_error(ErrorKind::Field, info.name, At::Field(name), "a scalar has no fields")),
            }
        }
        Ok(Target::Record { record, at })
    }

    /// The code, width and place of a scalar target's element.
    fn scalar(&self, record: usize, field: usize) -> Result<(Code, usize, &'static str), Error> {
        let info = &self.table.records()[record];
        let place = self.table.shape(record).2[field];
        let name = info.fields[field].name;
        let width = place.size / place.count.max(1);
        let code = abi::CODES.iter().find(|c| c.code == place.code).copied()
            .filter(|c| width == if c.bytes == 0 { core::mem::size_of::<usize>() } else { c.bytes as usize })
            .ok_or_else(|| kind_error(ErrorKind::Layout, info.name, At::Field(name), "a field of no scalar code"))?;
        // a text field is read as its address (text() reads its bytes)
        let code = match code.kind {
            Kind::String => abi::CODES.iter().find(|c| c.kind == Kind::Pointer).copied().unwrap_or(code),
            _ => code,
        };
        Ok((code, width, name))
    }

    /// The value of field `field` of `record` at `at` in the object.
    fn read(&self, record: usize, field: usize, at: usize) -> Result<Dyn, Error> {
        let (code, width, _) = self.scalar(record, field)?;
        let mut slot = [0u8; 8];
        self.whole().read_into(at, low_bytes(&mut slot, width))?;
        let value = u64::from_ne_bytes(slot);
        // a float's slot holds it widened to a double
        decode(&code, if is_float(&code) { f32::from_bits(value as u32).to_slot() } else { value })
    }

    fn not_scalar(&self, target: &Target) -> Error {
        let records = self.table.records();
        match *target {
            Target::Array { record, field } => kind_error(ErrorKind::Type, records[record].name,
                At::Field(records[record].fields[field].name), "an array: use its elements"),
            _ => Error::new(ErrorKind::Type, self.name(), "a record: use its fields"),
        }
    }

    /// The scalar or pointer at `path` (an integer, float or bool; a
    /// pointer as `Dyn::Ptr`, NULL as `Dyn::Null`). Errors: a bad path or
    /// no such field (kind `Field`), an index out of range (kind `Range`),
    /// a path to a record or array (kind `Type`), freed (kind `Closed`).
    pub fn get(&self, path: &str) -> Result<Dyn, Error> {
        match self.resolve(path)? {
            Target::Scalar { record, field, at, .. } => self.read(record, field, at),
            other => Err(self.not_scalar(&other)),
        }
    }

    /// Writes `value` at `path`: a scalar or pointer converted as a
    /// call's argument is (`Dyn::Ptr` or `Dyn::Null` for a pointer; a
    /// string or bytes, whose memory would not outlive the assignment, are
    /// refused), or a record as `Dyn::Struct` (its fields by name, nested
    /// records as `Dyn::Struct` too) or `Dyn::Bytes` of its size. Errors:
    /// those of `get`; a value of the wrong type (kind `Type`), out of
    /// range (`Range`), not integral (`Integral`); bytes of another size
    /// (`Count`). A refused value leaves the memory unchanged: a struct's
    /// fields are all checked before any is written.
    pub fn set(&self, path: &str, value: &Dyn) -> Result<(), Error> {
        self.store(path, value, false)?;
        self.store(path, value, true)
    }

    /// `set`, checking only (write false) or writing.
    fn store(&self, path: &str, value: &Dyn, write: bool) -> Result<(), Error> {
        match (self.resolve(path)?, value) {
            (Target::Scalar { record, field, at, .. }, _) => {
                let (code, width, name) = self.scalar(record, field)?;
                let function = self.table.records()[record].name;
                if code.kind != Kind::Int && code.kind != Kind::Float && code.kind != Kind::Bool {
                    let got = match value {
                        Dyn::Str(_) => "string",
                        Dyn::Bytes(_) => "bytes",
                        _ => "",
                    };
                    if !got.is_empty() {
                        let mut why = String::from("pointer expected, got ");
                        why.push_str(got);
                        why.push_str(": its memory would not outlive the assignment");
                        return Err(kind_error(ErrorKind::Type, function, At::Field(name), &why));
                    }
                }
                let slot = encode(&code, value, function, At::Field(name), &mut Vec::new())?;
                let slot = if is_float(&code) { f32::from_slot(slot).to_bits() as u64 } else { slot };
                let mut slot = slot.to_ne_bytes();
                if !write {
                    return Ok(());
                }
                self.whole().write_from(at, low_bytes(&mut slot, width))
            }
            (Target::Record { record, at }, Dyn::Bytes(bytes)) => {
                let whole = self.whole();
                let place = whole.sub(at, self.table.shape(record).0, self.table.records()[record].name);
                if !write {
                    return place.check_bytes(bytes.len());
                }
                place.set_bytes(bytes)
            }
            (Target::Record { .. }, Dyn::Struct(fields)) => {
                for (name, v) in fields {
                    let mut inner = String::from(path);
                    if !path.is_empty() {
                        inner.push('.');
                    }
                    inner.push_str(name);
                    self.store(&inner, v, write)?;
                }
                Ok(())
            }
            (Target::Record { .. }, _) => {
                Err(Error::new(ErrorKind::Type, self.name(), "a record: a struct or its bytes expected"))
            }
            (other, _) => Err(self.not_scalar(&other)),
        }
    }

    /// The bytes of the text field at `path` (the layout record's
    /// `texts`): exactly its count's bytes at its pointer, `None` for
    /// NULL. Errors: those of `get`; a field that is not text (kind `Type`).
    pub fn text_bytes(&self, path: &str) -> Result<Option<Vec<u8>>, Error> {
        let (record, field, at, base) = match self.resolve(path)? {
            Target::Scalar { record, field, at, base } => (record, field, at, base),
            other => return Err(self.not_scalar(&other)),
        };
        let info = &self.table.records()[record];
        let text = info.fields[field].text.ok_or_else(|| {
            kind_error(ErrorKind::Type, info.name, At::Field(info.fields[field].name), "not a text field")
        })?;
        let count = match text.count {
            TextCount::Fixed(n) => n,
            // the count field of the same record
            TextCount::Field(k) => match self.read(record, k, base + self.table.shape(record).2[k].offset)? {
                Dyn::Int(n) if n >= 0 => n as usize,
                _ => return Err(kind_error(ErrorKind::Range, info.name, At::Field(info.fields[k].name), "not a count")),
            },
        };
        self.whole().text_bytes(at, count)
    }

    /// The same as text (bad UTF-8 replaced).
    pub fn text(&self, path: &str) -> Result<Option<String>, Error> {
        Ok(self.text_bytes(path)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
    }
}

impl core::fmt::Debug for NamedObject<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let what = if self.is_owned() { "C object" } else { "view of" };
        write!(f, "<{} {}.{} at {:#x}>", what, self.table.module(), self.name(), self.block.addr())
    }
}
