//! The constants the Rust code and the CUDA kernels share. Their one definition is the table
//! `kernels/constants.in`; build.rs writes it out as these Rust constants and as the CUDA header each
//! kernel includes, so a value changed there changes on both sides at once.
//!
//! A leaf at the bottom of the layers: the CPU pipeline, the telemetry and `gpu/` all read it, so
//! none of them reaches into another for a number.

include!(concat!(env!("OUT_DIR"), "/constants.rs"));
