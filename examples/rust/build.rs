//! Links the demo library (NCCC_DEMO_LIB: libnccc_demo.so, the runtime with
//! the zlib and SQLite wrappers) and declares the modules generated into
//! NCCC_DEMO_GENERATED (zlib.rs, sqlite3.rs); tools/demo.sh sets both.
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let lib = env::var("NCCC_DEMO_LIB").expect("NCCC_DEMO_LIB: the demo library");
    let generated = env::var("NCCC_DEMO_GENERATED").expect("NCCC_DEMO_GENERATED: a directory");
    let path = Path::new(&lib);
    let dir = path.parent().expect("a directory").display().to_string();
    let name = path.file_stem().expect("a file name").to_string_lossy();
    println!("cargo:rustc-link-search=native={}", dir);
    println!("cargo:rustc-link-lib=dylib={}", name.trim_start_matches("lib"));
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    let mut modules = String::new();
    for m in ["zlib", "sqlite3"] {
        modules += &format!("#[path = {:?}]\npub mod {};\n", format!("{}/{}.rs", generated, m), m);
        println!("cargo:rerun-if-changed={}/{}.rs", generated, m);
    }
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(Path::new(&out).join("modules.rs"), modules).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-env-changed=NCCC_DEMO_LIB");
    println!("cargo:rerun-if-env-changed=NCCC_DEMO_GENERATED");
}
