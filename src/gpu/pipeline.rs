//! GRAIL labels on the GPU: the four phases of the CPU pipeline (`index::pipeline`), level by level
//! on the device (`kernels/labeling.cu` says how each phase maps to kernels).
//!
//! The graph and every label array stay on the device between phases and dimensions. Kahn levels
//! do not depend on the order, and condensing the graph found them already: they go up with the
//! graph and are sorted into queues by degree class on the device (`gpu::level_queues`), so no
//! level needs a host round trip. Unless asked to go one dimension at a time (the explorer's default),
//! the dimensions run side by side, each in a lane of its own (`gpu::lane`): one launch per level
//! covers all of them.

use super::context::Gpu;
use super::kernels::labeling;
use super::landing::Landing;
use super::lane::{Lane, LaneShape, LaneTable};
use super::level_queues::{COUNTS_PER_LEVEL, LevelQueues};
use super::memory::Ledger;
use super::staging::parallel_copy;
use super::timeline::{LevelRecord, Timeline};
use crate::constants::{BLOCK_THREADS, SCAN_BLOCK_THREADS, WARP_SIZE};
use crate::graph::{Graph, topo};
use crate::index::labeler::{Advance, LevelStep, Position, SNAPSHOT_MAX_VERTICES, Snapshot, Status, Until};
use crate::index::{DimensionLabels, Interval, Labeler, Labels, Order};
use crate::mix::mix_base;
use crate::telemetry::{Backend, Event, Phase, QueueClass, QueueSizes, Sink, memory_event};
use anyhow::{Context, Result, bail, ensure};
use cudarc::driver::{CudaSlice, CudaStream, CudaView, LaunchConfig};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const WARPS_PER_BLOCK: u32 = BLOCK_THREADS / WARP_SIZE;
/// Blocks of `hub_sibling_sums` (hubs are few; each block sorts one at a time).
const HUB_BLOCKS: u32 = 256;
/// A parent with more DAG children than max(n / 16, this) is giant: its sibling sums take a
/// device-wide scan over every key (`giant_sizes_by_key`) instead of a sort in one block.
const GIANT_MIN_DEGREE: u64 = 4096;
/// The most giant parents (each costs a pass over n keys); beyond, the largest ones.
const MAX_GIANTS: usize = 64;

/// A call that may run many levels returns after about this long (the explorer pauses and redraws
/// between calls; the levels' times are read back once per call, not once per level).
const ADVANCE_BUDGET: Duration = Duration::from_millis(50);

/// Names of the whole device's used and total memory in the `Memory` events (beside the run's own
/// named allocations).
pub const DEVICE_USED: &str = "gpu used (whole device)";
pub const DEVICE_TOTAL: &str = "gpu total";

/// Deep, narrow graphs: the hand-over checks the average width of the first this many Kahn levels,
/// and of every multiple of it.
pub const NARROW_CHECK_LEVELS: usize = 128;
/// Kahn levels averaging fewer vertices than this are cheaper on the CPU pipeline: a GPU level
/// costs tens of microseconds of launches and waits whatever its size, a CPU level of this size a
/// few microseconds.
pub const NARROW_WIDTH: u64 = 1024;

/// Why a graph's levels are too narrow for the GPU (see [`NarrowGraph::of_graph`]): the back-end
/// switch then runs the CPU pipeline and says why.
#[derive(Debug)]
pub struct NarrowGraph {
    pub levels: usize,
    pub vertices: u64,
}

impl std::fmt::Display for NarrowGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a deep, narrow graph: its first {} Kahn levels average {} vertices, and a GPU level costs \
             tens of microseconds of launches and waits however small it is; the CPU pipeline runs \
             such levels faster",
            self.levels,
            self.vertices / self.levels.max(1) as u64
        )
    }
}

impl NarrowGraph {
    /// The hand-over's criterion, in one place: `levels` Kahn levels holding `vertices` in all are
    /// narrow when they average fewer than [`NARROW_WIDTH`] vertices.
    pub fn of(levels: usize, vertices: u64) -> Option<NarrowGraph> {
        (vertices < NARROW_WIDTH * levels as u64).then_some(NarrowGraph { levels, vertices })
    }

    /// Whether `dag`'s Kahn levels are narrow: the first [`NARROW_CHECK_LEVELS`] of them, or any
    /// multiple of that many, fall under [`Self::of`]'s criterion (a graph that turns narrow after
    /// a wide start counts too, once its narrow stretch weighs enough).
    pub fn of_graph(dag: &Graph) -> Result<Option<NarrowGraph>> {
        let starts = topo::kahn(dag)?.starts;
        let mut checked = starts.iter().enumerate().skip(NARROW_CHECK_LEVELS).step_by(NARROW_CHECK_LEVELS);
        Ok(checked.find_map(|(levels, &vertices)| NarrowGraph::of(levels, vertices as u64)))
    }
}

/// The phases in the order a dimension runs them.
const PHASES: [Phase; 4] = [Phase::ParentSelection, Phase::SubtreeSizes, Phase::PostOrder, Phase::MinPost];

/// Where a run stands: the dimensions running (side by side, dimension `dims.start + i` on lane i,
/// always in the same phase and level, as they walk the same Kahn levels), phase (index into
/// [`PHASES`]) and the levels done in it.
struct Cursor {
    dims: Range<usize>,
    phase: usize,
    step: usize,
    edges: u64,
    /// The Kahn level run last (for snapshots).
    last_level: Option<usize>,
}

impl Cursor {
    /// The start of dimensions `dims`.
    fn start(dims: Range<usize>) -> Cursor {
        Cursor { dims, phase: 0, step: 0, edges: 0, last_level: None }
    }
}

/// The GPU labeler behind the [`Labeler`] contract: one BFS level per step, or many levels of a
/// phase per call (the caller may cancel or reset it). The graph and all arrays stay on the device
/// throughout.
pub struct GpuLabeler {
    /// The graph, kept for snapshots (which vertices a level holds, parents of finished dimensions).
    dag: Arc<Graph>,
    run: DeviceRun<'static>,
    /// The dimensions' working arrays: one lane per dimension running side by side.
    lanes: Vec<Lane>,
    dims: usize,
    order: Order,
    edges: u64,
    cursor: Option<Cursor>,
    dimensions: Vec<DimensionLabels>,
    /// The labels, from the end of the run until taken.
    labels: Option<Labels>,
    finished: bool,
    /// A failed step's reason: later steps fail with it until a reset.
    failed: Option<String>,
    cancel: Arc<AtomicBool>,
    /// Device time of the phases so far (pauses between steps excluded).
    compute_seconds: f64,
    /// Host memory for the labels (intervals, subtree sizes, Kahn levels), made ready in the
    /// background while the GPU works.
    landing: Option<Landing>,
    /// Events of the levels queued on the device, emitted once it has run them.
    timeline: Timeline,
}

/// The DAG as a labeler holds it on the device: children offsets and lists, parents offsets and
/// lists (the parents lists in no particular order within a list).
pub(crate) struct DeviceGraph<'a> {
    pub coff: &'a CudaSlice<u64>,
    pub cadj: &'a CudaSlice<u32>,
    pub poff: &'a CudaSlice<u64>,
    pub padj: &'a CudaSlice<u32>,
}

/// Host memory for the labels of `n` vertices in `dims` dimensions, in the order
/// [`DeviceRun::download_labels`] fills it: intervals (as `[low, post]` pairs), subtree sizes.
fn label_landing(n: usize, dims: usize) -> Landing {
    Landing::new(&[2 * n * dims, n * dims])
}

