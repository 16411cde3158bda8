//! One CUDA context, stream and the loaded kernels, opened once per process.
//!
//! The kernels (`kernels/*.cu`, embedded by build.rs with the shared constants in place) come from
//! one of two places. When the build machine had nvcc, build.rs precompiled them to PTX for
//! `compute_80`, which the driver's JIT turns into code for any device from Ampere on. Otherwise, or
//! when that PTX cannot be used here, NVRTC compiles them on first use for the device's own
//! architecture (about 0.1 s), so building `grail` needs no CUDA toolkit. [`Gpu::kernel_origin`]
//! says which happened.

use super::kernels::{MODULES, PTX_ARCH, PTX_CAPABILITY};
use super::probe::{GpuInfo, probe};
use super::staging::Staging;
use anyhow::{Context, Result, anyhow, ensure};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Loaded kernel modules, by name.
type Modules = Vec<(&'static str, Arc<CudaModule>)>;

/// An open GPU with every kernel module loaded.
pub struct Gpu {
    pub info: GpuInfo,
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    /// Where the kernels came from, for reports: `precompiled PTX (compute_80)` or `NVRTC sm_90`,
    /// with the reason when precompiled PTX was embedded but could not be used.
    pub kernel_origin: String,
    /// Every kernel of every module, looked up at start-up: with the driver's lazy module loading,
    /// a kernel's first lookup loads its code (about half a millisecond for the labeler's 28).
    functions: Vec<(&'static str, &'static str, CudaFunction)>,
    /// Pinned buffers for the large copies (one copy at a time uses them).
    staging: Mutex<Staging>,
}

/// The process's GPU, opened on first use (context creation and NVRTC take a few hundred
/// milliseconds, which every later labeling or batch then skips). The error is the one-line reason.
pub fn shared() -> Result<&'static Gpu> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| Gpu::open().map_err(|e| format!("{e:#}"))).as_ref().map_err(|e| anyhow!("{e}"))
}

impl Gpu {
    /// Opens GPU 0 and loads the kernels (precompiled, else compiled by NVRTC); the error says in
    /// one line why there is no GPU.
    pub fn open() -> Result<Gpu> {
        let info = probe().map_err(|reason| anyhow!("no GPU: {reason}"))?;
        let ctx = CudaContext::new(0).context("cannot open GPU 0")?;
        // SAFETY: before any allocation. The program queues its work on this one stream, in order
        // (see the kernels module's safety rules), so cudarc's per-buffer events would order
        // nothing: they would only cost two events created and destroyed per allocation (a
        // labeling makes a hundred), and driver calls per argument at every launch were a second
        // stream ever opened.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (modules, kernel_origin) = match load_precompiled(&ctx, info.compute_capability) {
            Ok(modules) => (modules, format!("precompiled PTX ({PTX_ARCH})")),
            Err(unusable) => {
                let arch = architecture(info.compute_capability);
                let modules = match (load_with_nvrtc(&ctx, arch), &unusable) {
                    (Err(e), Some(reason)) => return Err(e.context(reason.clone())),
                    (modules, _) => modules?,
                };
                let origin = match unusable {
                    None => format!("NVRTC {arch}"),
                    Some(reason) => format!("NVRTC {arch} ({reason})"),
                };
                (modules, origin)
            }
        };
        warm_up_copies(&stream)?;
        super::pool::keep_warm(&ctx, &stream)?;
        let functions = load_functions(&modules)?;
        let staging = Mutex::new(Staging::new(&ctx)?);
        Ok(Gpu { info, ctx, stream, kernel_origin, functions, staging })
    }

    /// A kernel of a module.
    pub fn function(&self, module: &str, name: &str) -> Result<CudaFunction> {
        let found = self.functions.iter().find(|(m, n, _)| *m == module && *n == name);
        found.map(|(_, _, f)| f.clone()).with_context(|| format!("no kernel {name} in module {module}"))
    }

    /// The pinned buffers of the large copies (a copy holds them until it is done).
    pub fn staging(&self) -> MutexGuard<'_, Staging> {
        self.staging.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Free and total device memory, in bytes (free counts what the process's pool holds unused).
    pub fn memory(&self) -> Result<(u64, u64)> {
        let (free, total) = self.ctx.mem_get_info().context("cannot read GPU memory")?;
        Ok((free as u64 + super::pool::idle_bytes(&self.ctx)?, total as u64))
    }

    /// The device's streaming multiprocessors (grids are sized by them).
    pub fn multiprocessors(&self) -> Result<u32> {
        let sms =
            self.ctx.attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        Ok(sms as u32)
    }
}

