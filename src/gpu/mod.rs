//! The GPU back end: labeling pipeline and concurrent batch search on NVIDIA GPUs, through cudarc
//! (the driver and NVRTC are loaded at run time, so every build has this code and a machine
//! without a GPU gets a one-line reason from [`probe`] instead of a crash).

pub mod context;
pub mod exact_bfs;
pub mod exact_closure;
pub mod exceptions;
pub mod kernel_cache;
pub mod kernels;
pub mod landing;
pub mod lane;
pub mod level_queues;
pub mod memory;
pub mod pipeline;
pub mod pool;
pub mod probe;
pub mod search;
pub mod staging;
pub mod startup;
pub mod timeline;

pub use context::{Gpu, prepare, shared, startup_so_far};
pub use probe::{GpuInfo, availability, describe, probe};