impl GpuLabeler {
    /// Uploads `dag` to the process's GPU and prepares `dims` dimensions in `order`. With
    /// `side_by_side`, the dimensions run together, each in a lane of every launch (as many as the
    /// device's memory affords; see `gpu::lane`); otherwise one after another.
    pub fn new(dag: &Arc<Graph>, dims: usize, order: Order, side_by_side: bool) -> Result<GpuLabeler> {
        ensure!(dims >= 1, "at least one dimension is needed");
        let gpu = super::shared()?;
        let n = dag.num_vertices();
        let lanes = if side_by_side { dims } else { 1 };
        let (run, lanes) = DeviceRun::new(gpu, dag, dims, lanes)?;
        // The labels' host memory, made ready on the CPU cores while the GPU works (from now on:
        // during the upload above, the cores copy the graph into the pinned buffers).
        let landing = label_landing(n, dims);
        Ok(GpuLabeler {
            dag: Arc::clone(dag),
            run,
            lanes,
            dims,
            order,
            edges: dag.num_edges() as u64,
            cursor: None,
            dimensions: Vec::new(),
            labels: None,
            finished: false,
            failed: None,
            cancel: Arc::new(AtomicBool::new(false)),
            compute_seconds: 0.0,
            landing: Some(landing),
            timeline: Timeline::default(),
        })
    }

    /// The graph this labeler uploaded, still on the device (other passes over the same DAG use it
    /// rather than uploading it again).
    pub(crate) fn device_graph(&self) -> DeviceGraph<'_> {
        let run = &self.run;
        DeviceGraph { coff: &run.coff, cadj: &run.cadj, poff: &run.poff, padj: &run.padj }
    }

    /// Runs levels up to `until`: one level, or the rest of the current phase (at most about
    /// [`ADVANCE_BUDGET`] of work per call, so a caller can pause on deep graphs).
    fn run_levels(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        if let Some(reason) = &self.failed {
            bail!("the previous step failed ({reason}); reset to start again");
        }
        let result = self.levels_until(until, sink);
        if let Err(e) = &result
            && !grail_engine::is_cancelled(e.as_ref())
        {
            self.failed = Some(format!("{e:#}"));
        }
        result
    }

    /// Queues levels on the device up to `until`, then emits their events once it has run them.
    fn levels_until(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        let mut steps = Vec::new();
        let was_finished = self.finished;
        let queued = self.queue_levels(until, &mut steps);
        // The levels queued before a failure or a cancel ran, and are reported.
        let flushed = self.timeline.flush(sink);
        if let Ok(seconds) = flushed {
            self.compute_seconds += seconds;
        }
        queued?;
        flushed?;
        if self.finished && !was_finished {
            sink.emit(Event::RunDone { seconds: self.compute_seconds });
        }
        Ok(Advance { steps, finished: self.finished })
    }

    /// Launches levels up to `until` (within about [`ADVANCE_BUDGET`]), holding their events in the
    /// timeline: the host queues the next phase while the device still runs the last. A step runs
    /// its levels in every dimension running side by side.
    fn queue_levels(&mut self, until: Until, steps: &mut Vec<LevelStep>) -> Result<()> {
        let clock = Instant::now();
        loop {
            if self.finished {
                return Ok(());
            }
            if self.cancel.load(Ordering::Relaxed) {
                self.timeline.push(Event::Cancelled);
                return Err(grail_engine::Error::from(grail_engine::Cancel::Labeling).into());
            }
            let cursor = match &mut self.cursor {
                Some(cursor) => cursor,
                None => {
                    let (n, m) = (self.run.n as u64, self.edges);
                    let (dims, order) = (self.dims, self.order);
                    self.timeline.push(Event::RunStarted { backend: Backend::Gpu, dims, order, vertices: n, edges: m });
                    self.cursor.insert(Cursor::start(0..self.lanes.len().min(self.dims)))
                }
            };
            let (dims, phase, step) = (cursor.dims.clone(), PHASES[cursor.phase], cursor.step);
            if step == 0 {
                for (i, dim) in dims.clone().enumerate() {
                    self.timeline.push(Event::PhaseStarted { dim, phase });
                    if phase == Phase::ParentSelection {
                        self.run.start_dimension(self.order, dim, &mut self.lanes[i])?;
                        self.timeline.interrupt();
                    }
                }
            }
            // A batch of levels on every lane at once.
            let most = if until == Until::Level { 1 } else { LEVELS_PER_BATCH };
            let batch = step..self.run.levels.len().min(step + most);
            let lanes = &mut self.lanes[..dims.len()];
            let ran = queue_side_by_side(&self.run, lanes, &mut self.timeline, dims.clone(), phase, batch)?;
            let cursor = self.cursor.as_mut().expect("set above");
            let last_step = step + ran.len() - 1;
            let more = self.run.has_next(last_step);
            cursor.last_level = ran.last().map(|r| r.kahn_level);
            cursor.edges += ran.iter().map(|r| r.edges_scanned).sum::<u64>();
            cursor.step = last_step + 1;
            for dim in dims.clone() {
                for level in step..=last_step {
                    let finished = !more && level == last_step;
                    steps.push(LevelStep {
                        dim,
                        phase,
                        level,
                        span: 1,
                        levels: self.run.levels.len(),
                        phase_finished: finished,
                        dimension_finished: finished && cursor.phase + 1 == PHASES.len(),
                    });
                }
            }
            let out_of_time = clock.elapsed() >= ADVANCE_BUDGET;
            if more {
                if until == Until::Level || out_of_time {
                    return Ok(());
                }
                continue;
            }
            let (levels, edges) = (cursor.step, cursor.edges);
            for dim in dims {
                self.timeline.phase_done(dim, phase, levels, self.run.n as u64, edges);
            }
            self.next_phase()?;
            if until != Until::End || out_of_time {
                return Ok(());
            }
        }
    }

    /// After a phase: the next phase, the next dimensions, or the labels.
    fn next_phase(&mut self) -> Result<()> {
        let cursor = self.cursor.as_mut().expect("a phase just ended");
        let dims = cursor.dims.clone();
        if cursor.phase + 1 < PHASES.len() {
            *cursor = Cursor { phase: cursor.phase + 1, step: 0, edges: 0, dims, last_level: cursor.last_level };
            return Ok(());
        }
        self.timeline.interrupt();
        for (lane, dim) in self.lanes.iter().zip(dims.clone()) {
            self.run.store_dimension(dim, lane)?;
            if self.run.n as usize <= SNAPSHOT_MAX_VERTICES {
                // Kept for the snapshots of finished dimensions (small graphs only have them).
                self.dimensions.push(self.run.download_dimension(lane)?);
            }
        }
        let (free, total) = self.run.gpu.memory()?;
        let mut structures = self.run.ledger.entries().to_vec();
        structures.push((DEVICE_USED.into(), total - free));
        structures.push((DEVICE_TOTAL.into(), total));
        self.timeline.push(memory_event(structures));
        if dims.end < self.dims {
            let next = dims.end..self.dims.min(dims.end + self.lanes.len());
            *cursor = Cursor::start(next);
            return Ok(());
        }
        let n = self.run.n as usize;
        let landing = self.landing.take().unwrap_or_else(|| label_landing(n, self.dims));
        // Copied while the GPU still runs the last levels, before the download waits for them:
        // the copy's fresh pages then cost no time of their own.
        let level = topo::kahn(&self.dag)?.level.par_iter().copied().collect();
        let [intervals, subtree] = self.run.download_labels(landing)?;
        let intervals: Vec<Interval> = bytemuck::allocation::cast_vec(intervals);
        let labels = Labels::from_raw(self.order, self.dims, intervals, subtree, level);
        self.labels = Some(labels.context("the GPU's labels do not cover every vertex")?);
        self.finished = true;
        Ok(())
    }
}

