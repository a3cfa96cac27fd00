//! The README demo in Rust: zlib and SQLite through the modules generated
//! from idl/zlib.idl and idl/sqlite3.idl (--lang rust), zlib also
//! streamed through z_stream C objects, a row callback and a SQL function
//! written as Rust closures. No `unsafe`.
//!
//!     demo README.md    (tools/demo.sh builds it with cargo and runs it)
//!
//! Exits 1 on any mismatch.

use std::f64::consts::PI;
use std::process::exit;

use nccc::{CRecord, Error, Runtime};

// `#[path = "DIR/zlib.rs"] pub mod zlib;` and the same for sqlite3,
// written by build.rs from NCCC_DEMO_GENERATED
include!(concat!(env!("OUT_DIR"), "/modules.rs"));

// stream(z, strm, step, finish, input, chunk): zlib through a z_stream
include!("zlib_stream.rs");

fn main() {
    let file = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: demo FILE");
        exit(2)
    });
    match run(&file) {
        Ok(0) => println!("demo.rs: all results match"),
        Ok(n) => {
            println!("demo.rs: {} mismatches", n);
            exit(1)
        }
        Err(e) => {
            println!("demo.rs: {}", e);
            exit(1)
        }
    }
}

fn check(ok: bool, what: &str, failures: &mut usize) {
    if !ok {
        *failures += 1;
        println!("  MISMATCH: {}", what);
    }
}

