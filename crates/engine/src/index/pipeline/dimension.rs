//! One dimension's run through the phases, level by level.
//!
//! The phases hand their results to each other through [`Work`]: a phase's state is created when it
//! starts, and turned into the next phase's input when its last level is done. [`DimensionRun::run`]
//! runs levels in a tight loop up to a [`Goal`], a deadline or a cancellation: deep, narrow graphs
//! (a chain has a level per vertex) have millions of levels, so runs of tiny levels are one step, a
//! walk over their vertices with one clock reading, one event and one step record (`Span`).

use super::frontier;
use super::level_clock::{Level, LevelClock, MAX_SPAN, is_tiny};
use super::levels::{DagLevels, LevelBuckets};
use super::min_post::MinPost;
use super::parent_selection::ParentSelection;
use super::parent_sssp::ParentSssp;
use super::post_order::PostOrder;
use super::subgraph_sizes::{SubgraphSizes, Weights};
use super::subtree_sizes::{Sizes, SubtreeSizes};
use super::tiny_levels::Bound;
use super::tree::Tree;
use super::{ParentMethod, PipelineConfig};
use crate::Result;
use crate::graph::Graph;
use crate::index::DimensionLabels;
use crate::index::labeler::{LevelStep, SNAPSHOT_MAX_VERTICES, Snapshot, tree_parents};
use crate::index::order::DimensionOrder;
use crate::telemetry::{Event, Phase, QueueClass, QueueSizes, Sink, memory_event};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a dimension holds between and during phases.
#[derive(Debug, Default)]
enum Work {
    #[default]
    Start,
    Selecting(ParentSelection),
    Weighing(SubgraphSizes),
    WeightsReady(Weights),
    SelectingByWeight(ParentSssp),
    TreeReady(Tree),
    Sizing(Tree, SubtreeSizes),
    SizesReady(Tree, Sizes),
    /// T, the subtree sizes, and the post-order numbering (which took the sibling sums over).
    Numbering(Tree, Vec<u32>, PostOrder),
    /// Post-order numbers and subtree sizes, per node (ρ last).
    PostReady(Vec<u32>, Vec<u32>),
    Lowering(Vec<u32>, Vec<u32>, MinPost),
    Done(DimensionLabels),
    /// The labels were handed out, or a phase failed half-way.
    Spent,
}

impl Work {
    /// Bytes held by this dimension's current structures, by name.
    fn structures(&self, dim: usize) -> Vec<(String, u64)> {
        let name = |what: &str| format!("dim {dim} {what}");
        let tree = |t: &Tree| (name("tree"), t.heap_bytes() as u64);
        let sizes = |s: &Sizes| (name("subtree sizes"), (s.size.len() + s.before.len()) as u64 * 4);
        match self {
            Work::Start | Work::Spent => vec![],
            Work::Selecting(s) => vec![(name("growing tree"), s.heap_bytes() as u64)],
            Work::Weighing(s) => vec![(name("weights"), s.heap_bytes() as u64)],
            Work::WeightsReady(w) => vec![(name("weights"), w.heap_bytes() as u64)],
            Work::SelectingByWeight(s) => vec![(name("weights and growing tree"), s.heap_bytes() as u64)],
            Work::TreeReady(t) => vec![tree(t)],
            Work::Sizing(t, s) => vec![tree(t), (name("subtree sizes"), s.heap_bytes() as u64)],
            Work::SizesReady(t, s) => vec![tree(t), sizes(s)],
            Work::Numbering(t, s, p) => {
                vec![tree(t), (name("subtree sizes"), s.len() as u64 * 4), (name("post-order"), p.heap_bytes() as u64)]
            }
            Work::PostReady(p, s) => vec![(name("post and sizes"), (p.len() + s.len()) as u64 * 4)],
            Work::Lowering(p, s, m) => {
                vec![
                    (name("post and sizes"), (p.len() + s.len()) as u64 * 4),
                    (name("min-post"), m.heap_bytes() as u64),
                ]
            }
            Work::Done(d) => vec![(name("labels"), (d.low.len() * 12) as u64)],
        }
    }
}

