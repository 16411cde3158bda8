//! One CUDA context and stream per process, with each kernel module made ready on first use.
//!
//! Opening sets up only what every use needs: the context (the probe's, see `probe::opened`), the
//! memory pool's policy and the copy path. A kernel module is made ready the first time one of its
//! kernels is looked up, or when a command names the modules it is about to use ([`Gpu::prepare`])
//! so that their cost counts as start-up and not as the command's work. The pinned buffers of the
//! large copies are allocated by the first copy that needs them.
//!
//! A module's code comes from, in this order of preference: the PTX build.rs precompiled with nvcc
//! for `compute_80` (when the build machine had nvcc and the device is Ampere or later); the disk
//! cache of modules NVRTC compiled on an earlier run (`kernel_cache`); NVRTC, compiling the source
//! for the device's own architecture to a cubin, which is then cached. [`Gpu::kernel_origin`] says
//! which happened; `Gpu::startup` how long each part took.

use super::kernel_cache::{CacheKey, KernelCache, Lookup};
use super::kernels::{KernelModule, MODULES, PTX_ARCH, PTX_CAPABILITY};
use super::probe::{GpuInfo, availability};
use super::staging::Staging;
use super::startup::{Compiling, ModuleStartup, Notice, Startup, notify};
use anyhow::{Context, Result, anyhow, bail, ensure};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::Ptx;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

/// A module made ready: its kernels, looked up (with the driver's lazy loading, a kernel's first
/// lookup loads its code), and the module they keep alive.
struct Ready {
    _module: Arc<CudaModule>,
    functions: Vec<(&'static str, CudaFunction)>,
}

/// An open GPU; its kernel modules are made ready on first use.
pub struct Gpu {
    /// What the probe found: the device's name, compute capability and memory.
    pub info: GpuInfo,
    pub(crate) ctx: Arc<CudaContext>,
    pub(crate) stream: Arc<CudaStream>,
    /// Each module of `MODULES`, in its order, once made ready (or why it cannot be).
    modules: [OnceLock<Result<Ready, String>>; MODULES.len()],
    /// Pinned buffers for the large copies (one copy at a time uses them), allocated by the first.
    staging: Mutex<Option<Staging>>,
    startup: Mutex<Startup>,
}

static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();

/// The process's GPU, opened on first use. The error is the one-line reason.
pub fn shared() -> Result<&'static Gpu> {
    GPU.get_or_init(|| Gpu::open().map_err(|e| format!("{e:#}"))).as_ref().map_err(|e| anyhow!("{e}"))
}

/// What opening the GPU has cost this process, if it was opened (for the reports of commands that
/// may or may not have used it).
pub fn startup_so_far() -> Option<Startup> {
    GPU.get()?.as_ref().ok().map(Gpu::startup)
}

/// The process's GPU with the kernel modules `modules` ready: what a command does before its work,
/// so that the work's time holds none of the start-up.
pub fn prepare(modules: &[&str]) -> Result<&'static Gpu> {
    let gpu = shared()?;
    gpu.prepare(modules)?;
    Ok(gpu)
}

impl Gpu {
    /// Opens GPU 0 (taking the probe's context); the error says in one line why there is no GPU.
    pub fn open() -> Result<Gpu> {
        let info = availability().clone().map_err(|reason| anyhow!("no GPU: {reason}"))?;
        let opened = super::probe::opened().context("the probe found a GPU but kept no context")?;
        let ctx = Arc::clone(&opened.ctx);
        let mut startup = Startup {
            driver_seconds: opened.driver_seconds,
            context_seconds: opened.context_seconds,
            ..Default::default()
        };
        // SAFETY: before any allocation. The program queues its work on this one stream, in order
        // (see the kernels module's safety rules), so cudarc's per-buffer events would order
        // nothing: they would only cost two events created and destroyed per allocation (a
        // labeling makes a hundred), and driver calls per argument at every launch were a second
        // stream ever opened.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let clock = Instant::now();
        super::pool::keep_freed(&ctx)?;
        startup.pool_seconds = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        warm_up_copies(&stream)?;
        startup.first_copy_seconds = clock.elapsed().as_secs_f64();
        Ok(Gpu {
            info,
            ctx,
            stream,
            modules: std::array::from_fn(|_| OnceLock::new()),
            staging: Mutex::new(None),
            startup: Mutex::new(startup),
        })
    }

    /// Makes the named modules ready (each once per process), telling the listener of each.
    pub fn prepare(&self, names: &[&str]) -> Result<()> {
        for (done, name) in names.iter().enumerate() {
            let index =
                MODULES.iter().position(|m| m.name == *name).with_context(|| format!("no kernel module {name}"))?;
            self.ready(index, Some((done, names.len())))?;
        }
        Ok(())
    }

