//! The shared case table test/hosts/cases.json, converted into Rust tests
//! at build time by test/rust/cases_to_rust.py (one #[test] per case).

#![allow(unused_imports, unused_variables, unused_mut, unused_parens, clippy::all)]

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};

use nccc_rust_tests::cases::*;
use nccc::CRecord;
use nccc_rust_tests::{cdata, hcb, tour, with_fixture};

include!(concat!(env!("NCCC_RUST_GENERATED"), "/cases.rs"));
