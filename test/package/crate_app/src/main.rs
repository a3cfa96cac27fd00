//! The crate test's program (crate.sh): the crate nccc from its packaged
//! .crate, the modules tour.rs and hcb.rs that crate.sh generates beside
//! this file, one call and one callback into the host test fixture.
//! Prints "rust: add 42, fold 6".
mod hcb;
mod tour;

fn main() -> Result<(), nccc::Error> {
    let rt = nccc::Runtime::with_static_block()?;
    let sum = tour::Module::bind(&rt)?.add(40, 2)?;
    let folded = hcb::Module::bind(&rt)?.fold(4, &mut |acc, i| acc + i)?;
    println!("rust: add {}, fold {}", sum, folded);
    std::process::exit(if sum == 42 && folded == 6 { 0 } else { 1 });
}