/// Known levels per batch of [`queue_side_by_side`]: a millisecond or two of launches, so a call
/// still checks its time and the cancel flag often.
const LEVELS_PER_BATCH: usize = 256;

/// Queues steps `steps` of `phase` in dimensions `dims`, dimension `dims.start + i` on lane i: a
/// launch per level covers every lane (see `gpu::lane`), and each level's event is held for every
/// dimension. Returns what each step did (the same in every dimension).
fn queue_side_by_side(
    run: &DeviceRun,
    lanes: &mut [Lane],
    timeline: &mut Timeline,
    dims: Range<usize>,
    phase: Phase,
    steps: Range<usize>,
) -> Result<Vec<Ran>> {
    let gpu = run.gpu;
    let mut ran = Vec::with_capacity(steps.len());
    for level in steps {
        timeline.level_started(gpu)?;
        let r = run.run_level(phase, level, lanes)?;
        let (queues, edges_scanned) = (r.queues, r.edges_scanned);
        timeline.level_done(gpu, LevelRecord { dims: dims.clone(), phase, level, queues, edges_scanned })?;
        ran.push(r);
    }
    Ok(ran)
}

impl Labeler for GpuLabeler {
    fn backend(&self) -> Backend {
        Backend::Gpu
    }

    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> grail_engine::Result<Advance> {
        // A cancel goes back as the engine's own; the device's errors as outside ones, whole.
        self.run_levels(until, sink).map_err(|e| {
            if grail_engine::is_cancelled(e.as_ref()) {
                grail_engine::Cancel::Labeling.into()
            } else {
                grail_engine::Error::other(e)
            }
        })
    }

    fn positions(&self) -> Vec<Position> {
        if self.finished {
            return Vec::new();
        }
        match &self.cursor {
            Some(c) => c.dims.clone().map(|dim| Position { dim, phase: PHASES[c.phase], level: c.step }).collect(),
            None => vec![Position { dim: 0, phase: PHASES[0], level: 0 }],
        }
    }

    fn status(&self) -> Status {
        if let Some(reason) = &self.failed {
            Status::Failed(reason.clone())
        } else if self.finished {
            Status::Finished
        } else if self.cancel.load(Ordering::Relaxed) {
            Status::Cancelled
        } else if self.cursor.is_some() {
            Status::Running
        } else {
            Status::NotStarted
        }
    }

    fn seconds(&self) -> f64 {
        self.compute_seconds
    }

    fn take_labels(&mut self) -> Option<Labels> {
        self.labels.take()
    }

    fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    fn snapshot(&self, dim: usize) -> Option<Snapshot> {
        let dag = &self.dag;
        let n = dag.num_vertices();
        if n > SNAPSHOT_MAX_VERTICES {
            return None;
        }
        if let Some(done) = self.dimensions.get(dim) {
            return Some(Snapshot::of_labels(dag, dim, done));
        }
        let empty = Snapshot {
            dim,
            phase: None,
            parent: vec![None; n],
            size: vec![None; n],
            post: vec![None; n],
            low: vec![None; n],
            frontier: Vec::new(),
        };
        match &self.cursor {
            Some(c) if c.dims.contains(&dim) && !self.finished => {
                self.run.snapshot(dag, c, dim, &self.lanes[dim - c.dims.start]).ok()
            }
            _ => Some(empty),
        }
    }

    fn reset(&mut self) {
        self.cursor = None;
        self.dimensions.clear();
        self.labels = None;
        self.finished = false;
        self.failed = None;
        self.compute_seconds = 0.0;
        self.timeline.clear();
        self.cancel.store(false, Ordering::Relaxed);
    }
}

/// The kernels, looked up once; each launcher takes exactly its kernel's parameters.
struct Kernels {
    fill_parents: labeling::FillParents,
    enqueue_level: labeling::EnqueueLevel,
    init_dimension: labeling::InitDimension,
    select_groups: labeling::SelectGroups,
    select_block: labeling::SelectBlock,
    push_sizes: labeling::PushSizes,
    sibling_sums: labeling::SiblingSums,
    hub_sibling_sums: labeling::HubSiblingSums,
    giant_sizes_by_key: labeling::GiantSizesByKey,
    giant_offsets: labeling::GiantOffsets,
    root_offsets: labeling::RootOffsets,
    root_offsets_chunked: labeling::RootOffsetsChunked,
    chunk_carries: labeling::ChunkCarries,
    add_chunk_carries: labeling::AddChunkCarries,
    select_hub_partial: labeling::SelectHubPartial,
    select_hub_finish: labeling::SelectHubFinish,
    post_order: labeling::PostOrder,
    min_post_groups: labeling::MinPostGroups,
    min_post_block: labeling::MinPostBlock,
    store_dimension: labeling::StoreDimension,
    priority_counts: labeling::PriorityCounts,
    priority_members: labeling::PriorityMembers,
    priority_ranks: labeling::PriorityRanks,
    lex_order: labeling::LexOrder,
    root_flags: labeling::RootFlags,
    compact_roots: labeling::CompactRoots,
    scan_chunked: labeling::ScanChunked,
    add_scan_carries: labeling::AddScanCarries,
}

impl Kernels {
    fn load(gpu: &Gpu) -> Result<Kernels> {
        Ok(Kernels {
            fill_parents: labeling::FillParents::load(gpu)?,
            enqueue_level: labeling::EnqueueLevel::load(gpu)?,
            init_dimension: labeling::InitDimension::load(gpu)?,
            select_groups: labeling::SelectGroups::load(gpu)?,
            select_block: labeling::SelectBlock::load(gpu)?,
            push_sizes: labeling::PushSizes::load(gpu)?,
            sibling_sums: labeling::SiblingSums::load(gpu)?,
            hub_sibling_sums: labeling::HubSiblingSums::load(gpu)?,
            giant_sizes_by_key: labeling::GiantSizesByKey::load(gpu)?,
            giant_offsets: labeling::GiantOffsets::load(gpu)?,
            root_offsets: labeling::RootOffsets::load(gpu)?,
            root_offsets_chunked: labeling::RootOffsetsChunked::load(gpu)?,
            chunk_carries: labeling::ChunkCarries::load(gpu)?,
            add_chunk_carries: labeling::AddChunkCarries::load(gpu)?,
            select_hub_partial: labeling::SelectHubPartial::load(gpu)?,
            select_hub_finish: labeling::SelectHubFinish::load(gpu)?,
            post_order: labeling::PostOrder::load(gpu)?,
            min_post_groups: labeling::MinPostGroups::load(gpu)?,
            min_post_block: labeling::MinPostBlock::load(gpu)?,
            store_dimension: labeling::StoreDimension::load(gpu)?,
            priority_counts: labeling::PriorityCounts::load(gpu)?,
            priority_members: labeling::PriorityMembers::load(gpu)?,
            priority_ranks: labeling::PriorityRanks::load(gpu)?,
            lex_order: labeling::LexOrder::load(gpu)?,
            root_flags: labeling::RootFlags::load(gpu)?,
            compact_roots: labeling::CompactRoots::load(gpu)?,
            scan_chunked: labeling::ScanChunked::load(gpu)?,
            add_scan_carries: labeling::AddScanCarries::load(gpu)?,
        })
    }
}