/// The read-only inputs every step needs.
pub struct Context<'a> {
    pub dag: &'a Graph,
    pub levels: &'a DagLevels,
    pub config: &'a PipelineConfig,
}

/// How far one [`DimensionRun::run`] goes (unless stopped earlier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One level.
    Level,
    /// The end of the current phase.
    PhaseEnd,
    /// The dimension's labels.
    End,
}

/// What stops a run of levels before its goal, checked after every level.
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a> {
    /// No new level starts after this instant.
    pub deadline: Instant,
    pub cancel: &'a AtomicBool,
}

/// The most levels one [`DimensionRun::run`] runs, so that a call returns promptly even when the
/// clock is read rarely (tiny levels share readings).
const MAX_LEVELS_PER_RUN: usize = 1 << 16;

/// Running totals of the current phase.
#[derive(Debug, Default)]
struct PhaseTotals {
    levels: usize,
    vertices: u64,
    edges: u64,
    seconds: f64,
}

/// The levels one step runs (see [`DimensionRun::run_levels`]): level `first`, then while they are
/// tiny the next ones, `max_span` levels at most.
struct Span<'m> {
    first: usize,
    max_span: usize,
    /// Whether to keep the last level's frontier (for the snapshot of a small graph).
    keep: bool,
    /// Told the first level's queue sizes and edges before it runs.
    measured: &'m mut dyn FnMut(QueueSizes, u64),
}

/// What one step's levels did: their queue sizes and edges scanned, summed, how many levels ran,
/// and the last one's frontier if kept.
struct LevelsRun {
    queues: QueueSizes,
    edges: u64,
    span: usize,
    kept: Vec<(u32, QueueClass)>,
}

impl Span<'_> {
    /// Runs the levels of `buckets` (from the deepest one when `bottom_up`), `degree` being a
    /// vertex's scanned degree (at most its DAG degree `bound`), `level` the phase's work on one
    /// level (given its step) and `vertex`, where the phase has one, its work on one vertex.
    ///
    /// The tiny levels after the first are found by [`LevelBuckets::tiny_run`] and measured in one
    /// pass. With `vertex`, they run as one walk over their vertices, level after level, on this
    /// thread: a phase needs only that a vertex runs after the levels before its own, which a walk
    /// in level order keeps (a chain's levels hold one vertex each, and a call per level cost more
    /// than the vertex). Without it, each level is one call.
    fn run(
        self,
        buckets: &LevelBuckets<'_>,
        bottom_up: bool,
        (degree, bound): (impl Fn(u32) -> usize + Sync, Bound),
        mut level: impl FnMut(usize, &[u32]) -> Result<()>,
        vertex: Option<&dyn Fn(u32)>,
    ) -> Result<LevelsRun> {
        let Span { first, max_span, keep, measured } = self;
        let levels = buckets.num_levels();
        let at = |step: usize| if bottom_up { levels - 1 - step } else { step };
        let mut last = buckets.level(at(first));
        let (mut queues, mut edges) = frontier::measure(last, &degree);
        measured(queues, edges);
        level(first, last)?;
        let mut span = 1;
        let more = if first + 1 < levels && is_tiny(queues.total(), edges) {
            buckets.tiny_run(bound, at(first + 1), !bottom_up, max_span - 1)
        } else {
            0
        };
        if more > 0 {
            // Steps `first + 1..end`, as one slice of consecutive levels.
            let end = first + 1 + more;
            let rest = if bottom_up {
                buckets.levels(levels - end..levels - 1 - first)
            } else {
                buckets.levels(first + 1..end)
            };
            let (q, e) = frontier::measure_here(rest, &degree);
            (queues, edges) = (queues.merged(q), edges + e);
            match vertex {
                // Bottom-up, the deepest level is the slice's last.
                Some(f) if bottom_up => rest.iter().rev().for_each(|&v| f(v)),
                Some(f) => rest.iter().for_each(|&v| f(v)),
                None => (first + 1..end).try_for_each(|step| level(step, buckets.level(at(step))))?,
            }
            (span, last) = (end - first, buckets.level(at(end - 1)));
        }
        let kept = if keep { last.iter().map(|&v| (v, QueueClass::of(degree(v)))).collect() } else { Vec::new() };
        Ok(LevelsRun { queues, edges, span, kept })
    }
}