fn run(file: &str) -> Result<usize, Error> {
    // The SQL function outlives this stack frame (SQLite keeps it until the
    // connection closes), so the runtime and the module it calls are 'static.
    let rt: &'static Runtime<'static> = Box::leak(Box::new(Runtime::with_static_block()?));
    let z = zlib::Module::bind(rt)?;
    let sql: &'static sqlite3::Module<'static> = Box::leak(Box::new(sqlite3::Module::bind(rt)?));
    let mut failures = 0;
    println!("zlib {}, SQLite {}", z.zlibVersion()?.unwrap_or_default(),
             sql.sqlite3_libversion()?.unwrap_or_default());

    println!("\n== zlib: {}", file);
    let text = std::fs::read(file).expect("the file is readable");
    let mut packed = vec![0u8; z.compressBound(text.len() as _)? as usize];
    let (rc, packed_len) = z.compress2(&mut packed, &text, z.constants.Z_BEST_COMPRESSION)?;
    check(rc == z.constants.Z_OK, "compress2", &mut failures);
    let mut back = vec![0u8; text.len()];
    let (rc, back_len) = z.uncompress(&mut back, &packed[..packed_len as usize])?;
    check(rc == z.constants.Z_OK, "uncompress", &mut failures);
    let crc_in = z.crc32(z.crc32(0, &[])?, &text)?;
    let crc_out = z.crc32(z.crc32(0, &[])?, &back[..back_len as usize])?;
    println!("  original    {:6} bytes  crc32 {:08x}", text.len(), crc_in);
    println!("  compressed  {:6} bytes  ({:.1}% of the original)", packed_len,
             100.0 * packed_len as f64 / text.len() as f64);
    println!("  round trip  {:6} bytes  crc32 {:08x}", back_len, crc_out);
    check(crc_in == crc_out && back == text, "the round trip differs", &mut failures);

    // the same bytes streamed 1 KiB at a time through z_streams: C objects
    // made by new, their fields (next_in, avail_out, ...) set by name
    let k = z.constants;
    let strm = z.new::<zlib::c::z_stream_s>()?;
    check(z.deflateInit(strm.ptr()?, k.Z_BEST_COMPRESSION)? == k.Z_OK, "deflateInit", &mut failures);
    let streamed = stream(&z, &strm, &|p, f| z.deflate(p, f), k.Z_FINISH, &text, 1024)?;
    check(z.deflateEnd(strm.ptr()?)? == k.Z_OK, "deflateEnd", &mut failures);
    let strm = z.new::<zlib::c::z_stream_s>()?;
    check(z.inflateInit(strm.ptr()?)? == k.Z_OK, "inflateInit", &mut failures);
    let inflated = stream(&z, &strm, &|p, f| z.inflate(p, f), k.Z_NO_FLUSH, &streamed, 1024)?;
    check(z.inflateEnd(strm.ptr()?)? == k.Z_OK, "inflateEnd", &mut failures);
    println!("  streamed    {:6} bytes through a z_stream in 1 KiB chunks, {} back",
             streamed.len(), inflated.len());
    check(inflated == text, "the streamed round trip differs", &mut failures);

    println!("\n== SQLite (:memory:)");
    let c = sql.constants;
    // the connection: an owned object ([out, owned(sqlite3_close)]), closed
    // by its close() below, or by its drop
    let (rc, connection) = sql.sqlite3_open(":memory:")?;
    check(rc == c.SQLITE_OK, "sqlite3_open", &mut failures);
    let db = connection.ptr()?;
    let planets = [("Mercury", 2439.7, 0), ("Venus", 6051.8, 0), ("Earth", 6371.0, 1),
                   ("Mars", 3389.5, 2), ("Jupiter", 69911.0, 95)];
    let (rc, _) = sql.sqlite3_exec(db, "CREATE TABLE planets (name TEXT, radius_km REAL, moons INTEGER)", None)?;
    check(rc == c.SQLITE_OK, "CREATE TABLE", &mut failures);
    for (name, radius, moons) in planets {
        let insert = format!("INSERT INTO planets VALUES ('{}', {}, {})", name, radius, moons);
        check(sql.sqlite3_exec(db, &insert, None)?.0 == c.SQLITE_OK, &insert, &mut failures);
    }
    println!("  inserted {} rows", planets.len());

    // the row callback: a closure borrowing `rows` for the one call
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut row = |values: &[nccc::Ptr], _names: &[nccc::Ptr]| -> i32 {
        rows.push(values.iter().map(|v| rt.string_at(*v).ok().flatten()
                                     .unwrap_or_else(|| "NULL".into())).collect());
        0
    };
    let (rc, _) = sql.sqlite3_exec(db, "SELECT name, radius_km, moons FROM planets ORDER BY radius_km",
                                   Some(&mut row))?;
    check(rc == c.SQLITE_OK, "SELECT", &mut failures);
    println!("  sqlite3_exec, a Rust row callback:");
    for r in &rows {
        println!("    {:<8} {:>9} km  {:>3} moons", r[0], r[1], r[2]);
    }
    check(rows.len() == planets.len(), "the callback's rows", &mut failures);

    // the SQL function: a boxed closure SQLite keeps until the connection closes
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = calls.clone();
    let area = move |ctx: nccc::Ptr, argv: &[nccc::Ptr]| {
        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let r = sql.sqlite3_value_double(argv[0]).unwrap_or(f64::NAN);
        let _ = sql.sqlite3_result_double(ctx, 4.0 * PI * r * r);
    };
    let rc = sql.sqlite3_create_function_v2(db, "sphere_area", 1,
                                            c.SQLITE_UTF8 | c.SQLITE_DETERMINISTIC,
                                            Some(Box::new(area)), nccc::FnPtr::NULL,
                                            nccc::FnPtr::NULL)?;
    check(rc == c.SQLITE_OK, "sqlite3_create_function_v2", &mut failures);
    let mut areas: Vec<(String, f64)> = Vec::new();
    let mut collect = |values: &[nccc::Ptr], _: &[nccc::Ptr]| -> i32 {
        let name = rt.string_at(values[0]).ok().flatten().unwrap_or_default();
        let area = rt.string_at(values[1]).ok().flatten().and_then(|a| a.parse().ok());
        areas.push((name, area.unwrap_or(f64::NAN)));
        0
    };
    let (rc, _) = sql.sqlite3_exec(db, "SELECT name, sphere_area(radius_km) AS area FROM planets ORDER BY area DESC",
                                   Some(&mut collect))?;
    check(rc == c.SQLITE_OK, "SELECT sphere_area", &mut failures);
    println!("  sphere_area(radius_km), a SQL function written in Rust:");
    for (name, got) in &areas {
        let radius = planets.iter().find(|p| p.0 == name).map_or(f64::NAN, |p| p.1);
        let want = 4.0 * PI * radius * radius;
        println!("    {:<8} {:14.0} km2", name, got);
        check((got - want).abs() <= 1e-12 * want, name, &mut failures);
    }
    let n = calls.load(std::sync::atomic::Ordering::SeqCst);
    check(areas.len() == planets.len() && n == planets.len(), "sphere_area's calls", &mut failures);
    let in_use = rt.closure_stats()?.in_use;
    check(connection.close(), "closing the connection", &mut failures);
    let released = rt.closure_stats()?.in_use + 1 == in_use;
    println!("  closed; sphere_area ran {} times, its closure {}", n,
             if released { "was released (and dropped) by the destroy notify" } else { "is STILL HELD" });
    check(released, "the destroy notify did not release the closure", &mut failures);
    Ok(failures)
}