/// Every kernel that `MODULES` lists, from the loaded modules.
fn load_functions(modules: &Modules) -> Result<Vec<(&'static str, &'static str, CudaFunction)>> {
    let mut functions = Vec::new();
    for module in MODULES {
        let (_, loaded) = modules.iter().find(|(n, _)| *n == module.name).context("a module was not loaded")?;
        for &name in module.kernels {
            let f = loaded.load_function(name).with_context(|| format!("no kernel {name} in {}", module.name))?;
            functions.push((module.name, name, f));
        }
    }
    Ok(functions)
}

/// Copies a page to the device and back. A process's first copy pays the driver's one-time set-up
/// of its copy path whatever its size: about 10 ms on the H100 and H200 machines (a 4 KiB first
/// upload took 9-11 ms, and the upload after it ran at full speed). Done here it belongs to the
/// start-up, with the context, instead of to the first labeling or search.
fn warm_up_copies(stream: &Arc<CudaStream>) -> Result<()> {
    let page = stream.clone_htod(&[0u8; 4096]).context("cannot copy to the GPU")?;
    stream.clone_dtoh(&page).context("cannot copy from the GPU")?;
    Ok(())
}

/// Every module from the PTX embedded at build time. The error is None when the build embedded
/// none (no nvcc there), else why this device cannot use it.
fn load_precompiled(ctx: &Arc<CudaContext>, capability: (i32, i32)) -> Result<Modules, Option<String>> {
    if !super::kernels::precompiled() {
        return Err(None);
    }
    precompiled_runs_on(capability).map_err(Some)?;
    MODULES
        .iter()
        .map(|module| {
            let ptx = Ptx::from_src(module.ptx.unwrap_or_default());
            let loaded = ctx.load_module(ptx).map_err(|e| {
                format!("the precompiled {PTX_ARCH} PTX of kernels/{}.cu did not load: {e}", module.name)
            })?;
            Ok((module.name, loaded))
        })
        .collect::<Result<Modules, String>>()
        .map_err(Some)
}

/// Whether a device of `capability` can run the precompiled PTX (the driver compiles PTX for a
/// virtual architecture on any later device); the error says why not.
fn precompiled_runs_on(capability: (i32, i32)) -> Result<(), String> {
    if capability < PTX_CAPABILITY {
        let ((major, minor), (needed_major, needed_minor)) = (capability, PTX_CAPABILITY);
        return Err(format!(
            "the precompiled {PTX_ARCH} PTX needs compute capability {needed_major}.{needed_minor}, \
             this device has {major}.{minor}"
        ));
    }
    Ok(())
}

/// Every module compiled by NVRTC for `arch`.
fn load_with_nvrtc(ctx: &Arc<CudaContext>, arch: &'static str) -> Result<Modules> {
    // SAFETY: this only tries to open the shared library (dlopen); nothing is called through it.
    let present = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    ensure!(present, "NVRTC (libnvrtc.so, from the CUDA toolkit) is needed to compile the kernels and is absent");
    MODULES
        .iter()
        .map(|module| {
            let ptx = compile(module.name, module.source, arch)?;
            let loaded = ctx.load_module(ptx).with_context(|| format!("cannot load the {} kernels", module.name))?;
            Ok((module.name, loaded))
        })
        .collect()
}

/// NVRTC's `-arch` for a compute capability (`sm_90` for Hopper). Leaked once per process: NVRTC's
/// options want a `&'static str`, and a process opens one GPU.
fn architecture((major, minor): (i32, i32)) -> &'static str {
    Box::leak(format!("sm_{major}{minor}").into_boxed_str())
}

/// Compiles one kernel source to PTX for `arch`.
pub fn compile(name: &str, source: &str, arch: &'static str) -> Result<Ptx> {
    let options = CompileOptions { arch: Some(arch), name: Some(format!("{name}.cu")), ..Default::default() };
    compile_ptx_with_opts(source, options).map_err(|e| anyhow!("NVRTC cannot compile kernels/{name}.cu: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NVRTC needs no GPU: wherever the library is present (a CUDA machine, or a developer's with
    /// the `nvidia-cuda-nvrtc` wheel on LD_LIBRARY_PATH), every kernel must compile for Hopper.
    #[test]
    fn kernels_compile_with_nvrtc() {
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            eprintln!("note: NVRTC (libnvrtc.so) is absent; kernel compilation not checked here");
            return;
        }
        for module in MODULES {
            compile(module.name, module.source, "sm_90").unwrap_or_else(|e| panic!("{e:#}"));
        }
    }

    #[test]
    fn precompiled_ptx_runs_from_its_architecture_on() {
        assert!(precompiled_runs_on(PTX_CAPABILITY).is_ok());
        assert!(precompiled_runs_on((8, 6)).is_ok());
        assert!(precompiled_runs_on((9, 0)).is_ok(), "Hopper");
        assert!(precompiled_runs_on((10, 0)).is_ok(), "Blackwell");
        let older = precompiled_runs_on((7, 5)).unwrap_err();
        assert!(older.contains("needs compute capability 8.0, this device has 7.5"), "{older}");
    }
}