/// One dimension: its order, its phase cursor and its work. Dimensions run in parallel on
/// neighbouring elements of one `Vec`, each updating its cursor after every level: aligned to two
/// cache lines, no two share one (false sharing made five parallel dimensions on a chain several
/// times slower than one).
#[derive(Debug)]
#[repr(align(128))]
pub struct DimensionRun {
    dim: usize,
    phases: &'static [Phase],
    /// Index into `phases`; `phases.len()` when done.
    phase: usize,
    started: bool,
    level: usize,
    totals: PhaseTotals,
    order: Option<DimensionOrder>,
    work: Work,
    /// The level run last, with its phase (kept on small graphs only, for [`Self::snapshot`]).
    last_level: (Option<Phase>, Vec<(u32, QueueClass)>),
}

impl DimensionRun {
    pub fn new(dim: usize, method: ParentMethod) -> DimensionRun {
        DimensionRun {
            dim,
            phases: method.phases(),
            phase: 0,
            started: false,
            level: 0,
            totals: PhaseTotals::default(),
            order: None,
            work: Work::Start,
            last_level: (None, Vec::new()),
        }
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The order this dimension's phases use (see [`Self::prepare_order`]).
    pub fn order_for(dag: &Graph, config: &PipelineConfig, dim: usize) -> DimensionOrder {
        // Only the weight method walks children lists in order; the exact method compares keys.
        match config.parent_method {
            ParentMethod::Exact => DimensionOrder::keys_only(dag, config.order, dim),
            ParentMethod::Weights => DimensionOrder::new(dag, config.order, dim),
        }
    }

    /// Hands over the order ahead of the first phase (which otherwise builds it), so that it can be
    /// built beside other work.
    pub fn prepare_order(&mut self, order: DimensionOrder) {
        self.order.get_or_insert(order);
    }

    pub fn is_finished(&self) -> bool {
        self.phase == self.phases.len()
    }

    /// The current phase and the next level to run (`None` when finished).
    pub fn position(&self) -> Option<(Phase, usize)> {
        self.phases.get(self.phase).map(|&p| (p, self.level))
    }

    /// The labels once finished (once: they are moved out).
    pub fn take_labels(&mut self) -> Option<DimensionLabels> {
        match std::mem::take(&mut self.work) {
            Work::Done(labels) => {
                self.work = Work::Spent;
                Some(labels)
            }
            other => {
                self.work = other;
                None
            }
        }
    }

    /// Runs levels (starting and finishing phases on the way) until `goal`, the end of the
    /// dimension, or `stop`, whichever comes first, but at least one level. Events go to `sink` as
    /// each level ends; each level run is appended to `steps`. Call only while not finished.
    pub fn run(
        &mut self,
        ctx: &Context<'_>,
        goal: Goal,
        stop: Stop<'_>,
        sink: &mut dyn Sink,
        steps: &mut Vec<LevelStep>,
    ) -> Result<()> {
        // Where a level ends, the next one starts: one clock reading per level at most.
        let mut clock = LevelClock::start();
        let mut levels_run = 0;
        // Whether the last step pushed was a tiny level (one the next tiny level may join).
        let mut joinable = false;
        // Short of one level at a time, runs of tiny levels go in one step (see `run_levels`).
        let max_span = if goal == Goal::Level { 1 } else { MAX_SPAN };
        let result = loop {
            let (step, tiny) = match self.step(ctx, max_span, &mut clock, sink) {
                Ok(step) => step,
                Err(e) => break Err(e),
            };
            // Consecutive tiny levels of a phase are one step, as they are one event.
            match steps.last_mut().filter(|last| joinable && tiny && last.phase == step.phase) {
                Some(last) => *last = LevelStep { span: last.span + step.span, ..step },
                None => steps.push(step),
            }
            joinable = tiny && !step.phase_finished;
            let reached = match goal {
                Goal::Level => true,
                Goal::PhaseEnd => step.phase_finished,
                Goal::End => step.dimension_finished,
            };
            levels_run += step.span;
            let late = clock.last_reading() >= stop.deadline || levels_run >= MAX_LEVELS_PER_RUN;
            if reached || step.dimension_finished || late || stop.cancel.load(Ordering::Relaxed) {
                break Ok(());
            }
        };
        // Levels still waiting for their time (tiny ones, see `level_clock`) get it now.
        self.totals.seconds += clock.flush(sink);
        result
    }

    /// Runs one level of the current phase, or up to `max_span` consecutive levels if they are tiny
    /// (starting the phase first if needed, finishing it after its last level), emitting the events
    /// they produce (those of tiny levels may wait in `clock`). Also says whether the levels were
    /// tiny (see `level_clock`).
    fn step(
        &mut self,
        ctx: &Context<'_>,
        max_span: usize,
        clock: &mut LevelClock,
        sink: &mut dyn Sink,
    ) -> Result<(LevelStep, bool)> {
        let phase = self.phases[self.phase];
        if !self.started {
            clock.lap();
            sink.emit(Event::PhaseStarted { dim: self.dim, phase });
            self.start_phase(ctx, phase)?;
            self.started = true;
            self.level = 0;
            self.totals = PhaseTotals { seconds: clock.lap(), ..PhaseTotals::default() };
        }
        let levels = self.num_levels(ctx);
        let first = self.level;
        let (mut tiny, mut waited, mut span) = (false, 0.0, 1);
        if first < levels {
            // A level that is not tiny gets a clock reading of its own: the tiny ones before it are
            // timed up to its start.
            // A graph small enough for snapshots reports every level on its own: its few events
            // cost nothing, and a chart of the levels then shows each one's real frontier.
            let small = ctx.dag.num_vertices() <= SNAPSHOT_MAX_VERTICES;
            let max_span = if small { 1 } else { max_span.min(levels - first) };
            let (queues, edges, levels_run) = self.run_levels(ctx, phase, first, max_span, &mut |queues, edges| {
                tiny = is_tiny(queues.total(), edges);
                if !tiny {
                    waited = clock.flush(sink);
                }
            })?;
            span = levels_run;
            self.totals.seconds += waited;
            let done = Level { dim: self.dim, phase, level: first, span, queues, edges };
            self.totals.seconds += clock.level_done(done, tiny && !small, sink);
            self.totals.levels += span;
            self.totals.vertices += queues.total();
            self.totals.edges += edges;
            self.level += span;
        }
        let level = first + span - 1;
        let phase_finished = self.level >= levels;
        if phase_finished {
            self.totals.seconds += clock.flush(sink);
            self.finish_phase(ctx, phase);
            self.totals.seconds += clock.lap();
            sink.emit(Event::PhaseDone {
                dim: self.dim,
                phase,
                levels: self.totals.levels,
                vertices: self.totals.vertices,
                edges_scanned: self.totals.edges,
                seconds: self.totals.seconds,
            });
            let mut structures = self.work.structures(self.dim);
            if let Some(order) = &self.order {
                structures.push((format!("dim {} order", self.dim), order.heap_bytes() as u64));
            }
            sink.emit(memory_event(structures));
            self.phase += 1;
            self.started = false;
            self.level = 0;
        }
        let dimension_finished = self.is_finished();
        Ok((LevelStep { dim: self.dim, phase, level, span, levels, phase_finished, dimension_finished }, tiny))
    }

    fn start_phase(&mut self, ctx: &Context<'_>, phase: Phase) -> Result<()> {
        let (dag, n) = (ctx.dag, ctx.dag.num_vertices());
        // The order is built by the first phase that needs it (unless prepared) and kept for the others.
        let order = &*self.order.get_or_insert_with(|| Self::order_for(dag, ctx.config, self.dim));
        self.work = match (phase, std::mem::take(&mut self.work)) {
            (Phase::ParentSelection, Work::Start) => Work::Selecting(ParentSelection::new(n)),
            (Phase::SubgraphSizes, Work::Start) => Work::Weighing(SubgraphSizes::new(dag)),
            (Phase::ParentSssp, Work::WeightsReady(w)) => {
                Work::SelectingByWeight(ParentSssp::new(dag, order, w, self.dim)?)
            }
            (Phase::SubtreeSizes, Work::TreeReady(t)) => {
                let sizes = SubtreeSizes::new(&t);
                Work::Sizing(t, sizes)
            }
            (Phase::PostOrder, Work::SizesReady(t, Sizes { size, before })) => {
                let post = PostOrder::new(before);
                Work::Numbering(t, size, post)
            }
            (Phase::MinPost, Work::PostReady(post, size)) => Work::Lowering(post, size, MinPost::new(n)),
            (phase, work) => unreachable!("phase {phase:?} cannot start from {work:?}"),
        };
        Ok(())
    }

    fn num_levels(&self, ctx: &Context<'_>) -> usize {
        match &self.work {
            Work::Sizing(..) | Work::Numbering(..) => ctx.levels.tree().num_levels(),
            _ => ctx.levels.kahn().num_levels(),
        }
    }

    /// Runs level `first` of `phase` and, if it is tiny, the tiny levels after it, up to `max_span`
    /// levels in all (see [`Span::run`]): the queue sizes and edges scanned of the levels run,
    /// summed, and how many ran. The first level's are handed to `measured` before it runs. A chain
    /// has a level per vertex in every phase, and the work around a level (the step, the clock, the
    /// event, the call), done per level, took longer than the levels themselves.
    fn run_levels(
        &mut self,
        ctx: &Context<'_>,
        phase: Phase,
        first: usize,
        max_span: usize,
        measured: &mut dyn FnMut(QueueSizes, u64),
    ) -> Result<(QueueSizes, u64, usize)> {
        let dag = ctx.dag;
        let buckets = &ctx.levels.kahn();
        let order = self.order.as_ref().expect("the order is built when the first phase starts");
        let keep = dag.num_vertices() <= SNAPSHOT_MAX_VERTICES;
        let span = Span { first, max_span, keep, measured };
        let run = match &self.work {
            Work::Selecting(s) => span.run(
                buckets,
                false,
                (|v| ParentSelection::scanned_degree(dag, v), Bound::Parents),
                |_, frontier| {
                    s.run_level(dag, order, frontier);
                    Ok(())
                },
                Some(&|v| s.select(dag, order, v)),
            )?,
            Work::Weighing(s) => span.run(
                buckets,
                true,
                (|v| SubgraphSizes::scanned_degree(dag, v), Bound::Children),
                |step, frontier| {
                    let level = buckets.num_levels() - 1 - step;
                    Ok(s.run_level(dag, order, frontier, self.dim, level as u32)?)
                },
                None,
            )?,
            Work::SelectingByWeight(s) => span.run(
                buckets,
                false,
                (|v| ParentSssp::scanned_degree(dag, v), Bound::Parents),
                |step, frontier| Ok(s.run_level(dag, order, frontier, step as u32)?),
                None,
            )?,
            Work::Sizing(tree, s) => span.run(
                &ctx.levels.tree(),
                true,
                (|v| SubtreeSizes::scanned_degree(tree, v), Bound::Children),
                |_, frontier| {
                    s.run_level(tree, frontier);
                    Ok(())
                },
                Some(&|v| s.size(tree, v)),
            )?,
            Work::Numbering(tree, sizes, p) => span.run(
                &ctx.levels.tree(),
                false,
                (|v| PostOrder::scanned_degree(tree, v), Bound::Children),
                |_, frontier| {
                    p.run_level(tree, sizes, frontier);
                    Ok(())
                },
                Some(&|v| p.number(tree, sizes, v)),
            )?,
            Work::Lowering(post, _, m) => span.run(
                buckets,
                true,
                (|v| MinPost::scanned_degree(dag, v), Bound::Children),
                |_, frontier| {
                    m.run_level(dag, post, frontier);
                    Ok(())
                },
                Some(&|v| m.lower(dag, post, v)),
            )?,
            other => unreachable!("no phase runs levels on {other:?} ({phase:?})"),
        };
        self.last_level = (Some(phase), run.kept);
        Ok((run.queues, run.edges, run.span))
    }

    /// What this dimension knows so far (see [`Snapshot`]). The weight method's phase 1 shows its
    /// frontier only: its growing tree is not read out.
    pub fn snapshot(&self, dag: &Graph) -> Snapshot {
        let n = dag.num_vertices();
        let all = |f: &dyn Fn(u32) -> Option<u32>| (0..n as u32).map(f).collect::<Vec<_>>();
        let known = |values: &[u32]| values.iter().take(n).map(|&x| Some(x)).collect::<Vec<_>>();
        let grown = |t: &Tree| t.parents().into_iter().map(Some).collect::<Vec<_>>();
        let derived = |post: &[u32], size: &[u32]| tree_parents(dag, post, size).into_iter().map(Some).collect();
        let none = vec![None; n];
        let (parent, size, post, low) = match &self.work {
            Work::Selecting(s) => {
                ((0..n as u32).map(|v| s.parent_so_far(v)).collect(), none.clone(), none.clone(), none)
            }
            Work::TreeReady(t) => (grown(t), none.clone(), none.clone(), none),
            Work::Sizing(t, s) => (grown(t), all(&|v| s.size_so_far(v)), none.clone(), none),
            Work::SizesReady(t, s) => (grown(t), known(&s.size), none.clone(), none),
            Work::Numbering(t, s, p) => (grown(t), known(s), all(&|v| p.post_so_far(v)), none),
            Work::PostReady(post, size) => (derived(post, size), known(size), known(post), none),
            Work::Lowering(post, size, m) => (derived(post, size), known(size), known(post), all(&|v| m.low_so_far(v))),
            Work::Done(d) => {
                return Snapshot {
                    phase: self.last_level.0,
                    frontier: self.last_level.1.clone(),
                    ..Snapshot::of_labels(dag, self.dim, d)
                };
            }
            Work::Start | Work::Weighing(_) | Work::WeightsReady(_) | Work::SelectingByWeight(_) | Work::Spent => {
                (vec![None; n], none.clone(), none.clone(), none)
            }
        };
        let (phase, frontier) = self.last_level.clone();
        Snapshot { dim: self.dim, phase, parent, size, post, low, frontier }
    }

    /// Turns the finished phase's state into the next phase's input.
    fn finish_phase(&mut self, ctx: &Context<'_>, phase: Phase) {
        let n = ctx.dag.num_vertices();
        let order = self.order.as_ref().expect("the order is built when the first phase starts");
        self.work = match std::mem::take(&mut self.work) {
            Work::Selecting(s) => Work::TreeReady(s.finish(order, ctx.levels.below_roots())),
            Work::Weighing(s) => Work::WeightsReady(s.finish()),
            Work::SelectingByWeight(s) => Work::TreeReady(s.finish(order, ctx.levels.below_roots())),
            Work::Sizing(t, s) => Work::SizesReady(t, s.finish()),
            Work::Numbering(_, size, p) => Work::PostReady(p.finish(), size),
            Work::Lowering(mut post, mut size, m) => {
                // Drop ρ, the last node: labels cover the DAG's vertices only.
                post.truncate(n);
                size.truncate(n);
                Work::Done(DimensionLabels { low: m.finish(), post, subtree: size })
            }
            other => unreachable!("phase {phase:?} cannot finish from {other:?}"),
        };
    }
}
