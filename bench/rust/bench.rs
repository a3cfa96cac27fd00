//! bench VARIANT N — runs one way of calling N times, for run.sh to count
//! instructions under callgrind. Variants: loop (the loop alone),
//! add.direct / add.generated, mix6.direct / mix6.generated (a direct
//! `extern "C"` call of the C function against the generated module's
//! method), fold.direct / fold.generated (one call of bench_fold running
//! N callbacks: a plain `extern "C" fn` against a Rust closure through the
//! dispatcher).

use std::os::raw::c_void;
use std::ptr::{read_volatile, write_volatile};

use nccc::Runtime;

// `#[path = "DIR/bench.rs"] mod bench;`, written by build.rs
include!(concat!(env!("OUT_DIR"), "/modules.rs"));

extern "C" {
    fn bench_add(a: i64, b: i64) -> i64;
    fn bench_mix6(a: i32, b: f64, c: i64, d: f32, e: u8, f: f64) -> f64;
    fn bench_fold(n: i64, step: extern "C" fn(i64, i64, *mut c_void) -> i64, ctx: *mut c_void) -> i64;
}

extern "C" fn plain_step(acc: i64, i: i64, _: *mut c_void) -> i64 {
    acc.wrapping_add(i)
}

/// Reads an argument through memory the optimiser cannot see into, so
/// every iteration makes its call.
fn opaque<T: Copy>(v: &T) -> T {
    // SAFETY: v is a valid reference.
    unsafe { read_volatile(v) }
}

fn sink<T>(slot: &mut T, v: T) {
    // SAFETY: slot is a valid, unique reference.
    unsafe { write_volatile(slot, v) }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (variant, n): (&str, i64) = (&args[1], args[2].parse().expect("N"));
    let rt = Runtime::with_static_block().expect("runtime");
    let m = bench::Module::bind(&rt).expect("bench binds");
    let (a, b) = (opaque(&40i64), opaque(&2i64));
    let mut out_i = 0i64;
    let mut out_d = 0f64;
    match variant {
        "loop" => (0..n).for_each(|i| sink(&mut out_i, opaque(&i))),
        // SAFETY: bench_add is the C function the module wraps.
        "add.direct" => (0..n).for_each(|_| sink(&mut out_i, unsafe { bench_add(a, b) })),
        "add.generated" => (0..n).for_each(|_| sink(&mut out_i, m.add(a, b).unwrap())),
        "mix6.direct" => (0..n).for_each(|_| {
            // SAFETY: bench_mix6 is the C function the module wraps.
            sink(&mut out_d, unsafe { bench_mix6(a as i32, 1.5, b, 2.5, 7, 0.25) })
        }),
        "mix6.generated" => (0..n).for_each(|_| {
            sink(&mut out_d, m.mix6(a as i32, 1.5, b, 2.5, 7, 0.25).unwrap())
        }),
        // SAFETY: bench_fold calls plain_step n times with a NULL context.
        "fold.direct" => sink(&mut out_i, unsafe { bench_fold(n, plain_step, std::ptr::null_mut()) }),
        "fold.generated" => sink(&mut out_i, m.fold(n, &mut |acc, i| acc.wrapping_add(i)).unwrap()),
        _ => panic!("unknown variant {}", variant),
    }
    println!("{} {}", out_i, out_d);
}
