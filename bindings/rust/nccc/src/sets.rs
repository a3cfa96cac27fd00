//! Closure sets (docs/IDL.md, "Closures kept by an owner"; feature
//! `alloc`): callbacks a library registers one by one on an owning object
//! and calls with the user data another function sets. There is one
//! closure group per owner and set, claimed `forever` on the owner's
//! first use; its member k runs the closure last registered for member k
//! (none: its results are 0). The group is released after the owner's
//! destructor returns: the generated method of the destructor, or the
//! close or drop of the `nccc::Owned` that frees through it. Dropping the
//! `Runtime` releases every group left.
//!
//! The table of groups is the process's, as the C runtime is: a small
//! spin lock (lock.rs) guards it and each member's closure, held only to
//! take or put a value, never while a closure runs.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::abi;
use crate::callback::claim_boxed_all;
use crate::error::Error;
use crate::lock::SpinLock;
use crate::runtime::{run_builtin, Runtime};
use crate::slot::Ptr;

type SlotFn = Box<dyn FnMut(&[u64], &mut [u64]) + Send>;

/// A member of a set as the generated module describes it: its callback
/// type's signature for the bound target (ending in NUL) and its slot
/// counts (in, after the environment word; out).
pub type SetMember = (&'static str, usize, usize);

/// One member's closure; `generation` counts replacements, so a closure
/// taken out to run is put back only if nothing replaced it meanwhile.
struct Member {
    run: Option<SlotFn>,
    generation: u64,
}

struct Group {
    set: &'static str,
    owner: usize,
    context: u64,
    members: Arc<[SpinLock<Member>]>,
}

static GROUPS: SpinLock<Vec<Group>> = SpinLock::new(Vec::new());

/// The context of `owner`'s group of `set` (its name, "M.S"), claimed now
/// if it has none. Errors: the claim's (a full closure pool).
pub fn context(rt: &Runtime<'_>, set: &'static str, owner: Ptr, members: &[SetMember])
               -> Result<u64, Error> {
    group(rt, set, owner, members).map(|(context, _)| context)
}

/// Registers `run` (None: no closure) as member `k` of `owner`'s group of
/// `set`, claiming the group if it has none, and gives its context. The
/// closure it replaces is dropped.
pub fn register(rt: &Runtime<'_>, set: &'static str, owner: Ptr, members: &[SetMember], k: usize,
                run: Option<SlotFn>) -> Result<u64, Error> {
    let (context, slots) = group(rt, set, owner, members)?;
    let old = slots[k].with(|m| {
        m.generation += 1;
        core::mem::replace(&mut m.run, run)
    });
    drop(old);
    Ok(context)
}

fn group(rt: &Runtime<'_>, set: &'static str, owner: Ptr, members: &[SetMember])
         -> Result<(u64, Arc<[SpinLock<Member>]>), Error> {
    let found = GROUPS.with(|groups| {
        groups.iter().find(|g| g.set == set && g.owner == owner.addr())
            .map(|g| (g.context, g.members.clone()))
    });
    if let Some(found) = found {
        return Ok(found);
    }
    let slots: Arc<[SpinLock<Member>]> = members.iter()
        .map(|_| SpinLock::new(Member { run: None, generation: 0 })).collect();
    let claims = members.iter().enumerate().map(|(k, (signature, n_in, n_out))| {
        let slots = slots.clone();
        let run: SlotFn = Box::new(move |i: &[u64], o: &mut [u64]| run_member(&slots[k], i, o));
        (run, *n_in, *n_out, *signature)
    }).collect();
    let closure = claim_boxed_all(rt, abi::SCOPE_FOREVER, 0, claims)?;
    GROUPS.with(|groups| groups.push(Group { set, owner: owner.addr(), context: closure.context,
                                             members: slots.clone() }));
    Ok((closure.context, slots))
}

/// Runs the member's closure, taken out of its slot for the call (a
/// closure it runs may register another meanwhile) and put back after,
/// even when it panics, unless it was replaced.
fn run_member(slot: &SpinLock<Member>, input: &[u64], output: &mut [u64]) {
    struct PutBack<'s> {
        slot: &'s SpinLock<Member>,
        run: Option<SlotFn>,
        generation: u64,
    }
    impl Drop for PutBack<'_> {
        fn drop(&mut self) {
            let run = self.run.take();
            let stale = self.slot.with(|m| {
                if m.generation == self.generation {
                    m.run = run;
                    None
                } else {
                    run
                }
            });
            drop(stale);
        }
    }
    let (run, generation) = slot.with(|m| (m.run.take(), m.generation));
    let mut back = PutBack { slot, run, generation };
    match back.run.as_mut() {
        Some(run) => run(input, output),
        None => output.iter_mut().for_each(|r| *r = 0),
    }
}

/// Releases `owner`'s groups of `sets` (after its destructor returned);
/// their closures are dropped.
pub fn release(sets: &[&'static str], owner: usize) {
    let gone: Vec<Group> = GROUPS.with(|groups| {
        let (gone, kept) = core::mem::take(groups).into_iter()
            .partition(|g| g.owner == owner && sets.contains(&g.set));
        *groups = kept;
        gone
    });
    release_groups(gone);
}

/// Releases every group (the runtime is going away).
pub(crate) fn release_all() {
    release_groups(GROUPS.with(core::mem::take));
}

fn release_groups(groups: Vec<Group>) {
    for g in groups {
        // the release notices drop the members' closures; a group C
        // released already is refused, and nothing is left to drop
        let _ = run_builtin(abi::CLOSURE_RELEASE, &[g.context], &mut [0]);
    }
}