/// Device state of one labeling run.
struct DeviceRun<'g> {
    gpu: &'g Gpu,
    kernels: Kernels,
    ledger: Ledger,
    n: u32,
    poff: CudaSlice<u64>,
    padj: CudaSlice<u32>,
    coff: CudaSlice<u64>,
    cadj: CudaSlice<u32>,
    /// The random order's priority buckets are `1 << (64 - bucket_shift)`.
    bucket_shift: u32,
    /// The roots (vertices without parents) in the whole graph.
    roots_total: u32,
    /// Blocks per vertex of the large in-degree queue (1: one block, `select_block`; more: the hub
    /// path, whose partial bests go to a lane's `hub_partial`).
    hub_splits: u32,
    /// Parents with more DAG children than `giant_degree`, with their child counts (capped at
    /// u32::MAX: the launches stride over the rest), and the bound (see [`GIANT_MIN_DEGREE`]).
    giants: Vec<(u32, u32)>,
    giant_degree: u64,
    /// The finished dimensions in the labels' final layout: `[low, post]` and the subtree size of
    /// vertex v, dimension d at `v * dims + d` (see `store_dimension`).
    intervals: CudaSlice<u32>,
    subtree: CudaSlice<u32>,
    dims: u32,
    /// Every Kahn level's queues by in-degree class and by out-degree class, class `c`'s from entry
    /// `c n` on (see `gpu::level_queues`).
    bins_in: CudaSlice<u32>,
    bins_out: CudaSlice<u32>,
    levels: Vec<LevelQueues>,
}

/// What one level did (the same in every dimension).
#[derive(Clone, Copy)]
struct Ran {
    /// The Kahn level the step ran (bottom-up phases count their steps from the deepest).
    kahn_level: usize,
    queues: QueueSizes,
    edges_scanned: u64,
}

impl<'g> DeviceRun<'g> {
    /// Uploads `dag` and its Kahn levels' queues, and opens lanes for up to `side_by_side`
    /// dimensions at once.
    fn new(gpu: &'g Gpu, dag: &Graph, dims: usize, side_by_side: usize) -> Result<(DeviceRun<'g>, Vec<Lane>)> {
        let n = dag.num_vertices();
        ensure!(n < u32::MAX as usize - 1, "{n} vertices do not fit the GPU labeler's 32-bit ids");
        let kahn = topo::kahn(dag)?;
        let stream = &gpu.stream;
        let mut ledger = Ledger::default();
        let kernels = Kernels::load(gpu)?;
        let poff = ledger.upload(gpu, "parents offsets", dag.parents_csr().offsets())?;
        let coff = ledger.upload(gpu, "children offsets", dag.children_csr().offsets())?;
        let cadj = ledger.upload(gpu, "children", dag.children_csr().targets())?;
        let mut bins_in = ledger.zeros(stream, "queues by in-degree", 3 * n)?;
        let mut bins_out = ledger.zeros(stream, "queues by out-degree", 3 * n)?;
        let (levels, max_in_degree) = queue_levels(gpu, &kernels, kahn, &poff, &coff, &mut bins_in, &mut bins_out)?;
        let shape = GraphShape::of(n, &levels, max_in_degree);
        let n32 = n as u32;
        let padj = if shape.max_in_degree * HUB_SHARE_OF_EDGES > dag.num_edges() {
            // A hub's parents list, filled on the device, takes an atomic per edge on one cursor,
            // one after another; the host has the lists already.
            ledger.upload(gpu, "parents", dag.parents_csr().targets())?
        } else {
            // The parents lists are built on the device from the children: uploading them would
            // double the graph's bytes.
            let mut padj = ledger.zeros(stream, "parents", dag.num_edges())?;
            let mut cursors = ledger.zeros(stream, "parents list cursors", n)?;
            // SAFETY: warp_grid gives each u < n a whole warp (the kernel returns past n). It
            // reads coff[u..=u + 1] (n + 1 offsets) and cadj below coff[n] = m, and writes the k-th
            // edge into c at padj[poff[c] + k], where k < c's in-degree because the cursors
            // (n zeroed entries) count from 0 and each edge takes one: below poff[n] =
            // m, padj's length. Both CSRs are the DAG's own, so they list the same m edges.
            unsafe {
                kernels.fill_parents.launch(stream, warp_grid(n32), &coff, &cadj, &poff, &mut cursors, &mut padj, n32)
            }?;
            padj
        };
        // About two vertices per priority bucket: a power of two, at most n (and at least 2, so
        // that the shift stays below 64).
        let buckets = (n.next_power_of_two() / 2).max(2);
        let bucket_shift = 64 - buckets.trailing_zeros();
        let GraphShape { hub_splits, large, roots: roots_total, .. } = shape;
        let (giants, giant_degree) = giant_parents(dag);
        let hub_partial = if hub_splits > 1 { large * hub_splits } else { 0 };
        let chunks = n.div_ceil(ROOT_CHUNK as usize);
        let intervals = ledger.zeros(stream, "labels: intervals", 2 * n * dims)?;
        let subtree = ledger.zeros(stream, "labels: subtree sizes", n * dims)?;
        let shape = LaneShape { n, buckets, hub_partial, chunks };
        let lanes = Lane::open_lanes(gpu, &mut ledger, shape, side_by_side)?;
        let run = DeviceRun {
            gpu,
            kernels,
            ledger,
            n: n as u32,
            poff,
            padj,
            coff,
            cadj,
            bucket_shift,
            roots_total: roots_total as u32,
            hub_splits: hub_splits as u32,
            giants,
            giant_degree,
            intervals,
            subtree,
            dims: dims as u32,
            bins_in,
            bins_out,
            levels,
        };
        Ok((run, lanes))
    }

    /// Computes dimension `dim`'s keys and roots in order on lane `lane` and resets its arrays.
    fn start_dimension(&mut self, order: Order, dim: usize, lane: &mut Lane) -> Result<()> {
        self.order_keys(order, dim, lane)?;
        let n = self.n;
        let k = &self.kernels;
        let stream = &self.gpu.stream;
        let Lane { tree, prefix, key, size, offset, .. } = lane;
        // SAFETY: grid(n + 1) gives a thread to each v <= n (the kernel returns past n). v < n
        // writes its node (4 u32; tree holds n + 1 nodes) and size and offset [v] (n each), reading
        // key[v] (n); v = n writes node n (rho) and rho's prefix, entries n * PATH_PREFIX_STEPS.. of
        // the (n + 1) * PATH_PREFIX_STEPS.
        unsafe { k.init_dimension.launch(stream, grid(n + 1), tree, prefix, &*key, size, offset, n) }?;
        Ok(())
    }

