//! One dimension's working arrays on the device.
//!
//! Every dimension walks the same Kahn levels (`gpu::level_queues`), and on a graph of a few
//! thousand vertices per level one dimension's launches leave most of the GPU idle (random 1M / 50
//! averages about 3,900 vertices per level, so parent selection's warp per vertex asks for under
//! half of an H100's 8,448 warp slots, and the other phases' launches last a few microseconds). So the labeler runs the
//! dimensions side by side, each in a lane: its own tree, prefixes, order and label arrays, sharing
//! the read-only graph and levels. A level's launch covers every lane at once (a [`LaneTable`] of
//! their arrays, blockIdx.z the lane): with a launch per lane and level, the host's launches
//! (microseconds each, 4 phases × 4 lanes per level) would set the pace.

use super::context::Gpu;
use super::memory::Ledger;
use crate::constants::{MAX_LANES, PATH_PREFIX_STEPS, WARP_SIZE};
use anyhow::Result;
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DeviceRepr};
use std::sync::Arc;

/// What sizes a lane's arrays: the vertices, the random order's priority buckets, the entries the
/// hub path of parent selection needs, and the prefix-sum chunks.
#[derive(Clone, Copy, Debug)]
pub struct LaneShape {
    pub n: usize,
    pub buckets: usize,
    pub hub_partial: usize,
    pub chunks: usize,
}

/// One dimension's device state (see the module's comment); the fields are the pipeline's.
pub struct Lane {
    /// `Node`s (4 × u32: parent, depth, jump, key) of the n vertices and the virtual root ρ = n.
    pub tree: CudaSlice<u32>,
    /// The first `PATH_PREFIX_STEPS` steps of each node's T-path, as order keys (`Prefix` in the
    /// kernels).
    pub prefix: CudaSlice<u32>,
    pub key: CudaSlice<u32>,
    /// The dimension's roots in order (the first `root_count` entries).
    pub roots: CudaSlice<u32>,
    pub root_count: u32,
    /// Per chunk of `ROOT_CHUNK` roots (or values of another scan): its total, then where it starts.
    pub chunk_totals: CudaSlice<u32>,
    pub chunk_carries: CudaSlice<u32>,
    /// The vertices in key order (position = key).
    pub by_key: CudaSlice<u32>,
    /// The random order's priority buckets (see `priority_counts`): their sizes, starts, fill
    /// cursors and members.
    pub bucket_count: CudaSlice<u32>,
    pub bucket_start: CudaSlice<u32>,
    pub bucket_cursor: CudaSlice<u32>,
    pub bucket_members: CudaSlice<u32>,
    /// Per position of `by_key`: whether the vertex is a root, and the roots before it.
    pub root_flag: CudaSlice<u32>,
    pub root_position: CudaSlice<u32>,
    /// The hub path's partial bests (parent selection of in-degrees too large for one block).
    pub hub_partial: CudaSlice<u32>,
    pub size: CudaSlice<u32>,
    pub offset: CudaSlice<u32>,
    /// T-parents with more than `WARP_SIZE` T-children (hubs), whose sibling sums take a sort: hubs
    /// listed and scratch taken, then per hub `count << 32 | vertex` and its scratch start.
    pub hub_state: CudaSlice<u64>,
    pub hubs: CudaSlice<u64>,
    pub hub_scratch: CudaSlice<u64>,
    pub post: CudaSlice<u32>,
    pub low: CudaSlice<u32>,
}

