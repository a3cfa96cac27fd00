//! zlib streaming from Rust through a C object (docs/RUST.md, "C
//! objects"): 10 MiB deflated and inflated in 64 KiB chunks through a
//! z_stream made by `new`, its fields (next_in, avail_in, next_out,
//! avail_out, total_in, total_out, msg) read and written by name, and the
//! bytes come back equal. Run by ctest as cdata_zlib_rust (idl/zlib.idl,
//! linked with -lz).

use nccc::{CRecord, Ptr, Runtime};
use nccc_cdata_zlib_test::with_runtime;
use nccc_cdata_zlib_test::zlib::{self, c};

const SIZE: usize = 10 << 20;
const CHUNK: usize = 64 << 10;

/// 10 MiB of words from a small vocabulary, with a few random bytes: a
/// deterministic input that compresses but not to nothing.
fn data() -> Vec<u8> {
    let mut seed: u64 = 23;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let words: Vec<Vec<u8>> = (0..500)
        .map(|_| (0..2 + next() % 8).map(|_| b"abcdefgh"[next() % 8]).collect())
        .collect();
    let mut out = Vec::with_capacity(SIZE + 16);
    while out.len() < SIZE {
        out.extend_from_slice(&words[next() % words.len()]);
        if next() % 10 != 0 {
            out.push(b' ');
        } else {
            out.extend((0..3).map(|_| next() as u8));
        }
    }
    out.truncate(SIZE);
    out
}

// stream(z, strm, step, finish, input, chunk): the demo's
include!("../../../../examples/rust/zlib_stream.rs");

fn with_zlib(test: impl FnOnce(&Runtime<'_>, &zlib::Module<'_>)) {
    with_runtime(|rt| test(rt, &zlib::Module::bind(rt).expect("zlib binds")))
}

#[test]
fn deflate_inflate_10_mib_in_64_kib_chunks() {
    with_zlib(|_, m| {
        let k = &m.constants;
        let data = data();
        let mut strm = m.new::<c::z_stream_s>().unwrap();
        assert_eq!(m.deflateInit(strm.ptr().unwrap(), k.Z_DEFAULT_COMPRESSION).unwrap(), k.Z_OK);
        let packed = stream(m, &strm, &|p, f| m.deflate(p, f), k.Z_FINISH, &data, CHUNK).unwrap();
        assert_eq!(strm.total_in().unwrap() as usize, SIZE);
        assert_eq!(strm.total_out().unwrap() as usize, packed.len());
        assert_eq!(m.deflateEnd(strm.ptr().unwrap()).unwrap(), k.Z_OK);
        assert!(strm.free());
        assert!(packed.len() < SIZE / 2, "{} bytes", packed.len());
        // zlib's one-shot uncompress reads the stream back on its own
        let mut check = vec![0u8; SIZE];
        assert_eq!(m.uncompress(&mut check, &packed).unwrap(), (k.Z_OK, SIZE as nccc::c_ulong));
        assert!(check == data, "uncompress gives other bytes than the input");

        let strm = m.new::<c::z_stream_s>().unwrap();
        assert_eq!(m.inflateInit(strm.ptr().unwrap()).unwrap(), k.Z_OK);
        let back = stream(m, &strm, &|p, f| m.inflate(p, f), k.Z_NO_FLUSH, &packed, CHUNK).unwrap();
        assert_eq!(strm.total_out().unwrap() as usize, SIZE);
        assert_eq!(m.inflateEnd(strm.ptr().unwrap()).unwrap(), k.Z_OK);
        assert!(back == data, "the inflated bytes differ from the input");
    });
}

#[test]
fn an_error_message_is_a_field() {
    with_zlib(|rt, m| {
        let k = &m.constants;
        let strm = m.new::<c::z_stream_s>().unwrap();
        assert_eq!(m.inflateInit(strm.ptr().unwrap()).unwrap(), k.Z_OK);
        let garbage = [0xffu8; 16];
        let mut out = [0u8; 64];
        strm.set_next_in(Ptr::to(&garbage[..])).unwrap();
        strm.set_avail_in(16).unwrap();
        strm.set_next_out(Ptr::to_mut(&mut out[..])).unwrap();
        strm.set_avail_out(64).unwrap();
        assert_eq!(m.inflate(strm.ptr().unwrap(), k.Z_NO_FLUSH).unwrap(), k.Z_DATA_ERROR);
        let msg = rt.string_at(strm.msg().unwrap()).unwrap();
        assert_eq!(msg.as_deref(), Some("incorrect header check"));
        assert_eq!(m.inflateEnd(strm.ptr().unwrap()).unwrap(), k.Z_OK);
    });
}