    /// The order keys of dimension `dim` into lane `lane`'s `key` and `by_key`, and the roots in
    /// key order into its `roots` (docs/ALGORITHMS.md, section 15).
    fn order_keys(&self, order: Order, dim: usize, l: &mut Lane) -> Result<()> {
        let (n, k, shift) = (self.n, &self.kernels, self.bucket_shift);
        let stream = &self.gpu.stream;
        match order {
            Order::Random { seed } => {
                // mix64(seed, dim, v) = splitmix64(base ^ v).
                let base = mix_base(seed, dim as u64);
                stream.memset_zeros(&mut l.bucket_count)?;
                stream.memset_zeros(&mut l.bucket_cursor)?;
                // SAFETY: grid(n) gives a thread to each v < n (the kernel returns past n), whose
                // bucket, priority >> shift, is below 1 << (64 - shift) = the buckets allocated.
                unsafe { k.priority_counts.launch(stream, grid(n), n, base, shift, &mut l.bucket_count) }?;
                let buckets = l.bucket_count.len() as u32;
                let (totals, carries) = (&mut l.chunk_totals, &mut l.chunk_carries);
                scan(k, stream, &l.bucket_count, buckets, &mut l.bucket_start, totals, carries)?;
                let (start, count, cursor, members) =
                    (&l.bucket_start, &l.bucket_count, &mut l.bucket_cursor, &mut l.bucket_members);
                // SAFETY: as above; a bucket's members go to start[b] + 0..count[b] (the cursor
                // counts from 0 up to the bucket's size, counted above), inside the n entries, as
                // the starts are the exclusive sums of the n vertices' counts.
                unsafe { k.priority_members.launch(stream, grid(n), n, base, shift, start, cursor, &mut *members) }?;
                let (key, by_key) = (&mut l.key, &mut l.by_key);
                // SAFETY: as above; a vertex reads its bucket's members and writes key[v] and
                // by_key[rank], rank < n as it counts distinct smaller priorities.
                unsafe {
                    k.priority_ranks.launch(stream, grid(n), n, base, shift, start, count, &*members, key, by_key)
                }?;
            }
            // SAFETY: a thread per v < n writes key[v] and by_key[v] (n entries each).
            Order::Lex => unsafe { k.lex_order.launch(stream, grid(n), n, &mut l.key, &mut l.by_key) }?,
        }
        let (by_key, poff) = (&l.by_key, &self.poff);
        // SAFETY: a thread per i < n reads by_key[i] (a vertex w < n) and poff[w..=w + 1] (n + 1
        // entries), and writes flag[i] (n).
        unsafe { k.root_flags.launch(stream, grid(n), by_key, n, poff, &mut l.root_flag) }?;
        let (totals, carries) = (&mut l.chunk_totals, &mut l.chunk_carries);
        scan(k, stream, &l.root_flag, n, &mut l.root_position, totals, carries)?;
        let (flag, position) = (&l.root_flag, &l.root_position);
        // SAFETY: a thread per i < n; a root's position counts the roots before it, below the
        // graph's roots_total <= n entries of `roots`.
        unsafe { k.compact_roots.launch(stream, grid(n), by_key, n, flag, position, &mut l.roots) }?;
        l.root_count = self.roots_total;
        Ok(())
    }

    /// Dimension `dim` (one of `cursor`'s) as far as `cursor` has run it, read from the device.
    /// Which values are final follows from the order the phases walk the Kahn levels: a parent
    /// once its vertex is attached (depth > 0); sizes and min-posts once the vertex's level has run
    /// bottom-up; post numbers once it has run top-down; every value of an earlier phase.
    fn snapshot(&self, dag: &Graph, cursor: &Cursor, dim: usize, l: &Lane) -> Result<Snapshot> {
        let stream = &self.gpu.stream;
        let n = self.n as usize;
        let (tree, size, post, low) = (
            stream.clone_dtoh(&l.tree)?,
            stream.clone_dtoh(&l.size)?,
            stream.clone_dtoh(&l.post)?,
            stream.clone_dtoh(&l.low)?,
        );
        let level = topo::kahn(dag)?.level;
        let deepest = self.levels.len().saturating_sub(1);
        // Whether vertex v's value of phase index `p` is final.
        let done = |p: usize, v: usize| -> bool {
            if cursor.phase > p {
                return true;
            }
            if cursor.phase < p || cursor.step == 0 {
                return false;
            }
            let l = level[v] as usize;
            match PHASES[p] {
                Phase::ParentSelection | Phase::PostOrder => l < cursor.step,
                _ => l + cursor.step > deepest,
            }
        };
        let known = |values: &[u32], p: usize| (0..n).map(|v| done(p, v).then(|| values[v])).collect();
        let parent = (0..n)
            .map(|v| {
                let (p, depth) = (tree[4 * v], tree[4 * v + 1]);
                (depth > 0).then(|| (p != self.n).then_some(p))
            })
            .collect();
        let phase = cursor
            .last_level
            .map(|_| PHASES[if cursor.step == 0 { cursor.phase.saturating_sub(1) } else { cursor.phase }]);
        let frontier = match (phase, cursor.last_level) {
            // Parent selection's frontier: the level's vertices attached so far.
            (Some(phase), Some(l)) => (0..n as u32)
                .filter(|&v| level[v as usize] as usize == l && tree[4 * v as usize + 1] > 0)
                .map(|v| {
                    let degree =
                        if phase == Phase::ParentSelection { dag.parents(v).len() } else { dag.children(v).len() };
                    (v, QueueClass::of(degree))
                })
                .collect(),
            _ => Vec::new(),
        };
        Ok(Snapshot { dim, phase, parent, size: known(&size, 1), post: known(&post, 2), low: known(&low, 3), frontier })
    }

    /// Copies the dimension just finished into the final layout (on the device).
    fn store_dimension(&mut self, dim: usize, lane: &Lane) -> Result<()> {
        let (n, dims) = (self.n, self.dims);
        let stream = &self.gpu.stream;
        let Lane { low, post, size, .. } = lane;
        let (intervals, subtree) = (&mut self.intervals, &mut self.subtree);
        // SAFETY: grid(n) gives a thread to each v < n (the kernel returns past n), which reads
        // low, post and size [v] (n entries each) and writes intervals [2 (v dims + dim) + 0..2]
        // and subtree [v dims + dim], below the 2 n dims and n dims entries allocated, as dim < dims.
        unsafe {
            self.kernels.store_dimension.launch(
                stream,
                grid(n),
                low,
                post,
                size,
                n,
                dims,
                dim as u32,
                intervals,
                subtree,
            )
        }?;
        Ok(())
    }

    /// Every dimension's labels, in their final layout, once all are stored (intervals as
    /// `[low, post]` pairs, subtree sizes), chunk by chunk as `landing` gets ready.
    fn download_labels(&self, mut landing: Landing) -> Result<[Vec<u32>; 2]> {
        let devices = [&self.intervals, &self.subtree];
        let chunks = landing.chunks();
        let parts: Vec<_> = chunks.iter().map(|(i, range)| devices[*i].slice(range.clone())).collect();
        self.gpu.staging()?.download(&self.gpu.stream, &parts, |k, values| {
            let (i, range) = chunks[k].clone();
            parallel_copy(values, landing.chunk(i, range));
            Ok(())
        })?;
        Ok(landing.finish().try_into().expect("the landing holds the two buffers it was made with"))
    }

    fn download_dimension(&self, lane: &Lane) -> Result<DimensionLabels> {
        let stream = &self.gpu.stream;
        let Lane { low, post, size, .. } = lane;
        Ok(DimensionLabels {
            low: stream.clone_dtoh(low)?,
            post: stream.clone_dtoh(post)?,
            subtree: stream.clone_dtoh(size)?,
        })
    }

    /// Runs level `step` of `phase` on `lanes`, one launch for all of them (top-down phases count
    /// from level 0, bottom-up ones from the deepest); returns what it did in each.
    fn run_level(&self, phase: Phase, step: usize, lanes: &mut [Lane]) -> Result<Ran> {
        let last = self.levels.len() - 1;
        let top_down = matches!(phase, Phase::ParentSelection | Phase::PostOrder);
        let level = if top_down { step } else { last - step };
        let q = self.levels[level];
        let tree_edges = if level == 0 { 0 } else { q.vertices() };
        let record = match phase {
            Phase::ParentSelection => {
                self.launch_select(&q, lanes)?;
                let queues = QueueSizes {
                    small: q.in_count[0] as u64,
                    medium: q.in_count[1] as u64,
                    large: q.in_count[2] as u64,
                };
                Ran { kahn_level: level, queues, edges_scanned: q.in_degrees }
            }
            Phase::SubtreeSizes => {
                self.launch_per_vertex(&q, PerVertex::PushSizes, lanes)?;
                // Every vertex follows its one T-edge up (roots, on level 0, have none); after the
                // last level, every T-sibling prefix sum, found by reading every DAG edge.
                let mut edges_scanned = tree_edges;
                if level == 0 {
                    for lane in lanes.iter_mut() {
                        self.sibling_sums(lane)?;
                    }
                    edges_scanned += self.cadj.len() as u64;
                }
                Ran { kahn_level: level, queues: out_queues(&q), edges_scanned }
            }
            Phase::PostOrder => {
                self.launch_per_vertex(&q, PerVertex::PostOrder, lanes)?;
                Ran { kahn_level: level, queues: out_queues(&q), edges_scanned: tree_edges }
            }
            _ => {
                self.launch_min_post(&q, lanes)?;
                Ran { kahn_level: level, queues: out_queues(&q), edges_scanned: q.out_degrees }
            }
        };
        Ok(record)
    }