    /// Module `index`, made ready on first call; `step` is its place among those being prepared.
    fn ready(&self, index: usize, step: Option<(usize, usize)>) -> Result<&Ready> {
        let module = &MODULES[index];
        let ready = self.modules[index].get_or_init(|| {
            let clock = Instant::now();
            let made = make_ready(&self.ctx, &self.info, module, step.unwrap_or((0, 1)));
            made.map(|(ready, source, cache_note)| {
                let seconds = clock.elapsed().as_secs_f64();
                let mut startup = self.startup.lock().unwrap_or_else(|e| e.into_inner());
                startup.kernels_seconds += seconds;
                startup.modules.push(ModuleStartup { module: module.name, source, seconds, cache_note });
                ready
            })
            .map_err(|e| format!("{e:#}"))
        });
        ready.as_ref().map_err(|e| anyhow!("{e}"))
    }

    /// A kernel of a module (made ready now if it is not yet).
    pub fn function(&self, module: &str, name: &str) -> Result<CudaFunction> {
        let index =
            MODULES.iter().position(|m| m.name == module).with_context(|| format!("no kernel module {module}"))?;
        let ready = self.ready(index, None)?;
        let found = ready.functions.iter().find(|(n, _)| *n == name);
        found.map(|(_, f)| f.clone()).with_context(|| format!("no kernel {name} in module {module}"))
    }

    /// What opening the GPU and readying its modules has cost so far.
    pub fn startup(&self) -> Startup {
        self.startup.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Where the kernels ready so far came from (`precompiled PTX (compute_80)`, `kernel cache`,
    /// `compiled by NVRTC sm_90`), or that none is ready yet.
    pub fn kernel_origin(&self) -> String {
        let startup = self.startup();
        let mut origins: Vec<String> = Vec::new();
        for m in &startup.modules {
            if !origins.contains(&m.source) {
                origins.push(m.source.clone());
            }
        }
        if origins.is_empty() { "none loaded yet".into() } else { origins.join(", ") }
    }

    /// The pinned buffers of the large copies (a copy holds them until it is done), allocated on
    /// first use.
    pub fn staging(&self) -> Result<StagingGuard<'_>> {
        let mut guard = self.staging.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Staging::new(&self.ctx)?);
        }
        Ok(StagingGuard(guard))
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

/// The pinned buffers, held.
pub struct StagingGuard<'a>(MutexGuard<'a, Option<Staging>>);

impl std::ops::Deref for StagingGuard<'_> {
    type Target = Staging;
    fn deref(&self) -> &Staging {
        self.0.as_ref().expect("allocated before the guard is handed out")
    }
}

impl std::ops::DerefMut for StagingGuard<'_> {
    fn deref_mut(&mut self) -> &mut Staging {
        self.0.as_mut().expect("allocated before the guard is handed out")
    }
}

/// Loads one module from the best source there is (see the module's comment): the module, where
/// its code came from, and why the disk cache was not used, if it was not.
fn make_ready(
    ctx: &Arc<CudaContext>,
    info: &GpuInfo,
    module: &KernelModule,
    (done, total): (usize, usize),
) -> Result<(Ready, String, Option<String>)> {
    let precompiled_problem = match (module.ptx, precompiled_runs_on(info.compute_capability)) {
        (Some(ptx), Ok(())) => {
            notify(Notice::Module { module: module.name, done, total, compiling: None });
            match ctx.load_module(Ptx::from_src(ptx)) {
                Ok(loaded) => return Ok((lookup(module, loaded)?, format!("precompiled PTX ({PTX_ARCH})"), None)),
                Err(e) => {
                    Some(format!("the precompiled {PTX_ARCH} PTX of kernels/{}.cu did not load: {e}", module.name))
                }
            }
        }
        (Some(_), Err(reason)) => Some(reason),
        (None, _) => None,
    };
    let arch = architecture(info.compute_capability);
    let with_reason = |e: anyhow::Error| match &precompiled_problem {
        Some(reason) => e.context(reason.clone()),
        None => e,
    };
    let key = cache_key(module, &arch).map_err(with_reason)?;
    let cache = cache();
    let mut note = cache.as_ref().err().cloned();
    let why = match &cache {
        Err(_) => Compiling::NoCache,
        Ok(cache) => match cache.load(&key) {
            Lookup::Hit(cubin) => {
                notify(Notice::Module { module: module.name, done, total, compiling: None });
                match ctx.load_module(Ptx::from_binary(cubin)) {
                    Ok(loaded) => return Ok((lookup(module, loaded)?, "kernel cache".into(), None)),
                    Err(e) => Compiling::CacheDamaged(format!("{} did not load ({e})", key.file_name())),
                }
            }
            Lookup::Corrupt(why) => Compiling::CacheDamaged(why),
            Lookup::Miss => Compiling::NotCached,
        },
    };
    if let Compiling::CacheDamaged(reason) = &why {
        note = Some(format!("{reason}; compiled again"));
    }
    notify(Notice::Module { module: module.name, done, total, compiling: Some(why) });
    let cubin = compile(module.name, module.source, &arch).map_err(with_reason)?;
    if let Ok(cache) = &cache
        && let Err(why) = cache.store(&key, &cubin)
    {
        note = Some(why);
    }
    let loaded = ctx
        .load_module(Ptx::from_binary(cubin))
        .with_context(|| format!("cannot load the {} kernels NVRTC compiled", module.name))?;
    Ok((lookup(module, loaded)?, format!("compiled by NVRTC {arch}"), note))
}

