//! Calls by name or handle with values known only at run time (feature
//! `alloc`): each argument is converted by the registry signature's code
//! for its slot, with the checks a generated module leaves to the compiler
//! (type, range, integral numbers, slot count, NUL in strings), and each
//! result decoded by its code. Structs go by the module's layout table.
//! Closures made here convert their arguments and results the same way.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::abi::{self, Code, Kind};
use crate::callback::{claim_boxed_all, Closure};
use crate::convert::{decode, encode, encode_slot, itoa, kind_error, At};
pub use crate::convert::Dyn;
use crate::error::{Error, ErrorKind};
use crate::runtime::{Handle, Runtime};
use crate::slot::{slot_bytes, slot_bytes_mut};

/// One slot's code, or a record of a module's layout table.
#[derive(Clone, Debug)]
enum Item {
    Code(Code),
    Record(String),
}

struct Side {
    items: Vec<Item>,
    variable: bool,
}

fn parse_side(text: &[u8]) -> Result<Side, Error> {
    let mut items = Vec::new();
    let mut variable = false;
    let mut k = 0;
    while k < text.len() {
        let c = text[k];
        if c == abi::SIG_VARIADIC {
            variable = true;
        } else if c == abi::SIG_RECORD_OPEN {
            let end = text[k..].iter().position(|&b| b == abi::SIG_RECORD_CLOSE)
                .ok_or_else(|| Error::new(ErrorKind::Signature, "", "an unclosed record"))?;
            let inner = &text[k + 1..k + end];
            let name = inner.split(|&b| b == abi::SIG_RECORD_COUNT).next().unwrap_or(inner);
            items.push(Item::Record(String::from_utf8_lossy(name).into_owned()));
            k += end;
        } else {
            let code = abi::CODES.iter().find(|x| x.code == c)
                .ok_or_else(|| Error::new(ErrorKind::Signature, "", "an unknown signature code"))?;
            items.push(Item::Code(*code));
        }
        k += 1;
    }
    Ok(Side { items, variable })
}