    /// Whether a phase has a level after step `step`.
    fn has_next(&self, step: usize) -> bool {
        step + 1 < self.levels.len()
    }

    /// Phase 1 on a level, in every lane: its small and medium in-degree queues in one launch of
    /// lane groups, its large queue a block (or, for hubs, several) per vertex.
    fn launch_select(&self, q: &LevelQueues, lanes: &[Lane]) -> Result<()> {
        let (rho, stream, k) = (self.n, &self.gpu.stream, &self.kernels);
        let (poff, padj) = (&self.poff, &self.padj);
        let (table, z) = (LaneTable::of(lanes, stream), lanes.len() as u32);
        if let Some(g) = Groups::of(self.n, q.in_base, q.in_count, z) {
            let ([start0, start1], [count0, count1]) = (g.start, g.count);
            // SAFETY: `Groups::of` gives each vertex of the level's small and medium in-degree
            // queues (bins_in[start_c..start_c + count_c], inside the 3 n entries) its group of
            // lanes, in whole warps (blocks of BLOCK_THREADS), as the kernel's shuffles need, once
            // per lane of `table` (blockIdx.z < z, the lanes given). A vertex v < n reads its
            // parents padj[poff[v]..poff[v + 1]] (the CSR fill_parents built), the nodes and
            // prefixes of those parents and their ancestors in its lane, and writes its own; all
            // are vertices < n or rho = n, and each lane's tree and prefix hold n + 1 nodes and
            // prefixes. The lanes' arrays live on this stream (`LaneTable::of`).
            unsafe {
                k.select_groups.launch(
                    stream,
                    g.config,
                    &self.bins_in,
                    start0,
                    count0,
                    g.width0_log2,
                    start1,
                    count1,
                    g.blocks0,
                    poff,
                    padj,
                    table,
                    rho,
                )
            }?;
        }
        let count = q.in_count[2];
        if count == 0 {
            return Ok(());
        }
        let queue = class_queue(&self.bins_in, self.n, 2, q.in_base[2], count);
        let config = in_lanes(block_per_item(count), z);
        // SAFETY: `queue` is the level's `count` vertices of the large in-degree queue, a block of
        // BLOCK_THREADS (whole warps, as the reductions need) per vertex and lane; reads and writes
        // as above.
        unsafe {
            if self.hub_splits == 1 {
                return k.select_block.launch(stream, config, &queue, count, poff, padj, table, rho);
            }
            let splits = self.hub_splits;
            let blocks = LaunchConfig { grid_dim: (count, splits, z), ..config };
            // SAFETY (beyond the above): block (i, s) writes its lane's partial[i * splits + s] for
            // i < count, at most the graph's vertices of in-degree above LARGE_DEGREE_LIMIT (a level
            // holds each once), s < splits: inside the large * splits entries allocated. Then a
            // warp per vertex and lane (warp_grid) reads its splits entries and attaches it, as
            // select_block does.
            k.select_hub_partial.launch(stream, blocks, &queue, count, poff, padj, table)?;
            k.select_hub_finish.launch(stream, in_lanes(warp_grid(count), z), &queue, count, splits, table)
        }
    }

    /// Phases 2 and 3, in every lane: a thread per vertex of the level, one launch for its three
    /// queues. Phase 2 (bottom-up): each vertex adds its size to its T-parent's. Phase 3
    /// (top-down): offset(c) = offset(T-parent) + before(c), post = offset + size.
    fn launch_per_vertex(&self, q: &LevelQueues, kernel: PerVertex, lanes: &[Lane]) -> Result<()> {
        let count = q.out_count.iter().sum::<u32>();
        let ([b0, b1, b2], [c0, c1, c2]) = (q.out_base, q.out_count);
        let (bins, n, k, stream) = (&self.bins_out, self.n, &self.kernels, &self.gpu.stream);
        let (table, config) = (LaneTable::of(lanes, stream), in_lanes(grid(count), lanes.len() as u32));
        // SAFETY: grid(count) gives a thread to each of the level's vertices in each lane of
        // `table`, which `level_vertex` finds at bins_out[class * n + base + i] for i below the
        // class's count (threads past the sum return): inside the 3 n entries. A vertex v < n reads
        // its node (a lane's tree holds n + 1) and its T-parent p's: < n, or n = rho, which both
        // kernels skip; it adds to size[p] (push_sizes) or writes offset[v] and post[v]
        // (post_order), n entries each in its lane. The lanes' arrays live on this stream.
        unsafe {
            match kernel {
                PerVertex::PushSizes => k.push_sizes.launch(stream, config, bins, n, b0, c0, b1, c1, b2, c2, table),
                PerVertex::PostOrder => k.post_order.launch(stream, config, bins, n, b0, c0, b1, c1, b2, c2, table),
            }
        }
    }

