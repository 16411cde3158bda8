//! Host memory the labels are downloaded into, made ready chunk by chunk while the GPU works.
//!
//! A download into fresh memory runs at the pace of the kernel handing out (and zeroing) its pages
//! one by one on the copying thread; so every page is touched first, by all cores, in the
//! background. On a large graph that takes longer than the GPU's whole run, so waiting for all of
//! it before downloading anything would be a visible delay. Touched in chunks, in order, each chunk can be downloaded as soon as it is ready, while
//! the cores touch the next: the two overlap.

use rayon::prelude::*;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex};

/// Bytes per chunk: 8 MiB, a fraction of a millisecond of download, so the overlap loses little at
/// either end.
pub const CHUNK_BYTES: usize = 8 << 20;
const CHUNK: usize = CHUNK_BYTES / std::mem::size_of::<u32>();
const PAGE: usize = 4096 / std::mem::size_of::<u32>();

/// How many chunks of each buffer are ready, in order.
#[derive(Default)]
struct Progress {
    ready: Mutex<Vec<usize>>,
    changed: Condvar,
}

/// Uninitialised host buffers of `u32`, their pages touched in the background, chunk after chunk.
pub struct Landing {
    buffers: Vec<Raw>,
    progress: Arc<Progress>,
}

/// A buffer's allocation, taken apart so the background job can touch it while the owner writes
/// the chunks already touched.
struct Raw {
    ptr: *mut u32,
    len: usize,
    cap: usize,
}

/// The pointer, for the background job (see the SAFETY notes where it is used).
#[derive(Clone, Copy)]
struct SendPtr(*mut u32);
// SAFETY: the job writes only chunks the owner does not touch until they are marked ready, and the
// allocation outlives the job (the owner waits for the job before freeing or handing it out).
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// Element `i` (a method, so that closures capture the whole `SendPtr`, not its raw pointer).
    fn at(self, i: usize) -> *mut u32 {
        self.0.wrapping_add(i)
    }
}

// SAFETY: `Raw` owns its allocation like a `Vec<u32>`.
unsafe impl Send for Raw {}

impl Landing {
    /// Buffers of the given lengths; their pages are touched on the rayon pool from now on.
    pub fn new(lengths: &[usize]) -> Landing {
        let buffers: Vec<Raw> = lengths
            .iter()
            .map(|&len| {
                let mut v = std::mem::ManuallyDrop::new(Vec::<u32>::with_capacity(len));
                Raw { ptr: v.as_mut_ptr(), len, cap: v.capacity() }
            })
            .collect();
        let progress = Arc::new(Progress { ready: Mutex::new(vec![0; lengths.len()]), changed: Condvar::new() });
        let jobs: Vec<(SendPtr, usize)> = buffers.iter().map(|b| (SendPtr(b.ptr), b.len)).collect();
        let shared = Arc::clone(&progress);
        rayon::spawn(move || {
            for (buffer, &(ptr, len)) in jobs.iter().enumerate() {
                for (chunk, start) in (0..len).step_by(CHUNK).enumerate() {
                    let end = (start + CHUNK).min(len);
                    (start..end).into_par_iter().step_by(PAGE).for_each(|i| {
                        // SAFETY: i < len <= the capacity allocated; this chunk is not yet marked
                        // ready, so only this job writes it, and the owner waits for the job before
                        // freeing the allocation (`Landing::finish`, `Drop`).
                        unsafe { ptr.at(i).write(0) }
                    });
                    let mut ready = shared.ready.lock().unwrap_or_else(|e| e.into_inner());
                    ready[buffer] = chunk + 1;
                    shared.changed.notify_all();
                }
            }
        });
        Landing { buffers, progress }
    }

    /// Every buffer's chunks, in the order they get ready: (buffer, range of its elements).
    pub fn chunks(&self) -> Vec<(usize, Range<usize>)> {
        let ranges =
            |(index, len): (usize, usize)| (0..len).step_by(CHUNK).map(move |s| (index, s..(s + CHUNK).min(len)));
        self.buffers.iter().map(|b| b.len).enumerate().flat_map(ranges).collect()
    }

