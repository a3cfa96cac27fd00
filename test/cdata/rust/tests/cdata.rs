//! C objects in Rust (docs/RUST.md, "C objects") over the cdata fixture
//! (test/cdata/cdata.idl, cdata.c) as a shared library: new, fields by
//! name through nested records, unions and arrays, the object passed as
//! a `T *`, borrowed views of C memory, whole-record copies, bytes in
//! both directions, an input C keeps held with its owner, and the errors
//! (an index past an array, a freed object, NULL). A wrong field type is
//! refused when compiled (refusals_cdata.rs). Run by ctest as cdata_rust.

use nccc::{abi, CRecord, ErrorKind, Ptr, Runtime};
use nccc_cdata_test::cdata::{self, c};
use nccc_cdata_test::with_runtime;

fn with_module<R>(test: impl FnOnce(&Runtime<'_>, &cdata::Module<'_>) -> R) -> R {
    with_runtime(|rt| test(rt, &cdata::Module::bind(rt).expect("cdata binds")))
}

#[test]
fn new_is_zeroed_and_of_the_library_size() {
    with_module(|_, m| {
        let ev = m.new::<c::cd_event>().unwrap();
        assert_eq!(m.layouts.cd_event.size, 64);
        assert_eq!(ev.to_bytes().unwrap(), vec![0u8; 64]);
        assert_eq!(ev.r#type().unwrap(), 0);
        assert!(ev.data().scalar().value().unwrap().is_null());
        assert_eq!(ev.data().scalar().value_text().unwrap(), None);
        let stamps = ev.stamps();
        assert_eq!(stamps.len(), 3);
        assert_eq!((0..3).map(|k| stamps.get(k).unwrap()).collect::<Vec<_>>(), [0.0; 3]);
        // a record the IDL names partly: the header's size, its one field
        // at the header's offset
        assert_eq!(m.layouts.cd_big.size, 68);
        assert_eq!(m.layouts.cd_big.fields[0].offset, 24);
    });
}

#[test]
fn c_fills_an_object_passed_as_a_pointer() {
    with_module(|_, m| {
        let ev = m.new::<c::cd_event>().unwrap();
        assert_eq!(m.cd_event_fill(ev.ptr().unwrap(), 2).unwrap(), 0);
        assert_eq!(ev.r#type().unwrap(), 2);
        let data = ev.data(); // a view borrows the record it came from
        let shape = data.shape();
        assert_eq!(shape.corners().at(0).unwrap().x().unwrap(), -3);
        assert_eq!(shape.corners().at(1).unwrap().y().unwrap(), 7);
        assert_eq!(shape.weight().unwrap(), 0.5); // a member of an anonymous union
        assert_eq!(ev.stamps().get(2).unwrap(), 2.25);
        assert_eq!(ev.ranges().at(1).unwrap().hi().unwrap(), -2);
        assert_eq!(m.cd_event_fill(ev.ptr().unwrap(), 1).unwrap(), 0);
        assert_eq!(ev.data().scalar().length().unwrap(), 5);
        assert_eq!(ev.data().scalar().value_text().unwrap().as_deref(), Some("café"));
    });
}

#[test]
fn fields_written_by_name_reach_c() {
    with_module(|_, m| {
        let big = m.new::<c::cd_big>().unwrap();
        big.set_used(41).unwrap();
        assert_eq!(m.cd_big_used(big.ptr().unwrap()).unwrap(), 41);
        big.set_used(big.used().unwrap() + 1).unwrap();
        assert_eq!(m.cd_big_used(big.ptr().unwrap()).unwrap(), 42);
        let ev = m.new::<c::cd_event>().unwrap();
        ev.data().shape().corners().at(1).unwrap().set_x(9).unwrap();
        ev.data().shape().set_tag(5).unwrap();
        ev.stamps().set(0, 1.5).unwrap();
        let bytes = ev.to_bytes().unwrap();
        let at = |o: usize| i32::from_ne_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let shape = m.layouts.cd_event.fields[1].offset + m.layouts.cd_event__data.fields[1].offset;
        assert_eq!(at(shape + m.layouts.cd_point.size + m.layouts.cd_point.fields[0].offset), 9);
        assert_eq!(at(shape + m.layouts.cd_event__data__shape.fields[1].offset), 5);
    });
}

#[test]
fn union_members_share_memory() {
    with_module(|_, m| {
        let ev = m.new::<c::cd_event>().unwrap();
        ev.data().shape().set_weight(1.0).unwrap();
        assert_eq!(ev.data().shape().tag().unwrap(), 0x3F80_0000);
        assert_eq!(m.layouts.cd_event__data.fields[0].offset, m.layouts.cd_event__data.fields[1].offset);
    });
}

#[test]
fn borrowed_view_of_c_memory() {
    with_module(|rt, m| {
        let size = m.layouts.cd_event.size as u64;
        let mut out = [0u64; 2];
        rt.run(abi::ALLOC, &[size], &mut out).unwrap();
        // SAFETY: the address C's alloc gave, of a cd_event's size.
        let p = unsafe { Ptr::from_addr(out[1] as usize) };
        {
            let mut view = m.view::<c::cd_event>(p).unwrap();
            assert!(!view.is_owned());
            assert_eq!(m.cd_event_fill(p, 2).unwrap(), 0);
            assert_eq!(view.data().shape().corners().at(1).unwrap().y().unwrap(), 7);
            view.set_type(12).unwrap();
            let mut peek = [0u64; 2];
            rt.run(abi::PEEK, &[out[1], b'i' as u64], &mut peek).unwrap();
            assert_eq!(peek[1] as i32, 12);
            assert_eq!(view.ptr().unwrap(), p);
            assert!(view.free()); // a view stops; C's memory stays
            assert_eq!(view.r#type().unwrap_err().kind, ErrorKind::Closed);
        }
        // the view's drop frees nothing: C's memory is still there
        let mut peek = [0u64; 2];
        rt.run(abi::PEEK, &[out[1], b'i' as u64], &mut peek).unwrap();
        assert_eq!(peek[1] as i32, 12);
        rt.run(abi::FREE, &[out[1]], &mut [0u64]).unwrap();
        assert_eq!(m.view::<c::cd_event>(Ptr::NULL).unwrap_err().kind, ErrorKind::Null);
    });
}

#[test]
fn array_indexes_are_checked() {
    with_module(|_, m| {
        let ev = m.new::<c::cd_event>().unwrap();
        ev.ranges().at(1).unwrap().set_lo(3).unwrap();
        assert_eq!(ev.ranges().at(1).unwrap().lo().unwrap(), 3);
        let past = ev.ranges().at(2).err().expect("index 2 of 2 records");
        assert_eq!(past.kind, ErrorKind::Range);
        assert_eq!(ev.stamps().get(3).unwrap_err().kind, ErrorKind::Range);
        assert_eq!(ev.stamps().set(3, 1.0).unwrap_err().kind, ErrorKind::Range);
        assert_eq!(ev.data().shape().corners().at(2).err().map(|e| e.kind), Some(ErrorKind::Range));
        // a view of records side by side: the corners of ev, as C would
        // hand a cd_point array
        let first = ev.data().shape().corners().at(0).unwrap().ptr().unwrap();
        let pts = m.view_records::<c::cd_point>(first, 2).unwrap();
        assert_eq!(pts.count(), 2);
        pts.nth(1).unwrap().set_y(4).unwrap();
        assert_eq!(ev.data().shape().corners().at(1).unwrap().y().unwrap(), 4);
        assert_eq!(pts.nth(2).err().map(|e| e.kind), Some(ErrorKind::Range));
    });
}

#[test]
fn whole_record_copies() {
    with_module(|_, m| {
        let ev = m.new::<c::cd_event>().unwrap();
        m.cd_event_fill(ev.ptr().unwrap(), 2).unwrap();
        let copy = m.new::<c::cd_event>().unwrap();
        copy.copy_from(&ev).unwrap();
        assert_eq!(copy.to_bytes().unwrap(), ev.to_bytes().unwrap());
        assert_eq!(copy.ranges().at(1).unwrap().hi().unwrap(), -2);
        copy.set_bytes(&[0u8; 64]).unwrap();
        assert_eq!(copy.ranges().at(1).unwrap().hi().unwrap(), 0);
        // a nested record copied out and in on its own
        let shape = ev.data().shape().to_bytes().unwrap();
        copy.data().shape().set_bytes(&shape).unwrap();
        assert_eq!(copy.data().shape().corners().at(1).unwrap().y().unwrap(), 7);
        assert_eq!(copy.r#type().unwrap(), 0);
        let e = copy.set_bytes(&[0u8; 3]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count);
    });
}

#[test]
fn a_freed_object_is_an_error() {
    with_module(|_, m| {
        let mut big = m.new::<c::cd_big>().unwrap();
        big.set_used(3).unwrap();
        assert!(big.free());
        assert!(!big.free());
        assert!(big.is_freed());
        assert_eq!(big.used().unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(big.set_used(1).unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(big.ptr().unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(big.to_bytes().unwrap_err().kind, ErrorKind::Closed);
        let mut ev = m.new::<c::cd_event>().unwrap();
        ev.free();
        assert_eq!(ev.ranges().at(0).unwrap().lo().unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(ev.stamps().get(0).unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(ev.data().shape().tag().unwrap_err().kind, ErrorKind::Closed);
    });
}

#[test]
fn parser_fills_events_from_its_input() {
    with_module(|_, m| {
        let parser = m.new::<c::cd_parser>().unwrap();
        let ev = m.new::<c::cd_event>().unwrap();
        let text = b"ab cde".to_vec();
        let at = Ptr::to(&text[..]);
        m.cd_parser_set_input(parser.ptr().unwrap(), text).unwrap();
        assert_eq!(parser.length().unwrap(), 6);
        assert_eq!(parser.input().unwrap(), at);
        let mut words = Vec::new();
        while m.cd_parser_next(parser.ptr().unwrap(), ev.ptr().unwrap()).unwrap() != 0 {
            words.push(ev.data().scalar().value_text().unwrap().unwrap());
        }
        assert_eq!(words, ["ab", "cde"]);
        assert_eq!(parser.at().unwrap(), 6);
    });
}

#[test]
fn kept_input_lives_with_its_owner() {
    with_module(|_, m| {
        let mut parser = m.new::<c::cd_parser>().unwrap();
        let ev = m.new::<c::cd_event>().unwrap();
        // [kept=p]: the method takes the buffer over and holds it for p
        m.cd_parser_set_input(parser.ptr().unwrap(), b"one two".to_vec()).unwrap();
        assert_eq!(nccc::kept::count(), 1);
        let mut words = Vec::new();
        while m.cd_parser_next(parser.ptr().unwrap(), ev.ptr().unwrap()).unwrap() != 0 {
            words.push(ev.data().scalar().value_text().unwrap().unwrap());
        }
        assert_eq!(words, ["one", "two"]);
        // a later call replaces what an earlier one kept for the same owner
        m.cd_parser_set_input(parser.ptr().unwrap(), b"x".to_vec()).unwrap();
        assert_eq!(nccc::kept::count(), 1);
        let other = m.new::<c::cd_parser>().unwrap();
        m.cd_parser_set_input(other.ptr().unwrap(), b"y".to_vec()).unwrap();
        assert_eq!(nccc::kept::count(), 2);
        // released with its owner: free, or drop
        assert!(parser.free());
        assert_eq!(nccc::kept::count(), 1);
        drop(other);
        assert_eq!(nccc::kept::count(), 0);
    });
}

#[test]
fn bytes_cross_as_slices_both_ways() {
    with_module(|_, m| {
        // a callback fills the buffer C gives it: &mut [u8] over C's memory
        let source = b"hello, world";
        let mut at = 0;
        let mut dest = [0u8; 32];
        let n = m.cd_read_all(&mut |buffer: &mut [u8]| {
            assert_eq!(buffer.len(), 4);
            let k = (source.len() - at).min(buffer.len());
            buffer[..k].copy_from_slice(&source[at..at + k]);
            at += k;
            k as i32
        }, &mut dest).unwrap();
        assert_eq!(&dest[..n], source);
        // unsigned-char text as &str
        assert_eq!(m.cd_text_length("café").unwrap(), 5);
    });
}

#[test]
fn fields_by_name_are_the_typed_fields() {
    use nccc::Dyn;
    with_module(|_, m| {
        let ev = m.new_named("cd_event").unwrap();
        assert_eq!(ev.to_bytes().unwrap(), vec![0u8; m.layouts.cd_event.size]);
        ev.set("type", &Dyn::Int(3)).unwrap();
        ev.set("data.shape.corners[1].y", &Dyn::Int(-7)).unwrap();
        ev.set("data.shape.weight", &Dyn::Float(0.25)).unwrap();
        ev.set("stamps[2]", &Dyn::Float(2.5)).unwrap();
        ev.set("ranges[1]", &Dyn::Struct(vec![("lo".into(), Dyn::Int(-2)), ("hi".into(), Dyn::Int(300))])).unwrap();
        // the typed view of the same memory reads what was written by name
        let typed = m.view::<c::cd_event>(ev.ptr().unwrap()).unwrap();
        assert_eq!(typed.r#type().unwrap(), 3);
        assert_eq!(typed.data().shape().corners().at(1).unwrap().y().unwrap(), -7);
        assert_eq!(typed.data().shape().weight().unwrap(), 0.25);
        assert_eq!(typed.stamps().get(2).unwrap(), 2.5);
        assert_eq!((typed.ranges().at(1).unwrap().lo().unwrap(), typed.ranges().at(1).unwrap().hi().unwrap()),
                   (-2, 300));
        typed.set_type(9).unwrap();
        assert_eq!(ev.get("type").unwrap(), Dyn::Int(9));
        assert_eq!(ev.get("data.shape.weight").unwrap(), Dyn::Float(0.25));
        assert_eq!(ev.get("data.scalar.value").unwrap(), Dyn::Null);
        // a view of records by count: paths from [k]
        let pts = m.view_records_named("cd_point", typed.data().shape().corners().at(0).unwrap().ptr().unwrap(), 2)
            .unwrap();
        assert_eq!(pts.get("[1].y").unwrap(), Dyn::Int(-7));
        assert_eq!(pts.get("[2].y").unwrap_err().kind, ErrorKind::Range);
        assert!(!pts.is_owned());
    });
}

#[test]
fn fields_by_name_refuse_what_the_types_would() {
    use nccc::Dyn;
    with_module(|_, m| {
        let e = m.new_named("cd_nothing").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unknown);
        assert_eq!(e.to_string(),
                   "'cdata': bad argument #1 to 'new' (a struct or union of cdata expected, got 'cd_nothing')");
        assert_eq!(m.new_named("cd_id").unwrap_err().kind, ErrorKind::Unknown);
        assert_eq!(m.view_named("cd_event", Ptr::NULL).unwrap_err().kind, ErrorKind::Null);
        let mut ev = m.new_named("cd_event").unwrap();
        ev.set("type", &Dyn::Int(3)).unwrap();
        let refused = [
            ("type", Dyn::Float(1.5), ErrorKind::Integral,
             "'cd_event': field 'type' (a non-integral number for an integer)"),
            ("stamps[0]", Dyn::Str("x".into()), ErrorKind::Type, "'cd_event': field 'stamps' (number expected)"),
            ("ranges[0].lo", Dyn::Int(40000), ErrorKind::Range,
             "'cd_event__ranges': field 'lo' (value 40000 out of range for int16)"),
            ("data.scalar.value", Dyn::Bytes(b"abc".to_vec()), ErrorKind::Type,
             "'cd_event__data__scalar': field 'value' (pointer expected, got bytes: its memory would not outlive the assignment)"),
            ("nothing", Dyn::Int(1), ErrorKind::Field, "'cd_event': cdata.cd_event has no field 'nothing'"),
            ("stamps[3]", Dyn::Float(1.0), ErrorKind::Range, "'cd_event': index 3 out of range 0..2 of field 'stamps'"),
            ("stamps", Dyn::Float(1.0), ErrorKind::Type, "'cd_event': field 'stamps' (an array: use its elements)"),
            ("type.x", Dyn::Int(1), ErrorKind::Field, "'cd_event': field 'type' (a scalar has no fields)"),
            ("data..shape", Dyn::Int(1), ErrorKind::Field, "'cd_event': a path of names and [indexes] expected"),
            ("", Dyn::Bytes(vec![0; 3]), ErrorKind::Count, "'cd_event': bytes of another size than the record's"),
        ];
        for (path, value, kind, text) in refused.iter() {
            let e = ev.set(path, value).unwrap_err();
            assert_eq!((e.kind, e.to_string().as_str()), (*kind, *text), "{}", path);
        }
        // memory unchanged by the refusals
        assert_eq!(ev.get("type").unwrap(), Dyn::Int(3));
        assert_eq!(ev.get("stamps[0]").unwrap(), Dyn::Float(0.0));
        assert_eq!(ev.get("data.scalar.value").unwrap(), Dyn::Null);
        assert_eq!(ev.get("data").unwrap_err().kind, ErrorKind::Type);
        assert!(ev.free());
        assert!(!ev.free());
        let e = ev.get("type").unwrap_err();
        assert_eq!((e.kind, e.to_string().as_str()), (ErrorKind::Closed, "'cd_event': cd_event object was freed"));
        assert_eq!(ev.set("data.shape.tag", &Dyn::Int(1)).unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(ev.ptr().unwrap_err().kind, ErrorKind::Closed);
    });
}

#[test]
fn a_struct_set_by_name_is_checked_whole_before_it_is_written() {
    use nccc::Dyn;
    with_module(|_, m| {
        let ev = m.new_named("cd_event").unwrap();
        // the second field is refused: the first is not written either
        let value = Dyn::Struct(vec![("type".into(), Dyn::Int(5)), ("nothing".into(), Dyn::Int(1))]);
        assert_eq!(ev.set("", &value).unwrap_err().kind, ErrorKind::Field);
        let nested = Dyn::Struct(vec![("lo".into(), Dyn::Int(4)), ("hi".into(), Dyn::Float(0.5))]);
        assert_eq!(ev.set("ranges[0]", &nested).unwrap_err().kind, ErrorKind::Integral);
        assert_eq!(ev.set("data.scalar", &Dyn::Bytes(vec![1; 3])).unwrap_err().kind, ErrorKind::Count);
        assert_eq!(ev.to_bytes().unwrap(), vec![0u8; m.layouts.cd_event.size]);
        // an array field given whole is refused too, before type is written
        let whole_array = Dyn::Struct(vec![("type".into(), Dyn::Int(5)), ("ranges".into(), Dyn::Null)]);
        assert_eq!(ev.set("", &whole_array).unwrap_err().kind, ErrorKind::Type);
        // accepted: a nested record's fields, bytes of a record's size
        let ranges = Dyn::Struct(vec![("lo".into(), Dyn::Int(4)), ("hi".into(), Dyn::Int(-4))]);
        ev.set("ranges[1]", &ranges).unwrap();
        assert_eq!((ev.get("ranges[1].lo").unwrap(), ev.get("ranges[1].hi").unwrap()), (Dyn::Int(4), Dyn::Int(-4)));
        let size = m.layouts.cd_point.size;
        let corner = m.new_named("cd_point").unwrap();
        corner.set("", &Dyn::Struct(vec![("x".into(), Dyn::Int(3)), ("y".into(), Dyn::Int(9))])).unwrap();
        ev.set("data.shape.corners[1]", &Dyn::Bytes(corner.to_bytes().unwrap())).unwrap();
        assert_eq!(corner.to_bytes().unwrap().len(), size);
        assert_eq!(ev.get("data.shape.corners[1].y").unwrap(), Dyn::Int(9));
        assert_eq!(ev.get("type").unwrap(), Dyn::Int(0));
        assert_eq!(format!("{:?}", corner).split(" at ").next(), Some("<C object cdata.cd_point"));
    });
}
