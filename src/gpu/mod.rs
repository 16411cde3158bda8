//! The GPU back end: labeling pipeline and concurrent batch search on NVIDIA GPUs, through cudarc
//! (the driver and NVRTC are loaded at run time, so every build has this code and a machine
//! without a GPU gets a one-line reason from [`probe`] instead of a crash).

pub(crate) mod apsp;
pub(crate) mod context;
pub(crate) mod exact_bfs;
pub(crate) mod exact_closure;
pub(crate) mod exceptions;
pub(crate) mod kernel_cache;
pub mod kernels;
pub(crate) mod landing;
pub(crate) mod lane;
pub(crate) mod level_queues;
pub(crate) mod memory;
pub(crate) mod pipeline;
pub(crate) mod pool;
pub(crate) mod probe;
pub(crate) mod query_index;
pub(crate) mod search;
pub(crate) mod search_index;
pub(crate) mod sssp;
pub(crate) mod staging;
pub(crate) mod startup;
pub(crate) mod timeline;

pub use context::{Gpu, prepare, shared, startup_so_far};
pub use probe::{GpuInfo, availability, describe, probe};
