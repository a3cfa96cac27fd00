// zlib streamed through a z_stream C object (docs/RUST.md, "C objects"):
// included by demo.rs and by the test test/cdata/rust/tests/zlib_stream.rs,
// each with the generated module `zlib` in scope.

/// Feeds `input` in `chunk`-byte pieces to `step` (deflate or inflate)
/// through the fields of `strm` (a z_stream made by `new`), and collects
/// what it writes, `chunk` bytes of room at a time, until the stream ends
/// (`finish`: the flush of the last piece). Errors: the module's, or a
/// status other than Z_OK, Z_STREAM_END and Z_BUF_ERROR (kind Status).
pub fn stream(z: &zlib::Module<'_>, strm: &zlib::c::z_stream_s<'_>,
              step: &dyn Fn(nccc::Ptr, i32) -> Result<i32, nccc::Error>, finish: i32,
              input: &[u8], chunk: usize) -> Result<Vec<u8>, nccc::Error> {
    let k = &z.constants;
    let mut outbuf = vec![0u8; chunk];
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let piece = &input[pos..(pos + chunk).min(input.len())];
        pos += piece.len();
        // the piece stays borrowed (and unmoved) while zlib reads it
        strm.set_next_in(nccc::Ptr::to(piece))?;
        strm.set_avail_in(piece.len() as u32)?;
        let flush = if pos >= input.len() { finish } else { k.Z_NO_FLUSH };
        loop {
            strm.set_next_out(nccc::Ptr::to_mut(&mut outbuf[..]))?;
            strm.set_avail_out(chunk as u32)?;
            let st = step(nccc::CRecord::ptr(strm)?, flush)?;
            if st != k.Z_OK && st != k.Z_STREAM_END && st != k.Z_BUF_ERROR {
                return Err(nccc::Error::new(nccc::ErrorKind::Status, "zlib", "a stream error"));
            }
            let room = strm.avail_out()? as usize;
            out.extend_from_slice(&outbuf[..chunk - room]);
            if st == k.Z_STREAM_END {
                return Ok(out);
            }
            if room != 0 {
                break;
            }
        }
        if pos >= input.len() && flush == k.Z_NO_FLUSH {
            return Ok(out);
        }
    }
}