impl Lane {
    /// Allocates a lane's arrays on stream `s` (zeroed there), recorded in `ledger` under the same
    /// names for every lane.
    pub fn new(ledger: &mut Ledger, s: &Arc<CudaStream>, shape: LaneShape) -> Result<Lane> {
        let LaneShape { n, buckets, hub_partial, chunks } = shape;
        Ok(Lane {
            tree: ledger.zeros(s, "DFS tree", 4 * (n + 1))?,
            prefix: ledger.zeros(s, "DFS tree path prefixes", PATH_PREFIX_STEPS * (n + 1))?,
            key: ledger.zeros(s, "order keys", n)?,
            roots: ledger.zeros(s, "roots in order", n)?,
            root_count: 0,
            chunk_totals: ledger.zeros(s, "scan chunk totals", chunks)?,
            chunk_carries: ledger.zeros(s, "scan chunk starts", chunks)?,
            by_key: ledger.zeros(s, "vertices in key order", n)?,
            bucket_count: ledger.zeros(s, "priority bucket sizes", buckets)?,
            bucket_start: ledger.zeros(s, "priority bucket starts", buckets)?,
            bucket_cursor: ledger.zeros(s, "priority bucket cursors", buckets)?,
            bucket_members: ledger.zeros(s, "priority bucket members", n)?,
            root_flag: ledger.zeros(s, "root flags", n)?,
            root_position: ledger.zeros(s, "root positions", n)?,
            hub_partial: ledger.zeros(s, "hub partial parents", hub_partial)?,
            size: ledger.zeros(s, "subtree sizes", n)?,
            offset: ledger.zeros(s, "offsets", n)?,
            hub_state: ledger.zeros(s, "hub counters", 2)?,
            // Hubs have disjoint sets of more than WARP_SIZE T-children; each sorts in a
            // power-of-two span.
            hubs: ledger.zeros(s, "hubs", 2 * (n / WARP_SIZE as usize + 1))?,
            hub_scratch: ledger.zeros(s, "hub sort scratch", 2 * n)?,
            post: ledger.zeros(s, "post", n)?,
            low: ledger.zeros(s, "low", n)?,
        })
    }

    /// Lanes for `wanted` dimensions side by side, as many as the device's free memory affords
    /// (half of it at most; always one), on the context's stream.
    pub fn open_lanes(gpu: &Gpu, ledger: &mut Ledger, shape: LaneShape, wanted: usize) -> Result<Vec<Lane>> {
        let before = ledger.total();
        let mut lanes = vec![Lane::new(ledger, &gpu.stream, shape)?];
        // Every lane is the same size as the first, as the ledger counted it.
        let lane_bytes = ledger.total() - before;
        let wanted = wanted.clamp(1, MAX_LANES);
        if wanted > 1 {
            let (free, _) = gpu.memory()?;
            let affordable = (free / 2 / lane_bytes.max(1)) as usize;
            for _ in 1..wanted.min(1 + affordable) {
                lanes.push(Lane::new(ledger, &gpu.stream, shape)?);
            }
        }
        Ok(lanes)
    }
}

/// The device addresses of some lanes' arrays, in the layout of the kernels' `Lanes` (lane l of a
/// launch is its blockIdx.z = l); the entries past the lanes given are null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct LaneTable {
    tree: [u64; MAX_LANES],
    prefix: [u64; MAX_LANES],
    size: [u64; MAX_LANES],
    offset: [u64; MAX_LANES],
    post: [u64; MAX_LANES],
    low: [u64; MAX_LANES],
    partial: [u64; MAX_LANES],
}

// SAFETY: plain data in the C layout of the kernels' `struct Lanes` (7 arrays of MAX_LANES
// pointers), which the kernels read by value.
unsafe impl DeviceRepr for LaneTable {}

impl LaneTable {
    /// The table of `lanes` (at most [`MAX_LANES`]). The kernels write through these addresses:
    /// a launch given the table must be queued on `stream`, where the lanes' arrays were allocated
    /// and will be freed, and no host code borrows device memory.
    pub fn of(lanes: &[Lane], stream: &CudaStream) -> LaneTable {
        assert!(lanes.len() <= MAX_LANES, "{} lanes in one launch", lanes.len());
        let mut t = LaneTable::default();
        let at = |slice: &CudaSlice<u32>| slice.device_ptr(stream).0;
        for (i, l) in lanes.iter().enumerate() {
            t.tree[i] = at(&l.tree);
            t.prefix[i] = at(&l.prefix);
            t.size[i] = at(&l.size);
            t.offset[i] = at(&l.offset);
            t.post[i] = at(&l.post);
            t.low[i] = at(&l.low);
            t.partial[i] = at(&l.hub_partial);
        }
        t
    }
}