/// The process's kernel cache, or why there is none (said once, to the listener).
fn cache() -> Result<KernelCache, String> {
    static CACHE: OnceLock<Result<KernelCache, String>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            let cache = KernelCache::open_default();
            if let Err(reason) = &cache {
                notify(Notice::NoCache { reason: reason.clone() });
            }
            cache
        })
        .clone()
}

/// The cache key of `module` compiled for `arch` by this machine's NVRTC for its driver.
fn cache_key(module: &KernelModule, arch: &str) -> Result<CacheKey> {
    Ok(CacheKey::new(module.name, module.source, arch, nvrtc_version()?, driver_version()?))
}

fn nvrtc_version() -> Result<(i32, i32)> {
    // SAFETY: this only tries to open the shared library (dlopen); nothing is called through it.
    let present = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    ensure!(present, "NVRTC (libnvrtc.so, from the CUDA toolkit) is needed to compile the kernels and is absent");
    let (mut major, mut minor) = (0, 0);
    // SAFETY: writes two ints.
    unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .context("cannot ask NVRTC its version")?;
    Ok((major, minor))
}

fn driver_version() -> Result<i32> {
    let mut version = 0;
    // SAFETY: writes one int; the driver was initialised by the probe.
    unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }
        .result()
        .context("cannot ask the driver its version")?;
    Ok(version)
}

/// Every kernel of `module`, looked up in its loaded code.
fn lookup(module: &KernelModule, loaded: Arc<CudaModule>) -> Result<Ready> {
    let mut functions = Vec::with_capacity(module.kernels.len());
    for &name in module.kernels {
        let f = loaded.load_function(name).with_context(|| format!("no kernel {name} in {}", module.name))?;
        functions.push((name, f));
    }
    Ok(Ready { _module: loaded, functions })
}

/// Copies a page to the device and back. A process's first copy pays the driver's one-time set-up
/// of its copy path whatever its size (milliseconds, as long as a whole labeling of a small graph).
/// Done here it belongs to the start-up, with the context, instead of to the first labeling or
/// search.
fn warm_up_copies(stream: &Arc<CudaStream>) -> Result<()> {
    let page = stream.clone_htod(&[0u8; 4096]).context("cannot copy to the GPU")?;
    stream.clone_dtoh(&page).context("cannot copy from the GPU")?;
    Ok(())
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

/// NVRTC's `--gpu-architecture` for a compute capability (`sm_90` for Hopper): a real architecture,
/// so NVRTC emits a cubin the driver loads without compiling.
fn architecture((major, minor): (i32, i32)) -> String {
    format!("sm_{major}{minor}")
}

/// Compiles one kernel source to a cubin for `arch` (a real architecture, `sm_90`).
pub fn compile(name: &str, source: &str, arch: &str) -> Result<Vec<u8>> {
    use cudarc::nvrtc::{result, sys};
    let fail = |what: &str, e: &dyn std::fmt::Display| anyhow!("NVRTC cannot compile kernels/{name}.cu: {what}: {e}");
    let c_source = std::ffi::CString::new(source).context("a kernel source holds a NUL byte")?;
    let c_name = std::ffi::CString::new(format!("{name}.cu")).context("a module name holds a NUL byte")?;
    let program = result::create_program(&c_source, Some(&c_name)).map_err(|e| fail("create", &e))?;
    /// Destroys the program however the compilation ends.
    struct Program(sys::nvrtcProgram);
    impl Drop for Program {
        fn drop(&mut self) {
            // SAFETY: the program was created above and is destroyed once.
            let _ = unsafe { result::destroy_program(self.0) };
        }
    }
    let program = Program(program);
    let options = [format!("--gpu-architecture={arch}")];
    // SAFETY: a program created above, options as NVRTC takes them.
    if let Err(e) = unsafe { result::compile_program(program.0, &options) } {
        // SAFETY: the log of the program just compiled.
        let log = unsafe { result::get_program_log(program.0) }.unwrap_or_default();
        // SAFETY: NVRTC's log is NUL-terminated.
        let log = unsafe { std::ffi::CStr::from_ptr(log.as_ptr()) }.to_string_lossy().into_owned();
        bail!("NVRTC cannot compile kernels/{name}.cu for {arch}: {e}\n{log}");
    }
    let mut size = 0usize;
    // SAFETY: writes one size of the program compiled above.
    unsafe { sys::nvrtcGetCUBINSize(program.0, &mut size) }.result().map_err(|e| fail("cubin size", &e))?;
    ensure!(size > 0, "NVRTC made no cubin of kernels/{name}.cu for {arch} (a virtual architecture?)");
    let mut cubin = vec![0u8; size];
    // SAFETY: `cubin` holds the `size` bytes NVRTC writes.
    unsafe { sys::nvrtcGetCUBIN(program.0, cubin.as_mut_ptr().cast()) }.result().map_err(|e| fail("cubin", &e))?;
    Ok(cubin)
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
            let cubin = compile(module.name, module.source, "sm_90").unwrap_or_else(|e| panic!("{e:#}"));
            assert_eq!(&cubin[..4], b"\x7fELF", "{}: a cubin is an ELF file", module.name);
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
