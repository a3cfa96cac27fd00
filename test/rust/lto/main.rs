//! tour.rs built as docs/RUST.md, "Static linking and LTO" says: its
//! methods call the wrappers by symbol (cfg `nccc_static = "tour"`), the
//! wrappers are LLVM bitcode from clang, and the linker optimises them
//! with the Rust code. Every kind of value still converts exactly; the
//! program exits non-zero (a failed assertion) on any difference.

include!(concat!(env!("OUT_DIR"), "/modules.rs"));

fn main() {
    let rt = nccc::Runtime::with_static_block().expect("the runtime starts");
    let m = tour::Module::bind(&rt).expect("tour binds");
    assert_eq!(m.add(i64::MAX, 1).unwrap(), i64::MIN);
    assert_eq!(m.echo_u8(255).unwrap(), 255);
    assert_eq!(m.sum_ints(&[1, 2, 3, 4]).unwrap(), 10);
    let mid = m.midpoint(tour::point { x: 2, y: 4 }, tour::point { x: 4, y: 8 }).unwrap();
    assert_eq!(mid, tour::point { x: 3, y: 6 });
    assert_eq!(m.divmod(17, 5).unwrap(), (3, 2));
    assert_eq!(m.text_length("statically linked").unwrap(), 17);
    let e = m.checked_div(1, 0).unwrap_err();
    assert_eq!((e.kind, e.errno), (nccc::ErrorKind::Errno, 33));
    let e = m.text_length("a\0b").unwrap_err();
    assert_eq!(e.kind, nccc::ErrorKind::Text);
    println!("tour through its wrappers' symbols, linked with LTO: ok");
}
