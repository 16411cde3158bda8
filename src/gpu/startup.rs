//! What opening the GPU costs, part by part, and who hears of it while it happens.
//!
//! The parts are measured where they happen (the probe opens the driver and the context, the GPU's
//! first use sets up the pool and the copy path, each kernel module is made ready on first use) and
//! reported apart from the work, so a labeling's or a search's time compares with the CPU's.

use serde::Serialize;
use std::sync::Mutex;

/// Seconds per part of opening the GPU in this process.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Startup {
    /// Loading the driver library and initialising it (`cuInit`, counting the devices).
    pub driver_seconds: f64,
    /// Creating GPU 0's context.
    pub context_seconds: f64,
    /// Configuring the memory pool (it maps memory on demand, not here).
    pub pool_seconds: f64,
    /// The process's first copy to the device and back (the driver's one-time set-up of its copy
    /// path, which would otherwise fall on the first upload).
    pub first_copy_seconds: f64,
    /// Every kernel module made ready so far (the sum of `modules`).
    pub kernels_seconds: f64,
    /// Each module made ready, in the order they were.
    pub modules: Vec<ModuleStartup>,
}

/// One kernel module made ready.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ModuleStartup {
    pub module: &'static str,
    /// Where its code came from: `precompiled PTX (compute_80)`, `kernel cache`, or
    /// `compiled by NVRTC sm_90`.
    pub source: String,
    pub seconds: f64,
    /// Why the disk cache was not used or not written, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_note: Option<String>,
}

impl Startup {
    /// Every part together.
    pub fn total_seconds(&self) -> f64 {
        self.driver_seconds + self.context_seconds + self.pool_seconds + self.first_copy_seconds + self.kernels_seconds
    }

    /// Whether any module was compiled in this process (a first run on this machine, or a cache
    /// that could not be used).
    pub fn compiled(&self) -> bool {
        self.modules.iter().any(|m| m.source.starts_with("compiled"))
    }

    /// One line for reports: the total and its largest parts.
    pub fn summary(&self) -> String {
        use crate::format::duration;
        let mut parts = vec![
            format!("driver {}", duration(self.driver_seconds)),
            format!("context {}", duration(self.context_seconds)),
            format!("first copy {}", duration(self.first_copy_seconds + self.pool_seconds)),
        ];
        if !self.modules.is_empty() {
            let origins: Vec<&str> = self.modules.iter().map(|m| m.source.as_str()).collect();
            let mut unique = origins.clone();
            unique.dedup();
            parts.push(format!("kernels {} ({})", duration(self.kernels_seconds), unique.join(", ")));
        }
        format!("{} ({})", duration(self.total_seconds()), parts.join(", "))
    }
}

/// A report's start-up fields: the total and its parts, both null where the GPU was not opened.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StartupFields {
    /// Opening the GPU and readying the kernels the command used (once per process; in no other
    /// time of the report).
    pub gpu_startup_seconds: Option<f64>,
    pub gpu_startup: Option<Startup>,
}

impl StartupFields {
    /// The fields of `startup` (`crate::gpu::startup_so_far()`: this process's so far).
    pub fn of(startup: Option<Startup>) -> StartupFields {
        StartupFields { gpu_startup_seconds: startup.as_ref().map(Startup::total_seconds), gpu_startup: startup }
    }

    /// A line for reports, when the GPU was opened.
    pub fn line(&self) -> Option<String> {
        self.gpu_startup
            .as_ref()
            .map(|s| format!("GPU start-up {} (once per process, not in the times above)", s.summary()))
    }
}

/// What is happening while the GPU opens, for whoever shows progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Making kernel module `done + 1` of `total` ready (`module`): from precompiled code or the
    /// cache (`compiling` is none), or compiled by NVRTC, and why.
    Module { module: &'static str, done: usize, total: usize, compiling: Option<Compiling> },
    /// The kernel cache cannot be used; the kernels are compiled in memory on every run.
    NoCache { reason: String },
}

/// Why a module is compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Compiling {
    /// The cache has no copy: the first run on this machine (or after an update of the kernels,
    /// NVRTC or the driver).
    NotCached,
    /// The cached copy is damaged or did not load (why); it is overwritten.
    CacheDamaged(String),
    /// There is no usable cache (said by [`Notice::NoCache`]).
    NoCache,
}

type Listener = Box<dyn Fn(&Notice) + Send + Sync>;

static LISTENER: Mutex<Option<Listener>> = Mutex::new(None);

/// Sends every later [`Notice`] to `listener` (replacing any earlier one).
pub fn listen(listener: impl Fn(&Notice) + Send + Sync + 'static) {
    *LISTENER.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(listener));
}

/// Tells the listener, if there is one.
pub(crate) fn notify(notice: Notice) {
    if let Some(listener) = LISTENER.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        listener(&notice);
    }
}

/// The command line's listener: a line on stderr when the kernels are compiled (a machine's first
/// run) or cannot be cached; nothing when they come from the cache.
pub fn stderr_notices(notice: &Notice) {
    match notice {
        Notice::Module { module, compiling: Some(why), .. } => {
            let why = match why {
                Compiling::NotCached => {
                    let cache = super::kernel_cache::default_dir()
                        .map(|d| format!("; cached in {} for the next runs", d.join("kernels").display()))
                        .unwrap_or_default();
                    format!("first run on this machine{cache}")
                }
                Compiling::CacheDamaged(reason) => format!("the cached copy cannot be used: {reason}"),
                Compiling::NoCache => "no cache to keep them in".into(),
            };
            eprintln!("compiling the GPU kernels of {module} ({why})");
        }
        Notice::NoCache { reason } => {
            eprintln!("note: the compiled GPU kernels cannot be cached ({reason}); compiling them in memory");
        }
        Notice::Module { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_is_every_part_and_the_summary_names_the_kernels_origin() {
        let startup = Startup {
            driver_seconds: 0.05,
            context_seconds: 0.1,
            pool_seconds: 0.0,
            first_copy_seconds: 0.01,
            kernels_seconds: 0.002,
            modules: vec![ModuleStartup {
                module: "labeling",
                source: "kernel cache".into(),
                seconds: 0.002,
                cache_note: None,
            }],
        };
        assert!((startup.total_seconds() - 0.162).abs() < 1e-9);
        assert!(!startup.compiled());
        let line = startup.summary();
        assert!(line.contains("driver") && line.contains("kernel cache"), "{line}");
        let compiled = Startup {
            modules: vec![ModuleStartup { source: "compiled by NVRTC sm_90".into(), ..startup.modules[0].clone() }],
            ..startup
        };
        assert!(compiled.compiled());
    }
}
