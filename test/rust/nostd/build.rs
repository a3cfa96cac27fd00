//! Declares the module generated into NCCC_NOSTD_GENERATED (tour.rs).
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let generated = env::var("NCCC_NOSTD_GENERATED").expect("NCCC_NOSTD_GENERATED: a directory");
    let modules = format!("#[path = {:?}]\nmod tour;\n", format!("{}/tour.rs", generated));
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(Path::new(&out).join("modules.rs"), modules).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed={}/tour.rs", generated);
    println!("cargo:rerun-if-env-changed=NCCC_NOSTD_GENERATED");
}
