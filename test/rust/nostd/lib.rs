//! A `#![no_std]` staticlib (no allocator, panics abort) over the module
//! generated from idl/examples/tour.idl: what a bare-metal program does.
//! main.c links it with the runtime and tour's wrappers and calls
//! `nostd_add`.
#![no_std]

use nccc::Runtime;

// `#[path = "DIR/tour.rs"] mod tour;`, written by build.rs
include!(concat!(env!("OUT_DIR"), "/modules.rs"));

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// a + b through the generated `tour.add`, with the runtime's registry in
/// a pool on this stack frame; 0 and the sum in *sum, or the failing
/// status (or 1 for an error of Rust's own).
#[no_mangle]
pub extern "C" fn nostd_add(a: i64, b: i64, sum: &mut i64) -> u32 {
    let mut pool = [0u8; 8192];
    let result = Runtime::new(&mut pool).and_then(|rt| {
        let m = tour::Module::bind(&rt)?;
        m.add(a, b)
    });
    match result {
        Ok(v) => {
            *sum = v;
            0
        }
        Err(e) if e.status != 0 => e.status,
        Err(_) => 1,
    }
}

/// The precompiled `core` refers to the unwinding personality even when
/// panics abort; nothing ever calls it here.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}
