//! Processing one level's frontier: the queue split for telemetry, and the parallel loop.

use crate::telemetry::{LARGE_DEGREE_LIMIT, QueueSizes};
use rayon::prelude::*;

/// Below this many vertices a level runs on the calling thread: deep, narrow graphs (a chain has a
/// level per vertex) would otherwise pay rayon's fork-join cost once per vertex.
const PARALLEL_FRONTIER: usize = 1024;

/// A single vertex's list at least this long is worked through in parallel (ρ's children, the
/// roots, in phases 2 and 3).
pub const WIDE_LIST: usize = 1 << 16;

/// Whether one vertex's scan should itself be split across threads (the large queue: on the GPU a
/// block per vertex; here a parallel reduction).
#[inline]
pub fn is_large(degree: usize) -> bool {
    degree > LARGE_DEGREE_LIMIT
}

/// The queue sizes of a frontier and the edges its vertices scan, given the scanned degree.
pub fn measure(frontier: &[u32], degree: impl Fn(u32) -> usize + Sync) -> (QueueSizes, u64) {
    if frontier.len() < PARALLEL_FRONTIER {
        measure_here(frontier, degree)
    } else {
        frontier.par_iter().map(|&v| one_vertex(degree(v))).reduce(|| (QueueSizes::default(), 0), merge)
    }
}

/// [`measure`] on the calling thread, however long the frontier: for runs of tiny levels, which
/// would otherwise wait for the pool once per run.
pub fn measure_here(frontier: &[u32], degree: impl Fn(u32) -> usize) -> (QueueSizes, u64) {
    frontier.iter().map(|&v| one_vertex(degree(v))).fold((QueueSizes::default(), 0), merge)
}

fn one_vertex(degree: usize) -> (QueueSizes, u64) {
    let mut q = QueueSizes::default();
    q.add(degree);
    (q, degree as u64)
}

fn merge(a: (QueueSizes, u64), b: (QueueSizes, u64)) -> (QueueSizes, u64) {
    (a.0.merged(b.0), a.1 + b.1)
}

/// Runs `f` on every frontier vertex, in parallel when the frontier is wide.
pub fn for_each(frontier: &[u32], f: impl Fn(u32) + Sync + Send) {
    if frontier.len() < PARALLEL_FRONTIER {
        frontier.iter().for_each(|&v| f(v));
    } else {
        frontier.par_iter().with_min_len(256).for_each(|&v| f(v));
    }
}

/// How far ahead [`for_each_prefetched`] announces vertices: `near` for the data a vertex reads
/// first (found through what `far` fetched), `far` for what is found without any reading.
const PREFETCH_NEAR: usize = 4;
const PREFETCH_FAR: usize = 12;

/// [`for_each`] for scans bound by memory latency: frontiers come in Kahn order, which is random in
/// memory, so before running `f` on a vertex it calls `far(w)` for the vertex `w` twelve places
/// later (prefetch what its address alone locates, e.g. its CSR offsets) and `near(u)` for the one
/// four places later (prefetch what those lead to, e.g. its adjacency list). Each thread walks a
/// contiguous chunk, so the announcements stay on the thread that uses them.
pub fn for_each_prefetched(
    frontier: &[u32],
    far: impl Fn(u32) + Sync + Send,
    near: impl Fn(u32) + Sync + Send,
    f: impl Fn(u32) + Sync + Send,
) {
    let walk = |chunk: &[u32]| {
        for (i, &v) in chunk.iter().enumerate() {
            if let Some(&w) = chunk.get(i + PREFETCH_FAR) {
                far(w);
            }
            if let Some(&u) = chunk.get(i + PREFETCH_NEAR) {
                near(u);
            }
            f(v);
        }
    };
    if frontier.len() < PARALLEL_FRONTIER {
        walk(frontier);
    } else {
        frontier.par_chunks(256).for_each(walk);
    }
}

/// Runs a fallible `f` on every frontier vertex; returns one of the errors if any vertex failed.
pub fn try_for_each<E: Send>(frontier: &[u32], f: impl Fn(u32) -> Result<(), E> + Sync + Send) -> Result<(), E> {
    if frontier.len() < PARALLEL_FRONTIER {
        frontier.iter().try_for_each(|&v| f(v))
    } else {
        frontier.par_iter().with_min_len(256).try_for_each(|&v| f(v))
    }
}

/// Atomics for arrays the frontier writes in parallel: each vertex writes only its own slots, and
/// rayon's join at the end of a level orders those writes before the next level reads them, so
/// `Relaxed` suffices (plain loads and stores on x86 and ARM).
pub mod atomic {
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

    /// Zeroed by the allocator: fresh pages come zero, so nothing is written here, and the
    /// kernel's zeroing happens where the phases first touch them, on every thread.
    pub fn zeroed_u32(n: usize) -> Vec<AtomicU32> {
        bytemuck::zeroed_vec(n)
    }

    pub fn zeroed_u64(n: usize) -> Vec<AtomicU64> {
        bytemuck::zeroed_vec(n)
    }

    #[inline]
    pub fn get(a: &[AtomicU32], i: u32) -> u32 {
        a[i as usize].load(Relaxed)
    }

    #[inline]
    pub fn set(a: &[AtomicU32], i: u32, value: u32) {
        a[i as usize].store(value, Relaxed);
    }

    #[inline]
    pub fn get64(a: &[AtomicU64], i: usize) -> u64 {
        a[i].load(Relaxed)
    }

    #[inline]
    pub fn set64(a: &[AtomicU64], i: usize, value: u64) {
        a[i].store(value, Relaxed);
    }

    /// The plain values, once no thread writes any more: in place, as the standard library reuses
    /// a vector's allocation when mapping it to a type of the same layout.
    pub fn into_plain(a: Vec<AtomicU32>) -> Vec<u32> {
        a.into_iter().map(AtomicU32::into_inner).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn measure_counts_queues_and_edges_the_same_way_serial_and_parallel() {
        for n in [10u32, 5000] {
            let frontier: Vec<u32> = (0..n).collect();
            let (q, edges) = measure(&frontier, |v| (v % 300) as usize);
            let expect_edges: u64 = (0..n).map(|v| (v % 300) as u64).sum();
            assert_eq!(edges, expect_edges);
            assert_eq!(q.total(), n as u64);
            let large = (0..n).filter(|v| v % 300 > 256).count() as u64;
            assert_eq!(q.large, large);
        }
    }

    #[test]
    fn for_each_visits_every_vertex_once() {
        for n in [3u32, 4000] {
            let frontier: Vec<u32> = (0..n).collect();
            let sum = AtomicU64::new(0);
            for_each(&frontier, |v| {
                sum.fetch_add(v as u64 + 1, Ordering::Relaxed);
            });
            assert_eq!(sum.into_inner(), (n as u64) * (n as u64 + 1) / 2);
        }
    }
}
