//! Copies between host and device through two pinned (page-locked) buffers, the cores and the copy
//! engine working at once.
//!
//! A copy from ordinary (pageable) memory goes through the driver's own pinned buffers, filled by
//! one `memcpy` on the calling thread, at that thread's pace. Here every core fills one pinned
//! buffer while the copy engine sends the other, and the downloads come back the same way, so a
//! copy runs at the pace of the bus instead of one thread.
//! The buffers are allocated once per process, by its first large copy.

use anyhow::{Context, Result};
use bytemuck::Pod;
use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, CudaView, DevicePtr, DevicePtrMut, PinnedHostSlice,
};
use rayon::prelude::*;
use std::sync::Arc;

/// Bytes per pinned buffer: a few hundred microseconds of copying, so the overlap loses little at
/// either end, and the landing's chunk size ([`super::landing::CHUNK_BYTES`]), so a downloaded chunk
/// fills one landing chunk.
pub const STAGE_BYTES: usize = super::landing::CHUNK_BYTES;

/// Bytes the cores copy per task (a buffer is split over every core).
const TASK_BYTES: usize = 256 << 10;

/// The two pinned buffers and, for each, the event of the last copy that used it.
pub struct Staging {
    slots: [Slot; 2],
}

struct Slot {
    host: PinnedHostSlice<u8>,
    /// Recorded after the copy engine's last use of `host`; the host touches the buffer only after
    /// it has passed.
    used: CudaEvent,
}

impl Staging {
    /// Allocates the pinned buffers (cached host memory: downloads are read back by the cores).
    pub fn new(ctx: &Arc<CudaContext>) -> Result<Staging> {
        let slot = || -> Result<Slot> {
            // SAFETY: the memory is uninitialised; it is only ever written before it is read (an
            // upload copies into it, a download lands in it before the host reads it).
            let host = unsafe { ctx.alloc_pinned_with_flags::<u8>(STAGE_BYTES, 0) }
                .context("cannot allocate pinned host memory")?;
            Ok(Slot { host, used: ctx.new_event(None)? })
        };
        Ok(Staging { slots: [slot()?, slot()?] })
    }

    /// Copies `src` into the start of `dst` (queued on `stream`; later work on it sees the data).
    pub fn upload<T: Pod + Send + Sync>(
        &mut self,
        stream: &Arc<CudaStream>,
        src: &[T],
        dst: &mut CudaSlice<T>,
    ) -> Result<()> {
        assert!(src.len() <= dst.len(), "an upload of {} values into {}", src.len(), dst.len());
        let per_stage = STAGE_BYTES / std::mem::size_of::<T>();
        let (base, _record) = dst.device_ptr_mut(stream);
        for (k, chunk) in src.chunks(per_stage).enumerate() {
            let slot = &mut self.slots[k % 2];
            // The copy engine must be done with this buffer's last chunk before the cores refill it.
            slot.used.synchronize()?;
            let staged: &mut [T] = bytemuck::cast_slice_mut(&mut slot.host.as_mut_slice()?[..size_of_val(chunk)]);
            parallel_copy(chunk, staged);
            let at = base + (k * per_stage * std::mem::size_of::<T>()) as u64;
            // SAFETY: `at` and the chunk's length lie inside `dst` (src fits in it, asserted above);
            // `staged` is pinned memory this `Staging` owns and does not touch again until `used`
            // has passed, so the asynchronous copy reads it whole.
            unsafe { cudarc::driver::result::memcpy_htod_async(at, staged, stream.cu_stream()) }?;
            slot.used.record(stream)?;
        }
        Ok(())
    }

    /// Downloads each of `parts` (each at most [`STAGE_BYTES`]) in order, handing its values to
    /// `take(i, values)`: the copy engine brings part `i + 1` while the host takes part `i`.
    pub fn download<T: Pod>(
        &mut self,
        stream: &Arc<CudaStream>,
        parts: &[CudaView<'_, T>],
        mut take: impl FnMut(usize, &[T]) -> Result<()>,
    ) -> Result<()> {
        let bring = |slots: &mut [Slot; 2], i: usize| -> Result<()> {
            let part = &parts[i];
            let bytes = part.len() * std::mem::size_of::<T>();
            assert!(bytes <= STAGE_BYTES, "a download part of {bytes} bytes");
            let slot = &mut slots[i % 2];
            let landing = &mut slot.host.as_mut_slice()?[..bytes];
            let (from, _record) = part.device_ptr(stream);
            // SAFETY: the part's device range is valid for `bytes`; the pinned buffer holds them,
            // and the host reads it only after `used` (recorded next) has passed.
            unsafe { cudarc::driver::result::memcpy_dtoh_async(landing, from, stream.cu_stream()) }?;
            slot.used.record(stream)?;
            Ok(())
        };
        if !parts.is_empty() {
            bring(&mut self.slots, 0)?;
        }
        for i in 0..parts.len() {
            if i + 1 < parts.len() {
                // The other buffer's last part was taken (synchronously) in the previous round.
                bring(&mut self.slots, i + 1)?;
            }
            let slot = &mut self.slots[i % 2];
            slot.used.synchronize()?;
            let bytes = parts[i].len() * std::mem::size_of::<T>();
            take(i, bytemuck::cast_slice(&slot.host.as_slice()?[..bytes]))?;
        }
        Ok(())
    }
}

/// `dst.copy_from_slice(src)` on every core.
pub fn parallel_copy<T: Pod + Send + Sync>(src: &[T], dst: &mut [T]) {
    let per_task = (TASK_BYTES / std::mem::size_of::<T>()).max(1);
    dst.par_chunks_mut(per_task).zip(src.par_chunks(per_task)).for_each(|(d, s)| d.copy_from_slice(s));
}
