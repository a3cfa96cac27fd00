// What the build scripts of the Rust tests share (include!d by
// test/rust/build.rs and test/cdata/rust/build.rs).

/// Links the shared library at path `lib`: its directory searched when
/// linking and kept as the run path, so the test finds it when it runs.
fn link_library(lib: &str) {
    let path = std::path::Path::new(lib);
    let dir = path.parent().expect("a directory").display().to_string();
    let name = path.file_stem().expect("a file name").to_string_lossy();
    println!("cargo:rustc-link-search=native={}", dir);
    println!("cargo:rustc-link-lib=dylib={}", name.trim_start_matches("lib"));
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
}