    /// Chunk `range` of buffer `index` (one of [`Self::chunks`]), once its pages are touched. The
    /// caller must write every element of it before [`Self::finish`].
    pub fn chunk(&mut self, index: usize, range: Range<usize>) -> &mut [u32] {
        let Raw { ptr, len, .. } = self.buffers[index];
        assert!(range.start.is_multiple_of(CHUNK) && range.end == (range.start + CHUNK).min(len), "not a chunk");
        self.wait(index, range.start / CHUNK + 1);
        // SAFETY: the chunk is inside the allocation and marked ready, so the job is done with it;
        // `&mut self` keeps anyone else from holding it. Its elements may be uninitialised, which
        // the caller overwrites (a u32 has no invalid bit patterns, so even a partial write leaves
        // no invalid value).
        unsafe { std::slice::from_raw_parts_mut(ptr.add(range.start), range.len()) }
    }

    /// The buffers as vectors, once every chunk was written (see [`Self::chunk`]).
    pub fn finish(mut self) -> Vec<Vec<u32>> {
        self.wait_all();
        std::mem::take(&mut self.buffers)
            .into_iter()
            // SAFETY: the allocation came from a `Vec<u32>` of capacity `cap`; the caller filled
            // all `len` elements; the job is done with it (waited above).
            .map(|b| unsafe { Vec::from_raw_parts(b.ptr, b.len, b.cap) })
            .collect()
    }

    /// Waits until buffer `index` has at least `chunks` chunks ready. A rayon worker (a labeling
    /// run on the pool) helps with the pool's work meanwhile instead of blocking: on a pool of
    /// one thread, the touching job could otherwise never run.
    fn wait(&self, index: usize, chunks: usize) {
        loop {
            let ready = self.progress.ready.lock().unwrap_or_else(|e| e.into_inner());
            if ready[index] >= chunks {
                return;
            }
            if rayon::current_thread_index().is_some() {
                drop(ready);
                rayon::yield_now();
            } else {
                let timeout = std::time::Duration::from_millis(1);
                drop(self.progress.changed.wait_timeout(ready, timeout));
            }
        }
    }

    fn wait_all(&self) {
        for (i, b) in self.buffers.iter().enumerate() {
            self.wait(i, b.len.div_ceil(CHUNK));
        }
    }
}

impl Drop for Landing {
    fn drop(&mut self) {
        // Not finished (a failed or abandoned run): free the memory once the job has left it.
        self.wait_all();
        for b in self.buffers.drain(..) {
            // SAFETY: as in `finish`, with no element claimed initialised.
            drop(unsafe { Vec::from_raw_parts(b.ptr, 0, b.cap) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_fill_in_order_and_come_back_whole() {
        let lengths = [3 * CHUNK + 17, 0, 5];
        let mut landing = Landing::new(&lengths);
        let chunks = landing.chunks();
        let expected =
            [(0, 0..CHUNK), (0, CHUNK..2 * CHUNK), (0, 2 * CHUNK..3 * CHUNK), (0, 3 * CHUNK..3 * CHUNK + 17)];
        assert_eq!(chunks[..4], expected);
        assert_eq!(chunks[4..], [(2, 0..5)]);
        for (b, range) in chunks {
            for (x, i) in landing.chunk(b, range.clone()).iter_mut().zip(range) {
                *x = i as u32 ^ b as u32;
            }
        }
        let buffers = landing.finish();
        for (b, v) in buffers.iter().enumerate() {
            assert_eq!(v.len(), lengths[b]);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32 ^ b as u32));
        }
    }

    #[test]
    fn an_unfilled_landing_is_freed_safely() {
        drop(Landing::new(&[CHUNK + 1, 10]));
    }
}
