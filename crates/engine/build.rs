//! Build script: writes `$OUT_DIR/constants.rs`, the constants the engine shares with the CUDA
//! kernels, from their one table (`kernels/constants.in` at the repository's top; the root
//! package's build script writes the same table out as the kernels' CUDA header).

// The table's CUDA half (the header, the kernels' includes) is the root package's build script's.
#[path = "../../codegen/constants.rs"]
#[allow(dead_code)]
mod constants;

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let table_path = root.join("../../kernels/constants.in");
    println!("cargo:rerun-if-changed={}", table_path.display());
    println!("cargo:rerun-if-changed=../../codegen/constants.rs");
    let table = fs::read_to_string(&table_path).unwrap_or_else(|e| panic!("cannot read {}: {e}", table_path.display()));
    let shared = constants::parse(&table).unwrap_or_else(|e| panic!("{e}"));
    let path = out.join("constants.rs");
    fs::write(&path, constants::render_rust(&shared))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
