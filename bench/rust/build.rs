//! Links the benchmark's C side (NCCC_BENCH_LIBS: the static libraries of
//! the bench wrappers, their targets and the runtime, in link order) and
//! declares the module generated into NCCC_BENCH_GENERATED (bench.rs).
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let libs = env::var("NCCC_BENCH_LIBS").expect("NCCC_BENCH_LIBS: static libraries");
    for lib in libs.split(':') {
        let path = Path::new(lib);
        let dir = path.parent().expect("a directory").display().to_string();
        let name = path.file_stem().expect("a file name").to_string_lossy();
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib=static={}", name.trim_start_matches("lib"));
    }
    println!("cargo:rustc-link-lib=dylib=pthread");
    let generated = env::var("NCCC_BENCH_GENERATED").expect("NCCC_BENCH_GENERATED: a directory");
    let modules = format!("#[path = {:?}]\nmod bench;\n", format!("{}/bench.rs", generated));
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(Path::new(&out).join("modules.rs"), modules).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-env-changed=NCCC_BENCH_LIBS");
    println!("cargo:rerun-if-env-changed=NCCC_BENCH_GENERATED");
}
