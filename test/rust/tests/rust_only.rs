//! What only Rust has to show: closures borrowed for one call, panics in
//! callbacks, Drop of owned objects and boxed closures, layout checks, a
//! released closure, errors with their parts, byte buffers (a buffer a
//! callback fills as &mut [u8]).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use nccc::{ErrorKind, Ptr};
use nccc_rust_tests::{tour, with_fixture};

/// Counts its drops: when a closure holding one is dropped.
struct Tracked(Arc<AtomicUsize>);

impl Drop for Tracked {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn scalars_structs_and_results() {
    with_fixture(|_, t, _| {
        assert_eq!(t.add(40, 2).unwrap(), 42);
        assert_eq!(t.echo_u8(255).unwrap(), 255);
        assert_eq!(t.echo_i64(i64::MIN).unwrap(), i64::MIN);
        let mid = t.midpoint(tour::point { x: 2, y: 4 }, tour::point { x: 4, y: 8 }).unwrap();
        assert_eq!(mid, tour::point { x: 3, y: 6 });
        assert_eq!(t.divmod(17, 5).unwrap(), (3, 2));
        assert_eq!(t.bump(5, 3).unwrap(), 8);
        let (moved, old) = t.move_point(tour::point { x: 1, y: 2 }, 10).unwrap();
        assert_eq!((moved, old), (tour::point { x: 11, y: 2 }, tour::point { x: 1, y: 2 }));
        assert_eq!(t.as_number(1.0).unwrap().i(), 1.0f64.to_bits() as i64);
        assert_eq!(t.sum_ints(&[1, 2, 3, 4]).unwrap(), 10);
        assert_eq!(t.name_of_color(t.constants.GREEN).unwrap().as_deref(), Some("green"));
    });
}

#[test]
fn errno_and_strings_come_back_as_errors() {
    with_fixture(|_, t, _| {
        assert_eq!(t.checked_div(7, 2).unwrap(), 3);
        let e = t.checked_div(1, 0).unwrap_err();
        assert_eq!((e.kind, e.function, e.errno), (ErrorKind::Errno, "tour.checked_div", 33));
        let e = t.text_length("a\0b").unwrap_err();
        assert_eq!((e.kind, e.parameter), (ErrorKind::Text, 1));
        assert_eq!(t.text_length(&"x".repeat(1000)).unwrap(), 1000);
    });
}

#[test]
fn a_call_scope_closure_borrows_its_environment() {
    with_fixture(|rt, _, h| {
        let mut seen = Vec::new();
        let total = h.fold(5, &mut |acc, i| {
            seen.push(i);
            acc + i
        }).unwrap();
        assert_eq!((total, seen), (10, vec![0, 1, 2, 3, 4]));
        let mut words = Vec::new();
        assert_eq!(h.words("a bc def", &mut |w, k| {
            words.push((w.to_string(), k));
            w.len() as i32
        }).unwrap(), 6);
        assert_eq!(words[2], ("def".to_string(), 2));
        assert_eq!(h.divmod_with(17, 5, &mut |a, b| (a / b, a % b)).unwrap(), 3002);
        assert_eq!(rt.closure_stats().unwrap().in_use, 0);
    });
}

#[test]
fn a_panic_in_a_callback_is_the_calls_error() {
    with_fixture(|rt, _, h| {
        let calls = Cell::new(0);
        let e = h.fold(5, &mut |_, _| {
            calls.set(calls.get() + 1);
            panic!("boom")
        }).unwrap_err();
        assert_eq!((e.kind, e.function), (ErrorKind::Panic, "hcb.fold"));
        assert_eq!(e.message(), "boom (and 4 more)");
        assert_eq!(calls.get(), 5);
        // the next call is clean, and no closure is left behind
        assert_eq!(h.fold(3, &mut |acc, i| acc + i).unwrap(), 3);
        assert_eq!(rt.closure_stats().unwrap().in_use, 0);
    });
}

#[test]
fn owned_objects_are_freed_once_by_close_or_drop() {
    with_fixture(|_, _, h| {
        let a = h.obj_new(10).unwrap();
        {
            let _b = h.obj_new(20).unwrap();
            assert_eq!(h.obj_live().unwrap(), 2);
        }
        assert_eq!(h.obj_live().unwrap(), 1);
        assert_eq!(h.obj_value(a.ptr().unwrap()).unwrap(), 10);
        assert!(a.close());
        assert!(!a.close());
        assert_eq!(a.ptr().unwrap_err().kind, ErrorKind::Closed);
        assert_eq!(h.obj_live().unwrap(), 0);
        assert_eq!(h.repeat("ab", 3).unwrap(), "ababab");
        assert_eq!(h.strings_live().unwrap(), 0);
    });
}

#[test]
fn a_closure_of_another_scope_is_refused_by_call_dynamic() {
    // a method takes Rust closures and claims them with its parameter's
    // scope (a mismatch does not compile: refusals.rs); through the
    // module's call_dynamic a closure of another scope is refused, both
    // scopes named, and the call-scope closure is released
    with_fixture(|rt, _, h| {
        let in_use = rt.closure_stats().unwrap().in_use;
        let c = rt.dynamic_closure("call", "i:i", Box::new(|a: &[nccc::Dyn]| a.to_vec())).unwrap();
        let e = h.call_dynamic("hcb.keep", &[nccc::Dyn::Closure(c)]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Scope);
        assert_eq!(e.parameter, 1);
        let text = e.to_string();
        assert!(text.contains("'forever'") && text.contains("'call'"), "{}", text);
        assert_eq!(rt.closure_stats().unwrap().in_use, in_use);
        // a forever closure passes
        let f = rt.dynamic_closure("forever", "i:i", Box::new(|a: &[nccc::Dyn]| a.to_vec())).unwrap();
        h.call_dynamic("hcb.keep", &[nccc::Dyn::Closure(f)]).unwrap();
        assert!(f.release(rt).unwrap());
    });
}

#[test]
fn a_call_by_name_raises_only_what_the_wrapper_refuses() {
    // a call by name or handle raises the thread's last error only when it
    // is one of the ABI's refusal statuses (abi::REFUSAL_STATUSES): here the
    // callback's own failed lookup leaves "name not found" there, which is
    // no refusal, so the call returns its value; a released closure is one
    use nccc::Dyn;
    use nccc_rust_tests::cases::with_runtime;
    with_fixture(|rt, _, _| {
        let step = |a: &[Dyn]| {
            let e = with_runtime(|rt| rt.lookup("hcb.no_such").unwrap_err());
            assert_eq!(e.status, nccc::abi::ERR_NAME_NOT_FOUND);
            vec![nccc_rust_tests::cases::sum(a)]
        };
        let c = rt.dynamic_closure("forever", "ii:i", Box::new(step)).unwrap();
        assert_eq!(rt.call_dynamic("hcb.fold", &[Dyn::Int(4), Dyn::Closure(c)]).unwrap(), vec![Dyn::Int(6)]);
        let handle = rt.lookup("hcb.fold").unwrap();
        assert_eq!(rt.call_handle(handle, "hcb.fold", &[Dyn::Int(3), Dyn::Closure(c)]).unwrap(),
                   vec![Dyn::Int(3)]);
        assert!(!nccc::abi::REFUSAL_STATUSES.contains(&nccc::abi::ERR_NAME_NOT_FOUND));
        assert!(c.release(rt).unwrap());
        let e = rt.call_dynamic("hcb.fold", &[Dyn::Int(3), Dyn::Closure(c)]).unwrap_err();
        assert_eq!((e.kind, e.status), (ErrorKind::Released, nccc::abi::ERR_STALE_CLOSURE));
    });
}

#[test]
fn a_method_binding_a_thunk_raises_only_a_refusal() {
    // a generated method that binds a thunk reads the thread's last error
    // after the call: a status the callback left there (a failed lookup)
    // is not the method's error; a full thunk pool is (hcb's plain_fn
    // has two thunks, both kept by hcb.keep)
    with_fixture(|rt, _, h| {
        let x = h.apply_plain(&mut |x| {
            assert_eq!(rt.lookup("hcb.no_such").unwrap_err().status, nccc::abi::ERR_NAME_NOT_FOUND);
            x + 1
        }, 4).unwrap();
        assert_eq!(x, 5);
        let kept: Vec<nccc::Closure> = (0..2).map(|_| h.keep(Box::new(|x| x)).unwrap().1).collect();
        let e = h.apply_plain(&mut |x| x, 1).unwrap_err();
        assert_eq!(e.status, nccc::abi::ERR_POOL_EXHAUSTED);
        for c in kept {
            assert!(c.release(rt).unwrap());
        }
    });
}

#[test]
fn an_owned_out_pointer_is_an_owned_object() {
    with_fixture(|_, _, h| {
        let (status, o) = h.obj_make(7).unwrap();
        assert_eq!(status, 0);
        assert_eq!(h.obj_live().unwrap(), 1);
        assert_eq!(h.obj_value(o.ptr().unwrap()).unwrap(), 7);
        drop(o);
        assert_eq!(h.obj_live().unwrap(), 0);
        let (_, o) = h.obj_make(8).unwrap();
        assert!(o.close());
        assert!(!o.close());
        assert_eq!(h.obj_live().unwrap(), 0);
    });
}

#[test]
fn a_kept_buffer_is_held_until_its_owned_owner_closes() {
    with_fixture(|_, _, h| {
        let o = h.obj_new(1).unwrap();
        // [kept=o]: the method takes the buffer over; C sums it later
        h.obj_keep(o.ptr().unwrap(), vec![1, 2, 3]).unwrap();
        assert_eq!(nccc::kept::count(), 1);
        assert_eq!(h.obj_kept_sum(o.ptr().unwrap()).unwrap(), 6);
        h.obj_keep(o.ptr().unwrap(), vec![10, 20]).unwrap();
        assert_eq!(nccc::kept::count(), 1);
        assert_eq!(h.obj_kept_sum(o.ptr().unwrap()).unwrap(), 30);
        assert!(o.close());
        assert_eq!(nccc::kept::count(), 0);
    });
}

#[test]
fn null_for_a_nonnull_parameter_is_refused_before_c() {
    with_fixture(|_, _, h| {
        let e = h.obj_value(Ptr::NULL).unwrap_err();
        assert_eq!((e.kind, e.function, e.parameter), (ErrorKind::Null, "hcb.obj_value", 1));
        assert_eq!(h.obj_value_or(Ptr::NULL, 7).unwrap(), 7);
    });
}

#[test]
fn boxed_closures_drop_when_released() {
    with_fixture(|rt, _, h| {
        let drops = Arc::new(AtomicUsize::new(0));
        let tracked = Tracked(drops.clone());
        h.later(7, Box::new(move |v| assert_eq!((v, tracked.0.load(Ordering::SeqCst)), (7, 0))))
            .unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        assert_eq!(h.run_pending().unwrap(), 1);
        assert_eq!(drops.load(Ordering::SeqCst), 1, "async: dropped after its call");

        let tracked = Tracked(drops.clone());
        let fire = h.on_fire(Box::new(move |x| { let _ = &tracked; x * 2 })).unwrap();
        assert_eq!(h.fire(21).unwrap(), 42);
        assert!(fire.release(rt).unwrap());
        assert_eq!(drops.load(Ordering::SeqCst), 2, "forever: dropped when released");
        assert!(!fire.release(rt).unwrap(), "a released closure is not released again");
        // C calling the released closure: refused, counted, not run
        let stale = rt.closure_stats().unwrap().stale_calls;
        assert_eq!(h.fire(1).unwrap(), 0);
        assert_eq!(rt.closure_stats().unwrap().stale_calls, stale + 1);
        h.clear_fire().unwrap();
        assert_eq!(rt.closure_stats().unwrap().in_use, 0);
    });
}

#[test]
fn a_layout_that_differs_from_the_library_is_an_error() {
    // a Rust point with fields of the wrong width, checked against tour's table
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct point {
        x: i64,
        y: i64,
    }
    impl nccc::Field for point {
        fn put(self, bytes: &mut [u8], at: usize) {
            nccc::Field::put(self.x, bytes, at);
            nccc::Field::put(self.y, bytes, at + 8);
        }
        fn get(bytes: &[u8], at: usize) -> Self {
            point { x: nccc::Field::get(bytes, at), y: nccc::Field::get(bytes, at + 8) }
        }
    }
    impl nccc::Record for point {
        const MODULE: &'static str = "tour";
        const NAME: &'static str = "point";
        fn fields(each: &mut dyn FnMut(&'static str, usize, usize)) {
            each("x", nccc::offset_of!(point, x), 8);
            each("y", nccc::offset_of!(point, y), 8);
        }
    }
    with_fixture(|rt, _, _| {
        assert!(nccc::check_layout::<tour::point>(rt).is_ok());
        let e = nccc::check_layout::<point>(rt).unwrap_err();
        assert_eq!((e.kind, e.function), (ErrorKind::Layout, "point"));
    });
}

#[test]
fn a_second_runtime_is_refused() {
    with_fixture(|_, _, _| {
        let mut pool = [0u8; 4096];
        let e = nccc::Runtime::new(&mut pool).err().expect("one runtime at a time");
        assert_eq!(e.status, nccc::abi::ERR_ALREADY_DEFINED);
    });
}

#[test]
fn a_closure_set_drops_replaced_handlers_and_its_group_with_the_owner() {
    with_fixture(|rt, _, h| {
        let drops = Arc::new(AtomicUsize::new(0));
        let names = Arc::new(std::sync::Mutex::new(Vec::new()));
        let p = h.parser_new().unwrap();
        let (tracked, seen) = (Tracked(drops.clone()), names.clone());
        h.parser_set_handlers(p.ptr().unwrap(), Some(Box::new(move |name, atts| {
            let _ = &tracked;
            seen.lock().unwrap().push(format!("first {} {}", name, atts.len()));
        })), None).unwrap();
        h.parser_set_user_data(p.ptr().unwrap()).unwrap();
        assert_eq!(h.parser_run(p.ptr().unwrap(), "a", 0).unwrap(), 1);
        let (tracked, seen) = (Tracked(drops.clone()), names.clone());
        h.parser_set_handlers(p.ptr().unwrap(), Some(Box::new(move |name, atts| {
            let _ = &tracked;
            let all: Vec<&str> = atts.iter().collect();
            seen.lock().unwrap().push(format!("second {} {:?}", name, all));
        })), None).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1, "the replaced handler is dropped");
        assert_eq!(h.parser_run(p.ptr().unwrap(), "b", 0).unwrap(), 1);
        assert_eq!(*names.lock().unwrap(), vec!["first a 4".to_string(),
                                                 "second b [\"id\", \"b\", \"kind\", \"run\"]".to_string()]);
        assert_eq!(rt.closure_stats().unwrap().in_use, 2);
        drop(p);
        assert_eq!(drops.load(Ordering::SeqCst), 2, "the owner's drop releases its group");
        assert_eq!(rt.closure_stats().unwrap().in_use, 0);
    });
}

#[test]
fn a_rust_closure_is_a_packed_function_c_calls_by_name() {
    use nccc::Dyn;
    with_fixture(|rt, _, h| {
        rt.register_packed("rust_only.scale", "ld:d", Box::new(|args: &[Dyn]| match args {
            [Dyn::Int(n), Dyn::Float(k)] => vec![Dyn::Float(*n as f64 * k)],
            _ => vec![],
        })).unwrap();
        rt.register_packed("rust_only.sub", "ll:l", Box::new(|args: &[Dyn]| match args {
            [Dyn::Int(a), Dyn::Int(b)] => vec![Dyn::Int(a - b)],
            _ => vec![],
        })).unwrap();
        assert_eq!(h.call_global2("rust_only.sub", 5, 7).unwrap(), (-2, 0));
        // 3: the result is not an integer
        assert_eq!(h.call_global2("rust_only.scale", 2, 0).unwrap(), (0, 3));
        let e = rt.register_packed("rust_only.sub", "l:l", Box::new(|_: &[Dyn]| vec![])).unwrap_err();
        assert_eq!((e.kind, e.status), (ErrorKind::Status, nccc::abi::ERR_ALREADY_DEFINED));
        let e = rt.register_packed("rust_only.bad", "lq:l", Box::new(|_: &[Dyn]| vec![])).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Signature);
    });
}

