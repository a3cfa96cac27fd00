//! Links the shared host fixture (test/hosts/fixture) and finds the
//! modules generated at build time: NCCC_FIXTURE is the library's path,
//! NCCC_RUST_GENERATED the directory holding tour.rs, hcb.rs, cdata.rs
//! and cases.rs (test/rust/CMakeLists.txt sets both). It writes the
//! module declarations of tour, hcb and cdata, and the inclusion of
//! refusals.rs (the cases refused at compile time, as compile_fail
//! doctests), into OUT_DIR/modules.rs.
use std::env;
use std::fs;
use std::path::Path;

include!("link.rs");

fn main() {
    let fixture = env::var("NCCC_FIXTURE").expect("NCCC_FIXTURE: the host fixture library");
    let generated = env::var("NCCC_RUST_GENERATED").expect("NCCC_RUST_GENERATED: a directory");
    link_library(&fixture);
    println!("cargo:rustc-env=NCCC_RUST_GENERATED={}", generated);
    let mut modules = String::new();
    for m in ["tour", "hcb", "cdata"] {
        modules += &format!("#[path = {:?}]\npub mod {};\n", format!("{}/{}.rs", generated, m), m);
    }
    modules += &format!("include!({:?});\n", format!("{}/refusals.rs", generated));
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(Path::new(&out).join("modules.rs"), modules).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-env-changed=NCCC_FIXTURE");
    println!("cargo:rerun-if-env-changed=NCCC_RUST_GENERATED");
    for m in ["tour.rs", "hcb.rs", "cdata.rs", "cases.rs", "refusals.rs"] {
        println!("cargo:rerun-if-changed={}/{}", generated, m);
    }
}
