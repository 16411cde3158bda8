//! Is there a usable NVIDIA GPU? Asked before cudarc touches the driver: cudarc panics when the
//! driver library is missing, and a machine without a GPU must get a one-line reason instead.
//!
//! Answering opens GPU 0's context, and the probe keeps it ([`opened`]): the GPU's first use takes
//! it from there instead of creating a second one (a context costs a tenth of a second or more).

use cudarc::driver::CudaContext;
use serde::Serialize;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The context the probe opened, and the seconds it took: the driver's initialisation, then the
/// context's creation.
pub struct Opened {
    pub ctx: Arc<CudaContext>,
    pub driver_seconds: f64,
    pub context_seconds: f64,
}

static OPENED: OnceLock<Opened> = OnceLock::new();

/// The context of the probe that found the GPU, once one has.
pub fn opened() -> Option<&'static Opened> {
    OPENED.get()
}

/// What the probe found on a machine with a usable GPU.
#[derive(Clone, Debug, Serialize)]
pub struct GpuInfo {
    /// The device's name as the driver reports it.
    pub name: String,
    /// `(major, minor)`, e.g. `(9, 0)` for an H100.
    pub compute_capability: (i32, i32),
    /// The device's memory in bytes.
    pub total_bytes: u64,
    /// Device memory free when the probe ran, in bytes.
    pub free_bytes: u64,
}

/// [`probe`]'s answer, asked once per process (for screens that show it on every frame).
pub fn availability() -> &'static Result<GpuInfo, String> {
    static ANSWER: std::sync::OnceLock<Result<GpuInfo, String>> = std::sync::OnceLock::new();
    ANSWER.get_or_init(probe)
}

/// A short line for screens: the device, or that there is none (`grail selftest --gpu` says why).
pub fn describe() -> String {
    match availability() {
        Ok(info) => format!("GPU: {}", info.name),
        Err(_) => "GPU: none on this machine".into(),
    }
}

/// The GPU, or the reason there is none, in one line a user can act on.
pub fn probe() -> Result<GpuInfo, String> {
    let clock = Instant::now();
    // SAFETY: these only try to open the shared libraries (dlopen); nothing is called through them.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("no NVIDIA driver library (libcuda.so) on this machine".into());
    }
    // NVRTC compiles the kernels unless the build embedded them precompiled (src/gpu/context.rs).
    if !super::kernels::precompiled() && !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err("the NVIDIA driver is present but NVRTC (libnvrtc.so, from the CUDA toolkit) is not".into());
    }
    // Belt and braces: a driver that loads but misbehaves must still not take the program down.
    std::panic::catch_unwind(|| query_device(clock))
        .unwrap_or_else(|_| Err("the CUDA driver failed while it was being queried".into()))
}

fn query_device(clock: Instant) -> Result<GpuInfo, String> {
    let count = CudaContext::device_count().map_err(|e| format!("the CUDA driver cannot count devices: {e}"))?;
    if count < 1 {
        return Err("the CUDA driver reports no GPU".into());
    }
    let driver_seconds = clock.elapsed().as_secs_f64();
    let ctx = CudaContext::new(0).map_err(|e| format!("cannot open GPU 0: {e}"))?;
    let context_seconds = clock.elapsed().as_secs_f64() - driver_seconds;
    let (free, total) = ctx.mem_get_info().map_err(|e| format!("cannot read GPU 0's memory: {e}"))?;
    let info = GpuInfo {
        name: ctx.name().unwrap_or_else(|_| "unknown GPU".into()),
        compute_capability: ctx.compute_capability().unwrap_or((0, 0)),
        total_bytes: total as u64,
        free_bytes: free as u64,
    };
    // A second probe in the process keeps the first one's context (its own is released).
    let _ = OPENED.set(Opened { ctx, driver_seconds, context_seconds });
    Ok(info)
}