#[test]
fn results_ending_in_a_star_take_a_checked_count() {
    use nccc::Dyn;
    with_fixture(|rt, _, _| {
        let cell = rt.call_dynamic("nccc.alloc", &[Dyn::Int(16)]).unwrap()[1].clone();
        rt.call_dynamic("nccc.write", &[cell.clone(), Dyn::Int(9), Dyn::Int(0x3837363534333231),
                                         Dyn::Int(0x39)]).unwrap();
        let e = rt.call_dynamic("nccc.read", &[cell.clone(), Dyn::Int(9)]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Count);
        let e = rt.call_var("nccc.read", 1, &[cell.clone(), Dyn::Int(9)]).unwrap_err();
        assert_eq!(e.to_string(), "'nccc.read': expects 2 extra out slots for its arguments, got a count of 1");
        let out = rt.call_var("nccc.read", 2, &[cell.clone(), Dyn::Int(9)]).unwrap();
        assert_eq!(out, vec![Dyn::Int(0), Dyn::Int(0x3837363534333231), Dyn::Int(0x39)]);
        rt.call_dynamic("nccc.free", &[cell]).unwrap();
    });
}

#[test]
fn bytes_in_and_a_buffer_a_callback_fills() {
    with_fixture(|_, _, h| {
        assert_eq!(h.byte_sum(&[1, 2, 255]).unwrap(), 258);
        assert_eq!(h.byte_sum(&[]).unwrap(), 0);
        let source = b"hello, bytes!";
        let mut at = 0;
        let mut sizes = Vec::new();
        let mut dest = [0u8; 32];
        // the callback gets &mut [u8] over C's buffer and writes into it
        let n = h
            .fill_from(
                &mut |buffer: &mut [u8]| {
                    sizes.push(buffer.len());
                    let k = buffer.len().min(source.len() - at);
                    buffer[..k].copy_from_slice(&source[at..at + k]);
                    at += k;
                    k as i32
                },
                &mut dest,
            )
            .unwrap();
        assert_eq!(n, source.len());
        assert_eq!(&dest[..n], source);
        assert_eq!(sizes[0], 4);
    });
}
