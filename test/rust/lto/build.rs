//! Links tour's wrappers compiled to LLVM bitcode (NCCC_LTO_LIBS: static
//! libraries in link order, the wrappers first) and sets the cfg
//! `nccc_static = "tour"`, under which tour.rs (in NCCC_LTO_GENERATED)
//! calls its wrappers by symbol: with `-Clinker-plugin-lto` the linker
//! inlines them into the Rust code.
use std::env;
use std::fs;

fn main() {
    let libs = env::var("NCCC_LTO_LIBS").expect("NCCC_LTO_LIBS: static libraries");
    // whole paths after the Rust objects: the linker takes what they use
    libs.split(':').for_each(|lib| println!("cargo:rustc-link-arg={}", lib));
    println!("cargo:rustc-cfg=nccc_static=\"tour\"");
    let tour = format!("{}/tour.rs", env::var("NCCC_LTO_GENERATED").expect("NCCC_LTO_GENERATED"));
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(format!("{}/modules.rs", out), format!("#[path = {:?}]\nmod tour;\n", tour))
        .expect("OUT_DIR is writable");
    println!("cargo:rerun-if-env-changed=NCCC_LTO_LIBS");
    println!("cargo:rerun-if-env-changed=NCCC_LTO_GENERATED");
    println!("cargo:rerun-if-changed={}", tour);
}
