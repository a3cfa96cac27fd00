//! Links the library of a C-objects test (NCCC_CDATA_LIB: the module's
//! wrappers, the runtime and the C library, one shared library) and
//! declares its generated module (NCCC_CDATA_MODULE: the path of M.rs) in
//! OUT_DIR/module.rs, which lib.rs includes (a path attribute takes no
//! macro), with the test's uses refused at compile time when it has some
//! (NCCC_CDATA_REFUSALS: compile_fail doctests).
use std::env;
use std::fs;
use std::path::Path;

include!("../../rust/link.rs");

fn main() {
    let lib = env::var("NCCC_CDATA_LIB").expect("NCCC_CDATA_LIB: the test's library");
    let module = env::var("NCCC_CDATA_MODULE").expect("NCCC_CDATA_MODULE: the generated M.rs");
    link_library(&lib);
    let m = Path::new(&module).file_stem().expect("M.rs").to_string_lossy().to_string();
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut text = format!("#[path = {:?}]\npub mod {};\n", module, m);
    if let Ok(refusals) = env::var("NCCC_CDATA_REFUSALS") {
        text += &format!("include!({:?});\n", refusals);
        println!("cargo:rerun-if-changed={}", refusals);
    }
    fs::write(Path::new(&out).join("module.rs"), text).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-env-changed=NCCC_CDATA_LIB");
    println!("cargo:rerun-if-env-changed=NCCC_CDATA_MODULE");
    println!("cargo:rerun-if-env-changed=NCCC_CDATA_REFUSALS");
    println!("cargo:rerun-if-changed={}", module);
}