impl Runtime<'_> {
    /// Calls `name` ("M.F", a built-in "nccc.F", or a global) with `args`.
    /// Errors: no such function (kind `Unknown`), a wrong number of
    /// arguments (`Count`), a value of the wrong type (`Type`), out of range
    /// (`Range`), non-integral (`Integral`), a NUL in a string (`Text`).
    pub fn call_dynamic(&self, name: &'static str, args: &[Dyn]) -> Result<Vec<Dyn>, Error> {
        let h = self.lookup(name).map_err(|e| e.about(name, 0))?;
        self.call_handle(h, name, args)
    }

    /// `call_dynamic` for a generated module (its `call_dynamic`): first
    /// refuses a closure argument at position p (from 1) of `closures`
    /// made for other callback types than `signatures` (member k for
    /// signatures[k]), or of scope call where the parameter's `scope`
    /// ("call", "async", "notified", "forever") is another (C would keep
    /// it past its release), as the method's types would at compile time.
    /// A closure whose types the crate does not know (a context C gave)
    /// passes. Errors: those of `call_dynamic`; such a closure (kind
    /// `Type`, or kind `Scope` naming both scopes).
    pub fn call_typed(&self, name: &'static str, args: &[Dyn], closures: &[(usize, &str, &[&str])])
                      -> Result<Vec<Dyn>, Error> {
        for (position, scope, signatures) in closures {
            if let Some(Dyn::Closure(c)) = args.get(position - 1) {
                let what = if !c.made_for(signatures) {
                    Some((ErrorKind::Type, String::from("closure for '") + &signatures.join("', '") + "' expected"))
                } else if c.scope == abi::SCOPE_CALL && *scope != "call" {
                    // C would keep it past its release
                    Some((ErrorKind::Scope, String::from("closure of scope '") + scope
                          + "' expected, got one of scope 'call' (make it with scope '" + scope + "')"))
                } else {
                    None
                };
                if let Some((kind, what)) = what {
                    release_call_closures(self, args);
                    return Err(kind_error(kind, name, At::Arg(*position), &what));
                }
            }
        }
        self.call_dynamic(name, args)
    }

    /// The same through a handle; `name` names the function in errors and
    /// its module has the layouts of the structs it takes.
    pub fn call_handle(&self, h: Handle, name: &'static str, args: &[Dyn]) -> Result<Vec<Dyn>, Error> {
        self.call_sized(h, name, None, args)
    }

    /// Calls a built-in whose results end in '*' (`nccc.read`), with
    /// `count` slots for them: gives the results, then the `count` slots
    /// as `Dyn::Int`. Errors: those of `call_dynamic`, a count smaller
    /// than the arguments say (kind `Count`), a function that is not such
    /// a built-in (kind `Signature`: the crate could not check `count`).
    pub fn call_var(&self, name: &'static str, count: usize, args: &[Dyn]) -> Result<Vec<Dyn>, Error> {
        let h = self.lookup(name).map_err(|e| e.about(name, 0))?;
        self.call_sized(h, name, Some(count), args)
    }

    fn call_sized(&self, h: Handle, name: &'static str, count: Option<usize>, args: &[Dyn])
                  -> Result<Vec<Dyn>, Error> {
        let (f, signature) = self.function(h)?;
        let mut sides = signature.split(|&b| b == abi::SIG_SEPARATOR);
        let ins = parse_side(sides.next().unwrap_or(b""))?;
        let outs = parse_side(sides.next().unwrap_or(b""))?;
        let module = name.split('.').next().unwrap_or("");
        let rest = abi::SIZED.iter().find(|(n, _)| *n == name).map(|(_, r)| *r);
        let fixed = ins.items.len();
        let extra = match rest {
            Some(r) if ins.variable || outs.variable => {
                let n = match args.get(r.arg) { Some(Dyn::Int(n)) if *n >= 0 => *n as usize, _ => 0 };
                (n * r.mul + r.div - 1) / r.div
            }
            _ => 0,
        };
        // a '*' side of a built-in takes what its counting argument says; of
        // another function, any number of slots
        let count_ok = match (ins.variable, rest) {
            (true, None) => args.len() >= fixed,
            (true, Some(_)) => args.len() == fixed + extra,
            (false, _) => args.len() == fixed,
        };
        let refused = if !count_ok {
            Some(count_error(name, fixed + if rest.is_some() { extra } else { 0 }, args.len()))
        } else {
            out_count_error(name, outs.variable, rest.is_some(), extra, count)
        };
        if let Some(e) = refused {
            release_call_closures(self, args);
            return Err(e);
        }
        let extra = count.unwrap_or(0);
        let mut input = Vec::new();
        let mut strings = Vec::new();
        let encoded = self.encode_args(&ins, module, name, args, &mut input, &mut strings);
        if let Err(e) = encoded {
            release_call_closures(self, args);
            return Err(e);
        }
        let mut n_out = 0;
        for item in &outs.items {
            n_out += match item {
                Item::Code(_) => 1,
                Item::Record(r) => (self.layout(module, r)?.size + 7) / 8,
            };
        }
        let mut output = vec![0u64; n_out + extra];
        if input.len() < f.n_in() || output.len() < f.n_out() {
            return Err(Error::new(ErrorKind::Count, name, "fewer slots than the signature"));
        }
        // a generated wrapper that refuses a value (NULL for [nonnull], a
        // stale closure, a full thunk pool) says so only in the thread's
        // last error: cleared before a call of a function with an argument
        // of a kind it refuses, and only its refusals raised after (the
        // built-ins and the TVM module's functions give their status in
        // out[0])
        let refusable = module != abi::BUILTINS_MODULE && module != abi::PACKED_MODULE
            && ins.items.iter().any(|item| {
                matches!(item, Item::Code(c) if abi::REFUSAL_KINDS.contains(&c.kind))
            });
        if refusable {
            self.clear_error()?;
        }
        let null_closure = ins.items.iter().zip(args).any(|(item, a)| {
            matches!((item, a), (Item::Code(c), Dyn::Null) if c.kind == Kind::Closure)
        });
        f.call(&input, &mut output);
        drop(strings);
        crate::callback::take_panic(name)?;
        if refusable {
            self.check_refusal(name).map_err(|mut e| {
                e.kind = match e.status {
                    abi::ERR_NULL_POINTER => ErrorKind::Null,
                    abi::ERR_STALE_CLOSURE if null_closure => ErrorKind::Null,
                    abi::ERR_STALE_CLOSURE => ErrorKind::Released,
                    _ => e.kind,
                };
                e
            })?;
        }
        let mut results = Vec::new();
        let mut at = 0;
        for item in &outs.items {
            match item {
                Item::Code(code) => {
                    results.push(decode(code, output[at])?);
                    at += 1;
                }
                Item::Record(r) => {
                    let (value, used) = self.get_record(module, r, &output[at..])?;
                    results.push(value);
                    at += used;
                }
            }
        }
        results.extend(output[at..].iter().map(|&slot| Dyn::Int(slot as i128)));
        Ok(results)
    }

    fn encode_args(&self, ins: &Side, module: &str, name: &'static str, args: &[Dyn],
                   input: &mut Vec<u64>, strings: &mut Vec<Vec<u8>>) -> Result<(), Error> {
        let raw = abi::CODES.iter().find(|c| c.kind == Kind::Int && c.bytes == 8 && !c.signed)
            .copied().unwrap_or(abi::CODES[0]);
        for (k, value) in args.iter().enumerate() {
            match ins.items.get(k) {
                Some(Item::Code(code)) => input.push(encode(code, value, name, At::Arg(k + 1), strings)?),
                Some(Item::Record(r)) => self.put_record(module, r, value, name, k + 1, input)?,
                None => input.push(encode_slot(&raw, value, name, At::Arg(k + 1), strings, true)?),
            }
        }
        Ok(())
    }

    fn put_record(&self, module: &str, record: &str, value: &Dyn, function: &'static str,
                  position: usize, input: &mut Vec<u64>) -> Result<(), Error> {
        let layout = self.layout(module, record)?;
        let mut slots = vec![0u64; (layout.size + 7) / 8];
        let fields = match value {
            Dyn::Struct(fields) => fields,
            Dyn::Bytes(bytes) if bytes.len() <= layout.size => {
                slot_bytes_mut(&mut slots)[..bytes.len()].copy_from_slice(bytes);
                input.extend_from_slice(&slots);
                return Ok(());
            }
            _ => return Err(kind_error(ErrorKind::Type, function, At::Arg(position), "struct expected")),
        };
        for (field, v) in fields {
            let f = (0..layout.n_fields).map(|k| self.field(&layout, k))
                .find(|f| f.as_ref().map_or(true, |f| f.name == field.as_bytes()))
                .ok_or_else(|| kind_error(ErrorKind::Field, function, At::Arg(position), "no such field"))??;
            let code = abi::CODES.iter().find(|c| f.code.len() == 1 && c.code == f.code[0])
                .ok_or_else(|| kind_error(ErrorKind::Type, function, At::Arg(position), "a field of this type"))?;
            let slot = encode(code, v, function, At::Arg(position), &mut Vec::new())?;
            let bytes = slot_bytes_mut(&mut slots);
            let width = f.size / f.count.max(1);
            bytes[f.offset..f.offset + width].copy_from_slice(&slot.to_ne_bytes()[..width]);
        }
        input.extend_from_slice(&slots);
        Ok(())
    }

    fn get_record(&self, module: &str, record: &str, slots: &[u64]) -> Result<(Dyn, usize), Error> {
        let layout = self.layout(module, record)?;
        let n = (layout.size + 7) / 8;
        let bytes = slot_bytes(&slots[..n]);
        let mut fields = Vec::new();
        for k in 0..layout.n_fields {
            let f = self.field(&layout, k)?;
            let code = match abi::CODES.iter().find(|c| f.code.len() == 1 && c.code == f.code[0]) {
                Some(code) if f.count == 1 => code,
                _ => continue,
            };
            let mut raw = [0u8; 8];
            raw[..f.size].copy_from_slice(&bytes[f.offset..f.offset + f.size]);
            let value = match code.kind {
                Kind::Float if f.size == 4 => {
                    Dyn::Float(f32::from_ne_bytes([raw[0], raw[1], raw[2], raw[3]]) as f64)
                }
                _ => decode(code, u64::from_ne_bytes(raw))?,
            };
            fields.push((String::from_utf8_lossy(f.name).into_owned(), value));
        }
        Ok((Dyn::Struct(fields), n))
    }

    /// A closure of `scope` ("call", "async", "notified", "forever") for a
    /// callback of `signature` (its codes after the environment word, as
    /// "ii:i"), running `f` with the arguments decoded and encoding what
    /// it returns (a value that does not fit is a panic of the callback,
    /// reported by the forward call). Dropped when released. Errors: an
    /// unknown scope (kind `Scope`), a full closure pool (status).
    pub fn dynamic_closure(&self, scope: &str, signature: &str,
                           f: Box<dyn FnMut(&[Dyn]) -> Vec<Dyn> + Send>) -> Result<Closure, Error> {
        self.dynamic_group(scope, 0, vec![(signature, f)])
    }

    /// Closures sharing one context (member k is `members[k]`); for
    /// "async", `final_member`'s call ends the group.
    pub fn dynamic_group(&self, scope: &str, final_member: usize,
                         members: Vec<(&str, Box<dyn FnMut(&[Dyn]) -> Vec<Dyn> + Send>)>)
                         -> Result<Closure, Error> {
        let scope = abi::SCOPES.iter().find(|(name, _)| *name == scope).map(|s| s.1)
            .ok_or_else(|| Error::new(ErrorKind::Scope, "", "unknown scope"))?;
        let mut texts = Vec::new();
        let mut runs = Vec::new();
        for (signature, f) in members {
            let (run, n_in, n_out) = slot_closure(signature, f)?;
            let mut text = String::from(signature);
            text.push('\0');
            texts.push(text);
            runs.push((run, n_in, n_out));
        }
        let claims = runs.into_iter().zip(texts.iter())
            .map(|((run, n_in, n_out), text)| (run, n_in, n_out, text.as_str())).collect();
        claim_boxed_all(self, scope, final_member, claims)
    }
}

pub(crate) type SlotClosure = Box<dyn FnMut(&[u64], &mut [u64]) + Send>;

/// The slot-level closure around `f` for `signature`, and its slot counts.
pub(crate) fn slot_closure(signature: &str, mut f: Box<dyn FnMut(&[Dyn]) -> Vec<Dyn> + Send>)
                -> Result<(SlotClosure, usize, usize), Error> {
    let mut sides = signature.as_bytes().split(|&b| b == abi::SIG_SEPARATOR);
    let ins = parse_side(sides.next().unwrap_or(b""))?;
    let outs = parse_side(sides.next().unwrap_or(b""))?;
    let codes = |side: &Side| -> Result<Vec<Code>, Error> {
        side.items.iter().map(|i| match i {
            Item::Code(c) => Ok(*c),
            Item::Record(_) => Err(Error::new(ErrorKind::Type, "", "records in a dynamic closure")),
        }).collect()
    };
    let (in_codes, out_codes) = (codes(&ins)?, codes(&outs)?);
    let (n_in, n_out) = (in_codes.len(), out_codes.len().max(1));
    let run = move |i: &[u64], o: &mut [u64]| {
        let args: Vec<Dyn> = in_codes.iter().zip(i).map(|(c, s)| decode(c, *s).unwrap_or(Dyn::Null)).collect();
        let results = f(&args);
        for (k, ((c, v), slot)) in out_codes.iter().zip(results.iter()).zip(o.iter_mut()).enumerate() {
            let kind = Code { code: c.code, name: c.name, kind: if c.kind == Kind::Errno { Kind::Int } else { c.kind },
                              bytes: c.bytes, signed: c.signed, in_ok: true, out_ok: true };
            match encode(&kind, v, "", At::Arg(k + 1), &mut Vec::new()) {
                Ok(s) => *slot = s,
                // reported by the forward call, as any panic in a callback
                Err(e) => panic!("bad result #{} of a callback: {}", k + 1, e.message()),
            }
        }
    };
    Ok((Box::new(run), n_in, n_out))
}

fn count_error(name: &'static str, want: usize, got: usize) -> Error {
    let mut e = Error::new(ErrorKind::Count, name, "expects ");
    e.append(itoa(want as i128).text());
    e.append(b" arguments, got ");
    e.append(itoa(got as i128).text());
    e
}

/// The error of a '*' result side called without a count (or a count
/// for one it cannot check), or a count too small for the arguments.
fn out_count_error(name: &'static str, variable: bool, checked: bool, need: usize,
                   count: Option<usize>) -> Option<Error> {
    let message = match (variable, count) {
        (false, None) => return None,
        (false, Some(_)) => "no results ending in '*': call_dynamic",
        (true, None) => "results ending in '*' need a slot count: call_var",
        (true, Some(_)) if !checked => {
            return Some(Error::new(ErrorKind::Signature, name,
                                   "call_var checks the counts of the built-ins only"));
        }
        (true, Some(n)) if n >= need => return None,
        (true, Some(n)) => {
            let mut e = Error::new(ErrorKind::Count, name, "expects ");
            e.append(itoa(need as i128).text());
            e.append(b" extra out slots for its arguments, got a count of ");
            e.append(itoa(n as i128).text());
            return Some(e);
        }
    };
    Some(Error::new(ErrorKind::Count, name, message))
}

/// A call refused before C ran releases the call-scope closures passed to
/// it, as the forward wrapper would have at its end.
fn release_call_closures(rt: &Runtime<'_>, args: &[Dyn]) {
    for a in args {
        if let Dyn::Closure(c) = a {
            if c.scope == abi::SCOPE_CALL {
                let _ = c.release(rt);
            }
        }
    }
}
