#![no_main]
use grail_engine::graph::io::Format;

libfuzzer_sys::fuzz_target!(|data: &[u8]| grail_engine::fuzzing::text(data, Some(Format::MatrixMarket)));