    /// Once sizes are final: every vertex's before(c) into `offset` (a warp per T-parent, a block
    /// per hub), and the roots' offsets, which are the prefix sums of their sizes in root order
    /// (one block).
    fn sibling_sums(&self, lane: &mut Lane) -> Result<()> {
        let n = self.n;
        let (coff, cadj, k, stream) = (&self.coff, &self.cadj, &self.kernels, &self.gpu.stream);
        let Lane {
            tree,
            size,
            offset,
            hub_state,
            hubs,
            hub_scratch,
            roots,
            root_count,
            chunk_totals,
            chunk_carries,
            root_flag,
            root_position,
            ..
        } = lane;
        let (totals, carries) = (chunk_totals, chunk_carries);
        let (tree, size) = (&*tree, &*size);
        stream.memset_zeros(hub_state)?;
        // SAFETY: warp_grid(n) gives each T-parent p < n a whole warp in blocks of BLOCK_THREADS,
        // the block size `gathered` is sized for (the kernel returns past n). It reads p's children
        // in the CSR and their nodes and sizes (n + 1 nodes, n sizes), writes offset[c] (n) of at
        // most WARP_SIZE gathered children, and lists a parent with more as a hub: such parents
        // have disjoint sets of over WARP_SIZE children, so at most n / (WARP_SIZE + 1) of them,
        // and the hub listed h-th writes hubs[2 h] and hubs[2 h + 1], below 2 (n / WARP_SIZE + 1).
        // hub_state has the 2 counters it zeroed above.
        let giant = self.giant_degree;
        unsafe {
            k.sibling_sums.launch(stream, warp_grid(n), coff, cadj, tree, size, offset, hub_state, hubs, n, giant)
        }?;
        for &(p, degree) in &self.giants {
            stream.memset_zeros(&mut *root_flag)?;
            // SAFETY: a grid-stride thread per DAG child c of p (coff has n + 1 entries, cadj m);
            // each T-child writes values[key[c]] (keys are distinct ranks below n, root_flag has
            // n entries), then offset[c] (n entries) from the scan of those n values.
            unsafe { k.giant_sizes_by_key.launch(stream, grid(degree), p, coff, cadj, tree, size, &mut *root_flag) }?;
            scan(k, stream, root_flag, n, root_position, totals, carries)?;
            // SAFETY: as above: p's children c < n read sums[key[c]] (n entries) and write offset[c].
            unsafe {
                k.giant_offsets.launch(stream, grid(degree), p, coff, cadj, tree, &*root_position, &mut *offset)
            }?;
        }
        // The hub count stays on the device: a fixed grid of blocks takes the hubs in turn.
        let (hub_state, hubs, scratch) = (&*hub_state, &*hubs, hub_scratch);
        // SAFETY: blocks of SCAN_BLOCK_THREADS, the size `block_offsets` keeps a total per warp for,
        // take the hubs sibling_sums listed (hub_state[0] of them, each below the bound above). A
        // hub with k children sorts in scratch[start..start + span), span the power of two at or
        // above k, so below 2 k; the starts were taken by atomically adding the spans, and the hubs'
        // children are disjoint, so every span ends within the 2 n entries of hub_scratch. It
        // writes offset[c] (n) of its children c < n.
        unsafe {
            k.hub_sibling_sums.launch(
                stream,
                scan_grid(HUB_BLOCKS),
                hub_state,
                hubs,
                coff,
                cadj,
                tree,
                size,
                scratch,
                offset,
            )
        }?;
        // SAFETY: one block of SCAN_BLOCK_THREADS (as `block_offsets` needs) reads the first
        // root_count entries of roots (n entries, root_count = the roots uploaded, at most n) and
        // the sizes of those roots, and writes their offsets (n entries).
        let (roots, count) = (&*roots, *root_count);
        if count <= ROOT_CHUNK {
            return unsafe { k.root_offsets.launch(stream, scan_grid(1), roots, count, size, offset) };
        }
        let chunks = count.div_ceil(ROOT_CHUNK);
        // SAFETY: as root_offsets, per chunk: block b reads roots [b ROOT_CHUNK, min(count, (b + 1)
        // ROOT_CHUNK)) (count <= n entries) and their sizes, writes their offsets and totals[b], one
        // of the n / ROOT_CHUNK rounded up entries allocated, as chunks is for count <= n. Then one
        // block reads those `chunks` totals and writes as many carries; then a thread per root adds
        // its chunk's carry to its offset.
        unsafe {
            k.root_offsets_chunked.launch(
                stream,
                scan_grid(chunks),
                roots,
                count,
                ROOT_CHUNK,
                size,
                &mut *offset,
                &mut *totals,
            )?;
            k.chunk_carries.launch(stream, scan_grid(1), &*totals, chunks, &mut *carries)?;
            k.add_chunk_carries.launch(stream, grid(count), roots, count, ROOT_CHUNK, &*carries, offset)
        }
    }

    /// Phase 4 (bottom-up), in every lane: low(v) = min(post(v), low of every DAG child); the small
    /// and medium out-degree queues in one launch of lane groups, the large one a block per vertex.
    fn launch_min_post(&self, q: &LevelQueues, lanes: &[Lane]) -> Result<()> {
        let (coff, cadj, k, stream) = (&self.coff, &self.cadj, &self.kernels, &self.gpu.stream);
        let (table, z) = (LaneTable::of(lanes, stream), lanes.len() as u32);
        if let Some(g) = Groups::of(self.n, q.out_base, q.out_count, z) {
            let ([start0, start1], [count0, count1]) = (g.start, g.count);
            // SAFETY: as in `launch_select`, on the out-degree queues (bins_out); a vertex v < n
            // reads its children in the CSR, their low and its post (n entries each in its lane)
            // and writes its low[v].
            unsafe {
                k.min_post_groups.launch(
                    stream,
                    g.config,
                    &self.bins_out,
                    start0,
                    count0,
                    g.width0_log2,
                    start1,
                    count1,
                    g.blocks0,
                    coff,
                    cadj,
                    table,
                )
            }?;
        }
        let count = q.out_count[2];
        if count > 0 {
            let queue = class_queue(&self.bins_out, self.n, 2, q.out_base[2], count);
            let config = in_lanes(block_per_item(count), z);
            // SAFETY: a block per vertex of the level's large out-degree queue (`count` entries of
            // `queue`) and lane; reads and writes as above.
            unsafe { k.min_post_block.launch(stream, config, &queue, coff, cadj, table) }?;
        }
        Ok(())
    }
}

/// The thread-per-vertex kernels of phases 2 and 3.
#[derive(Clone, Copy)]
enum PerVertex {
    PushSizes,
    PostOrder,
}

/// A level's vertices by out-degree class (the queues phases 2-4 run on).
fn out_queues(q: &LevelQueues) -> QueueSizes {
    QueueSizes { small: q.out_count[0] as u64, medium: q.out_count[1] as u64, large: q.out_count[2] as u64 }
}

/// A graph whose largest in-degree is more than 1 / HUB_SHARE_OF_EDGES of its edges gets its
/// parents lists uploaded rather than built on the device (see `DeviceRun::new`).
const HUB_SHARE_OF_EDGES: usize = 8;

/// Roots per block of `root_offsets_chunked`.
const ROOT_CHUNK: u32 = 16 * SCAN_BLOCK_THREADS;

/// Candidate parents one block of `select_hub_partial` takes at most (a few dozen per thread).
const HUB_CANDIDATES_PER_BLOCK: usize = 8192;

/// What the launches need to know of the graph's in-degrees, read once on the host.
struct GraphShape {
    /// Blocks per vertex for the large in-degree queue, from the largest in-degree. The partial
    /// bests take at most 2 n entries: a graph with many large vertices gets fewer splits.
    hub_splits: usize,
    /// Vertices of in-degree above `LARGE_DEGREE_LIMIT` (the most a large queue can hold).
    large: usize,
    /// Vertices without parents.
    roots: usize,
    /// The largest in-degree.
    max_in_degree: usize,
}

impl GraphShape {
    /// From the Kahn levels' queues of a graph of `n` vertices, and its largest in-degree: the
    /// large in-degree class holds the vertices above `LARGE_DEGREE_LIMIT`, level 0 the roots.
    fn of(n: usize, levels: &[LevelQueues], max: usize) -> GraphShape {
        let large = levels.iter().map(|q| q.in_count[2] as usize).sum();
        let roots = levels.first().map_or(0, |q| q.vertices() as usize);
        let wanted = max.div_ceil(HUB_CANDIDATES_PER_BLOCK).clamp(1, 1024);
        let affordable = (2 * n).checked_div(large).unwrap_or(1).max(1);
        GraphShape { hub_splits: wanted.min(affordable), large, roots, max_in_degree: max }
    }
}

