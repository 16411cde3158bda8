//! One CUDA context, stream and the compiled kernels, opened once per process.
//!
//! Kernels live in `kernels/*.cu`, are embedded in the binary, and are compiled by NVRTC on first
//! use for the device's own architecture (about 0.1 s), so building `grail` needs no CUDA toolkit.

use super::probe::{GpuInfo, probe};
use anyhow::{Context, Result, anyhow};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};
use std::sync::{Arc, OnceLock};

/// The kernel sources, by module name.
pub const KERNELS: [(&str, &str); 2] =
    [("labeling", include_str!("../../kernels/labeling.cu")), ("search", include_str!("../../kernels/search.cu"))];

/// An open GPU with every kernel module loaded.
pub struct Gpu {
    pub info: GpuInfo,
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    modules: Vec<(&'static str, Arc<CudaModule>)>,
}

/// The process's GPU, opened on first use (context creation and NVRTC take a few hundred
/// milliseconds, which every later labeling or batch then skips). The error is the one-line reason.
pub fn shared() -> Result<&'static Gpu> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| Gpu::open().map_err(|e| format!("{e:#}"))).as_ref().map_err(|e| anyhow!("{e}"))
}

impl Gpu {
    /// Opens GPU 0 and compiles the kernels; the error says in one line why there is no GPU.
    pub fn open() -> Result<Gpu> {
        let info = probe().map_err(|reason| anyhow!("no GPU: {reason}"))?;
        let ctx = CudaContext::new(0).context("cannot open GPU 0")?;
        let stream = ctx.default_stream();
        let arch = architecture(info.compute_capability);
        let modules = KERNELS
            .iter()
            .map(|&(name, source)| {
                let ptx = compile(name, source, arch)?;
                let module = ctx.load_module(ptx).with_context(|| format!("cannot load the {name} kernels"))?;
                Ok((name, module))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Gpu { info, ctx, stream, modules })
    }

    /// A kernel of a module.
    pub fn function(&self, module: &str, name: &str) -> Result<CudaFunction> {
        let (_, m) = self.modules.iter().find(|(n, _)| *n == module).with_context(|| format!("no module {module}"))?;
        m.load_function(name).with_context(|| format!("no kernel {name} in {module}"))
    }

    /// Free and total device memory, in bytes.
    pub fn memory(&self) -> Result<(u64, u64)> {
        let (free, total) = self.ctx.mem_get_info().context("cannot read GPU memory")?;
        Ok((free as u64, total as u64))
    }
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
        for (name, source) in KERNELS {
            compile(name, source, "sm_90").unwrap_or_else(|e| panic!("{e:#}"));
        }
    }
}
