#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grail_engine::fuzzing::queries(data));