/// Sorts the Kahn levels `kahn` of the graph whose offsets are `poff` and `coff` into their queues
/// (`gpu::level_queues`): the vertices go up in Kahn order, a launch per level puts them in
/// `bins_in` and `bins_out`, and the levels' counts come back in one read. Also returns the
/// largest in-degree.
fn queue_levels(
    gpu: &Gpu,
    k: &Kernels,
    kahn: topo::Kahn,
    poff: &CudaSlice<u64>,
    coff: &CudaSlice<u64>,
    bins_in: &mut CudaSlice<u32>,
    bins_out: &mut CudaSlice<u32>,
) -> Result<(Vec<LevelQueues>, usize)> {
    let stream = &gpu.stream;
    let n = kahn.order.len() as u32;
    // Needed only here: not part of the run's recorded structures.
    let mut scratch = Ledger::default();
    let order = scratch.upload(gpu, "Kahn order", kahn.order)?;
    let mut cursors: CudaSlice<u64> = scratch.zeros(stream, "queue cursors", COUNTS_PER_LEVEL)?;
    let mut counts: CudaSlice<u64> = scratch.zeros(stream, "level counts", COUNTS_PER_LEVEL * kahn.num_levels())?;
    for (l, w) in kahn.starts.windows(2).enumerate() {
        let count = (w[1] - w[0]) as u32;
        let vertices = order.slice(w[0]..w[1]);
        let mut level_counts = counts.slice_mut(COUNTS_PER_LEVEL * l..COUNTS_PER_LEVEL * (l + 1));
        // SAFETY: grid(count) gives a thread to each of the level's `count` vertices (the kernel
        // returns past it), each v < n reading poff and coff at v and v + 1 (n + 1 entries each).
        // A vertex of class c takes slot cursors[c] (or [3 + c]) + k: the cursors count the
        // vertices queued so far in that class, so every slot lies below n and at c n + slot
        // inside the 3 n entries of bins_in and bins_out. cursors and the level's counts hold
        // COUNTS_PER_LEVEL = 8 values, the kernel's indices 0..8.
        unsafe {
            k.enqueue_level.launch(
                stream,
                grid(count),
                &vertices,
                count,
                poff,
                coff,
                &mut *bins_in,
                &mut *bins_out,
                &mut cursors,
                &mut level_counts,
                n,
            )
        }?;
    }
    let levels = LevelQueues::from_counts(&stream.clone_dtoh(&counts)?);
    let max_in_degree = stream.clone_dtoh(&cursors)?[6] as usize;
    Ok((levels, max_in_degree))
}

/// Exclusive prefix sums of the first `count` values into `sums`, on many blocks (`scan_chunked`,
/// `chunk_carries`, `add_scan_carries`); `totals` and `carries` hold a value per [`ROOT_CHUNK`].
fn scan(
    k: &Kernels,
    stream: &Arc<CudaStream>,
    values: &CudaSlice<u32>,
    count: u32,
    sums: &mut CudaSlice<u32>,
    totals: &mut CudaSlice<u32>,
    carries: &mut CudaSlice<u32>,
) -> Result<()> {
    let chunks = count.div_ceil(ROOT_CHUNK);
    // SAFETY: `count` is at most the length of `values` and `sums`, and `totals` and `carries`
    // hold count / ROOT_CHUNK rounded up entries (the callers scan at most n values, for which
    // they were allocated). Block b reads and writes [b ROOT_CHUNK, min(count, (b + 1) ROOT_CHUNK))
    // and totals[b]; one block turns the `chunks` totals into as many carries; a thread per value
    // adds its chunk's carry.
    unsafe {
        k.scan_chunked.launch(stream, scan_grid(chunks.max(1)), values, count, ROOT_CHUNK, &mut *sums, &mut *totals)?;
        k.chunk_carries.launch(stream, scan_grid(1), &*totals, chunks, &mut *carries)?;
        k.add_scan_carries.launch(stream, grid(count), count, ROOT_CHUNK, &*carries, sums)
    }?;
    Ok(())
}

/// The giant parents of `dag` (more children than max(n / 16, [`GIANT_MIN_DEGREE`]), at most
/// [`MAX_GIANTS`] of the largest) with their child counts, and the degree above which a parent is
/// one.
fn giant_parents(dag: &Graph) -> (Vec<(u32, u32)>, u64) {
    let offsets = dag.children_csr().offsets();
    let degree = |v: u32| offsets[v as usize + 1] - offsets[v as usize];
    let mut bound = (dag.num_vertices() as u64 / 16).max(GIANT_MIN_DEGREE);
    let mut giants: Vec<u32> = (0..dag.num_vertices() as u32).filter(|&v| degree(v) > bound).collect();
    if giants.len() > MAX_GIANTS {
        giants.sort_unstable_by_key(|&v| std::cmp::Reverse(degree(v)));
        bound = degree(giants[MAX_GIANTS]);
        giants.retain(|&v| degree(v) > bound);
    }
    (giants.into_iter().map(|v| (v, degree(v).min(u64::from(u32::MAX)) as u32)).collect(), bound)
}

/// A thread per item.
fn grid(items: u32) -> LaunchConfig {
    let blocks = items.div_ceil(BLOCK_THREADS).max(1);
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// A warp per item.
fn warp_grid(items: u32) -> LaunchConfig {
    let blocks = items.div_ceil(WARPS_PER_BLOCK).max(1);
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// Blocks of SCAN_BLOCK_THREADS, for the kernels whose prefix sums run within one block.
fn scan_grid(blocks: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (SCAN_BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// About as many threads as the GPU runs at once (132 SMs of 2048 on an H100): a level of the small
/// queue with fewer vertices than this gives each vertex several lanes, so that no thread scans its
/// few dozen edges alone while the rest of the GPU idles.
const FILL_THREADS: u32 = 1 << 18;
/// The most lanes a vertex of the small queue (fewer than SMALL_DEGREE_LIMIT edges) gets, as a
/// power of two: 8 lanes, at most 4 edges each.
const SMALL_WIDTH_LOG2_MAX: u32 = 3;

/// Lanes per vertex of a small queue of `count` vertices, as a power of two: one on a wide level,
/// up to eight as it narrows.
fn small_width_log2(count: u32) -> u32 {
    (FILL_THREADS / count.max(1)).max(1).ilog2().min(SMALL_WIDTH_LOG2_MAX)
}

/// Where a level's queue of degree class `class` starts in its bins (class c holds the whole run's
/// vertices of that class in c * n..(c + 1) * n, level after level from `base`).
fn queue_start(n: u32, class: usize, base: u32) -> usize {
    class * n as usize + base as usize
}

/// A level's queue of degree class `class`: `count` vertices from `base` in that class's bins.
fn class_queue(bins: &CudaSlice<u32>, n: u32, class: usize, base: u32, count: u32) -> CudaView<'_, u32> {
    let start = queue_start(n, class, base);
    bins.slice(start..start + count as usize)
}

/// `config` once per lane of `lanes` (blockIdx.z is the lane).
fn in_lanes(config: LaunchConfig, lanes: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (config.grid_dim.0, config.grid_dim.1, lanes), ..config }
}

/// A block of BLOCK_THREADS per item.
fn block_per_item(items: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (items, 1, 1), block_dim: (BLOCK_THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// A level's small and medium queues as one launch of lane groups (`level_group` in the kernels):
/// `blocks0` blocks of groups of 2^width0_log2 lanes for the small queue, then blocks of a warp per
/// vertex for the medium one. The queues are `count[c]` entries of the bins from `start[c]`.
struct Groups {
    config: LaunchConfig,
    start: [u64; 2],
    count: [u32; 2],
    width0_log2: u32,
    blocks0: u32,
}

impl Groups {
    /// The launch for the small and medium queues of a level whose queues start at `base` within
    /// their classes' n entries and hold `count` vertices, in `lanes` lanes; None when both are
    /// empty.
    fn of(n: u32, base: [u32; 3], count: [u32; 3], lanes: u32) -> Option<Groups> {
        // The lanes share the GPU: a level's vertices in every lane are what fills it.
        let width0_log2 = small_width_log2(count[0].saturating_mul(lanes));
        let blocks = |lanes: u64| lanes.div_ceil(BLOCK_THREADS as u64) as u32;
        let blocks0 = blocks((count[0] as u64) << width0_log2);
        let blocks1 = blocks(count[1] as u64 * WARP_SIZE as u64);
        let config = LaunchConfig {
            grid_dim: (blocks0 + blocks1, 1, lanes),
            block_dim: (BLOCK_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let start = [0, 1].map(|class| queue_start(n, class, base[class]) as u64);
        (blocks0 + blocks1 > 0).then_some(Groups { config, start, count: [count[0], count[1]], width0_log2, blocks0 })
    }
}
