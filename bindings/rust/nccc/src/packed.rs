//! Rust closures as global packed functions (feature `alloc`;
//! docs/PACKED.md, "Registering"): C code finds them by name through
//! TVM's registry (`TVMFuncGetGlobal`, `TVMFuncCall`) and the hosts
//! through `tvm.call_global`. The runtime's adapter converts TVM's values
//! by the packed signature and calls the crate's dispatcher.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::callback::{free_entry, leak_entry};
use crate::dynamic::{slot_closure, Dyn};
use crate::error::{Error, ErrorKind};
use crate::runtime::Runtime;
use crate::slot::{Ptr, Value};

/// The slot code of a packed signature's code: integers of 64 bits,
/// doubles, strings, and pointers for the handle types.
fn slot_code(packed: char) -> Option<char> {
    Some(match packed {
        'l' | 'i' | 'b' | '?' => 'l',
        'L' | 'I' => 'L',
        'd' | 'f' => 'd',
        's' => 's',
        'p' | 'y' | 'm' | 'k' | 't' | 'h' => 'p',
        ':' => ':',
        _ => return None,
    })
}

impl Runtime<'_> {
    /// Registers `f` as the global packed function `name` of packed
    /// signature `psig` (TVM's codes: `"ll:l"` takes two `int64_t` and
    /// returns one; at most one result). `f` gets the arguments as `Dyn`
    /// values and returns its result (`vec![]` for none); a result that
    /// does not fit is a panic of the callback. A panic in `f` gives C a
    /// 0 result and is reported by the forward call that led to it. `f`
    /// lives for the rest of the process: TVM's registry never says when
    /// a name stops being used. Errors: a malformed `psig` (kind
    /// `Signature`), a name registered already (kind `Status`, TVM's
    /// `kTvmErrorFunctionAlreadyDefined`).
    pub fn register_packed(&self, name: &str, psig: &str,
                           f: Box<dyn FnMut(&[Dyn]) -> Vec<Dyn> + Send>) -> Result<(), Error> {
        let malformed = || Error::new(ErrorKind::Signature, "tvm.register_env", "a malformed packed signature");
        let signature: String = psig.chars().map(slot_code).collect::<Option<String>>()
            .ok_or_else(malformed)?;
        if signature.matches(':').count() != 1 || signature.split(':').nth(1).map_or(0, str::len) > 1 {
            return Err(malformed());
        }
        let (run, n_in, n_out) = slot_closure(&signature, f)?;
        let (env, dispatcher) = leak_entry(run, n_in, n_out);
        let args = [Dyn::Str(name.into()), Dyn::Ptr(Ptr::from_slot(dispatcher)), Dyn::Int(env as i128),
                    Dyn::Str(psig.into()), Dyn::Int(0)];
        let status = match self.call_dynamic("tvm.register_env", &args) {
            Ok(out) => match out.first() {
                Some(Dyn::Int(status)) => *status as u32,
                _ => 0,
            },
            Err(e) => {
                // SAFETY: the registration failed before C kept env.
                unsafe { free_entry(env) };
                return Err(e);
            }
        };
        if status != crate::abi::OK {
            // SAFETY: the registry refused the name: C keeps no env.
            unsafe { free_entry(env) };
            return Err(self.error(status, "tvm.register_env"));
        }
        Ok(())
    }
}
