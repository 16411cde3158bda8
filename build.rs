//! Build script: prepares the CUDA kernels for embedding. Writes into `$OUT_DIR`
//! - `kernels/<name>.cu`: each kernel source with that table's CUDA header in place of its
//!   `#include "grail_constants.cuh"`, as NVRTC and nvcc compile it;
//! - `kernels/<name>.ptx`: each kernel precompiled by nvcc for [`PTX_ARCH`], when nvcc is installed
//!   (found on PATH, in `$CUDA_HOME/bin` or in `/usr/local/cuda/bin`) and succeeds on every kernel,
//!   unless `GRAIL_SKIP_NVCC` is set (to build and check the NVRTC path on a CUDA machine);
//! - `kernels.rs`: the embedded sources and PTX, and a typed launcher per kernel generated from its
//!   signature, included by `src/gpu/kernels.rs`.
//!
//! No CUDA is needed to build: without nvcc (or when it fails, which is a warning) the kernels are
//! compiled at run time by NVRTC, as they also are on a device that cannot run the PTX.

// The table's Rust half (`constants.rs`) is the engine crate's build script's.
#[path = "codegen/constants.rs"]
#[allow(dead_code)]
mod constants;
#[path = "codegen/kernels.rs"]
mod kernels;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

/// The virtual architecture of the precompiled PTX: Ampere's, which the driver's JIT compiles for
/// Hopper and every later GPU (the kernels need `__reduce_min_sync`, so nothing older).
const PTX_ARCH: &str = "compute_80";
/// The compute capability [`PTX_ARCH`] needs.
const PTX_CAPABILITY: (i32, i32) = (8, 0);

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=kernels");
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-env-changed=CUDA_HOME");
    println!("cargo:rerun-if-env-changed=GRAIL_SKIP_NVCC");

    let table_path = root.join("kernels/constants.in");
    println!("cargo:rerun-if-changed={}", table_path.display());
    let table = read(&table_path);
    let shared = constants::parse(&table).unwrap_or_else(|e| panic!("{e}"));
    let header = constants::render_cuda(&shared);

    let kernel_dir = out.join("kernels");
    fs::create_dir_all(&kernel_dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", kernel_dir.display()));
    let mut modules = Vec::new();
    for path in kernel_sources(&root.join("kernels")) {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let is_module_name = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        assert!(is_module_name, "{}: a kernel file needs a snake_case name (it names a Rust module)", path.display());
        let file = format!("kernels/{name}.cu");
        let source = constants::expand_include(&read(&path), &header, &file);
        let signatures = kernels::parse(&file, &source).unwrap_or_else(|e| panic!("{e}"));
        write(&kernel_dir.join(format!("{name}.cu")), &source);
        modules.push((name, signatures));
    }

    let precompiled = precompile(&kernel_dir, &modules);
    write(&out.join("kernels.rs"), &render(&modules, precompiled));
}

/// Every `kernels/*.cu`, sorted.
fn kernel_sources(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())).path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cu"))
        .collect();
    paths.sort();
    paths
}

/// Compiles every module to PTX with nvcc; true when all of them compiled. Never fails the build:
/// a missing nvcc is silent, a failing one a warning.
fn precompile(dir: &Path, modules: &[(String, Vec<kernels::Kernel>)]) -> bool {
    let Some(nvcc) = find_nvcc() else {
        return false;
    };
    for (name, _) in modules {
        let (source, ptx) = (dir.join(format!("{name}.cu")), dir.join(format!("{name}.ptx")));
        let result =
            Command::new(&nvcc).args(["--ptx", &format!("-arch={PTX_ARCH}"), "-o"]).arg(&ptx).arg(&source).output();
        let failure = match result {
            Ok(output) if output.status.success() => continue,
            Ok(output) => format!("{}: {}", output.status, String::from_utf8_lossy(&output.stderr)),
            Err(e) => e.to_string(),
        };
        println!(
            "cargo:warning={} failed on kernels/{name}.cu, so the kernels will be compiled by NVRTC at run time:",
            nvcc.display()
        );
        for line in failure.lines().filter(|l| !l.trim().is_empty()).take(12) {
            println!("cargo:warning=  {line}");
        }
        return false;
    }
    true
}

/// nvcc on PATH, else in `$CUDA_HOME/bin`, else in `/usr/local/cuda/bin`; none when
/// `GRAIL_SKIP_NVCC` is set.
fn find_nvcc() -> Option<PathBuf> {
    if env::var_os("GRAIL_SKIP_NVCC").is_some() {
        return None;
    }
    let on_path = env::var_os("PATH").map(|p| env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default();
    let cuda_home = env::var_os("CUDA_HOME").map(|home| PathBuf::from(home).join("bin"));
    on_path
        .into_iter()
        .chain(cuda_home)
        .chain([PathBuf::from("/usr/local/cuda/bin")])
        .map(|dir| dir.join("nvcc"))
        .find(|nvcc| nvcc.is_file())
}

/// `kernels.rs`: the modules with their sources and PTX, and their launchers.
fn render(modules: &[(String, Vec<kernels::Kernel>)], precompiled: bool) -> String {
    let mut out = String::from("// Generated by build.rs from kernels/*.cu: edit the kernels, not this file.\n\n");
    out += &format!(
        "/// The virtual architecture of the precompiled PTX.\npub const PTX_ARCH: &str = \"{PTX_ARCH}\";\n\
         /// The compute capability a device needs to run the precompiled PTX.\n\
         pub const PTX_CAPABILITY: (i32, i32) = {PTX_CAPABILITY:?};\n\n\
         /// Every kernel module: its source as NVRTC compiles it, and its PTX when nvcc was installed.\n\
         pub const MODULES: [KernelModule; {}] = [\n",
        modules.len()
    );
    for (name, signatures) in modules {
        let include = |ext: &str| format!("include_str!(concat!(env!(\"OUT_DIR\"), \"/kernels/{name}.{ext}\"))");
        let ptx = if precompiled { format!("Some({})", include("ptx")) } else { "None".into() };
        let kernels: Vec<String> = signatures.iter().map(|k| format!("\"{}\"", k.name)).collect();
        out += &format!(
            "    KernelModule {{\n        name: \"{name}\",\n        kernels: &[{}],\n        source: {},\n        \
             ptx: {ptx},\n    }},\n",
            kernels.join(", "),
            include("cu")
        );
    }
    out += "];\n\n";
    for (name, signatures) in modules {
        out += &kernels::render_module(name, signatures);
    }
    out
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) {
    fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
