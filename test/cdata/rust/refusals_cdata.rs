// The uses of C objects Rust refuses when compiled, as compile_fail
// doctests (E0308: mismatched types), included by lib.rs for cdata_rust.

/// A field written with a value of another type does not compile:
///
/// ```compile_fail,E0308
/// nccc_cdata_test::with_runtime(|rt| {
///     let m = nccc_cdata_test::cdata::Module::bind(rt).unwrap();
///     let ev = m.new::<nccc_cdata_test::cdata::c::cd_event>().unwrap();
///     ev.set_type(1.5).unwrap();
/// });
/// ```
///
/// nor does an object of one record passed where another is viewed:
///
/// ```compile_fail,E0308
/// nccc_cdata_test::with_runtime(|rt| {
///     let m = nccc_cdata_test::cdata::Module::bind(rt).unwrap();
///     let ev = m.new::<nccc_cdata_test::cdata::c::cd_event>().unwrap();
///     let big = m.new::<nccc_cdata_test::cdata::c::cd_big>().unwrap();
///     nccc::CRecord::copy_from(&*ev, &*big).unwrap();
/// });
/// ```
///
/// The same calls with the right types compile and run:
///
/// ```
/// nccc_cdata_test::with_runtime(|rt| {
///     let m = nccc_cdata_test::cdata::Module::bind(rt).unwrap();
///     let ev = m.new::<nccc_cdata_test::cdata::c::cd_event>().unwrap();
///     ev.set_type(1).unwrap();
///     let other = m.new::<nccc_cdata_test::cdata::c::cd_event>().unwrap();
///     nccc::CRecord::copy_from(&*other, &*ev).unwrap();
///     assert_eq!(other.r#type().unwrap(), 1);
/// });
/// ```
pub struct Refusals;
