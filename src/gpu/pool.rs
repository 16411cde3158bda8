//! The device's memory pool, told to keep what a run frees (up to a limit) instead of handing it
//! back to the driver at every synchronisation.
//!
//! cudarc allocates from the driver's stream-ordered pool (`cuMemAllocAsync`). By default that pool
//! unmaps freed memory at every synchronisation, so each labeling would map its hundred-odd arrays
//! afresh and unmap them at the end, a sizeable share of a small graph's run (docs/BENCHMARKS.md,
//! "Measurements behind design choices"). With a release threshold the pool keeps up to that much
//! of what it is given back, so the first run maps the memory it needs (on demand, nothing is
//! mapped at start-up) and later runs in the process sub-allocate from it.

use anyhow::{Context, Result};
use cudarc::driver::{CudaContext, sys};
use std::ffi::c_void;
use std::sync::Arc;

/// At most this much freed memory stays with the process (a run on a graph of a few million
/// vertices fits in it; larger ones map the rest as they go and hand it back).
const RESERVE_MAX: u64 = 2 << 30;

/// The device's default memory pool, the one cudarc's allocations come from.
fn default_pool(ctx: &CudaContext) -> Result<sys::CUmemoryPool> {
    let mut pool = std::ptr::null_mut();
    // SAFETY: writes one pool handle for a valid device.
    unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, ctx.cu_device()) }.result().context("no memory pool")?;
    Ok(pool)
}

/// Makes the pool keep up to an eighth of the free memory (at most [`RESERVE_MAX`]) of what is
/// freed (the rest goes back to the driver, so a large run's arrays do not stay with the process).
pub fn keep_freed(ctx: &Arc<CudaContext>) -> Result<()> {
    let pool = default_pool(ctx)?;
    let (free, _) = ctx.mem_get_info()?;
    let mut keep = (free as u64 / 8).min(RESERVE_MAX);
    // SAFETY: the release threshold is a u64 attribute.
    unsafe {
        sys::cuMemPoolSetAttribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            &mut keep as *mut u64 as *mut c_void,
        )
    }
    .result()
    .context("cannot configure the memory pool")?;
    Ok(())
}

/// Bytes the pool holds but no allocation uses (free for the process, though the driver counts them
/// as used).
pub fn idle_bytes(ctx: &CudaContext) -> Result<u64> {
    let pool = default_pool(ctx)?;
    let read = |attr| -> Result<u64> {
        let mut value = 0u64;
        // SAFETY: both attributes are u64.
        unsafe { sys::cuMemPoolGetAttribute(pool, attr, &mut value as *mut u64 as *mut c_void) }
            .result()
            .context("cannot read the memory pool")?;
        Ok(value)
    };
    let reserved = read(sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)?;
    let used = read(sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT)?;
    Ok(reserved.saturating_sub(used))
}
