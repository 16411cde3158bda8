//! [`GpuOrCpu`]: the GPU labeler, which hands a deep, narrow graph to the CPU pipeline.
//!
//! The GPU runs a level in tens of microseconds of launches and waits however small it is, so a
//! chain of a million vertices (four million levels per dimension) took minutes on it and a fraction
//! of a second on the CPU. A short walk of the first Kahn levels on the CPU ([`narrow_start`])
//! catches graphs that are narrow from the start before the GPU is even set up; the GPU labeler
//! catches the rest while dimension 0's parent selection discovers the levels
//! (`gpu::pipeline::NarrowGraph`, every 128 levels); this wrapper then starts the CPU pipeline in
//! its place, with the same settings and the same cancel flag, and says
//! so: an [`Event::Fallback`] in the stream, [`Labeler::handed_over`] and [`Labeler::backend`] name
//! the CPU from then on. Labels are the same either way; the run is never presented as GPU work.

use super::spec::LabelSpec;
use crate::gpu::pipeline::{GpuLabeler, NARROW_CHECK_LEVELS, NARROW_WIDTH, NarrowGraph};
use crate::graph::Graph;
use crate::index::labeler::{Advance, Position, Snapshot, Status, Until};
use crate::index::pipeline::{PipelineConfig, PipelineLabeler};
use crate::index::{Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub struct GpuOrCpu {
    dag: Arc<Graph>,
    spec: LabelSpec,
    current: Box<dyn Labeler>,
    cancel: Arc<AtomicBool>,
    /// Why the CPU pipeline took over, once it has.
    handed_over: Option<String>,
    /// Whether the hand-over's `Fallback` event went out (a run handed over before it started
    /// announces it with its first step).
    announced: bool,
    /// Seconds the GPU spent before it handed over (part of the run's time).
    gpu_seconds: f64,
}

impl GpuOrCpu {
    /// The GPU labeler, or at once the CPU pipeline when the graph's first Kahn levels are already
    /// known to be narrow (see [`narrow_start`]: then the GPU is not even set up).
    pub fn new(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<GpuOrCpu> {
        if let Some(narrow) = narrow_start(dag) {
            let cpu = cpu_pipeline(dag, spec)?;
            return Ok(GpuOrCpu {
                dag: Arc::clone(dag),
                spec: *spec,
                cancel: cpu.cancel_token(),
                current: Box::new(cpu),
                handed_over: Some(narrow.to_string()),
                announced: false,
                gpu_seconds: 0.0,
            });
        }
        let gpu = GpuLabeler::new(dag, spec.dims, spec.order, spec.all_dims_at_once)
            .context("cannot start the GPU pipeline")?;
        let gpu = gpu.handing_over_narrow_graphs();
        Ok(GpuOrCpu {
            dag: Arc::clone(dag),
            spec: *spec,
            cancel: gpu.cancel_token(),
            current: Box::new(gpu),
            handed_over: None,
            announced: false,
            gpu_seconds: 0.0,
        })
    }

    /// Replaces the GPU labeler by the CPU pipeline, telling `sink` why.
    fn hand_over(&mut self, narrow: &NarrowGraph, sink: &mut dyn Sink) -> Result<()> {
        let cpu = cpu_pipeline(&self.dag, &self.spec)?;
        self.gpu_seconds = self.current.seconds();
        self.current = Box::new(cpu.with_cancel_token(Arc::clone(&self.cancel)));
        self.handed_over = Some(narrow.to_string());
        self.announce(sink);
        Ok(())
    }

    /// Tells `sink` once that the CPU pipeline runs instead of the GPU, and why.
    fn announce(&mut self, sink: &mut dyn Sink) {
        if let (Some(reason), false) = (&self.handed_over, self.announced) {
            sink.emit(Event::Fallback { requested: Backend::Gpu, ran: Backend::Cpu, reason: reason.clone() });
            self.announced = true;
        }
    }
}

fn cpu_pipeline(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<PipelineLabeler> {
    let LabelSpec { dims, order, parent_method, all_dims_at_once, .. } = *spec;
    let config = PipelineConfig { dims, order, parent_method, all_dims_at_once };
    PipelineLabeler::new(Arc::clone(dag), config).context("cannot start the CPU pipeline")
}

/// The most edges [`narrow_start`] reads before it concludes the graph is wide enough for the GPU.
const PROBE_EDGES: usize = 1 << 18;

/// Whether `dag`'s first [`NARROW_CHECK_LEVELS`] Kahn levels average fewer than [`NARROW_WIDTH`]
/// vertices, found on the CPU before the GPU is set up (setting it up and running those levels took
/// longer than the CPU pipeline's whole run on a 60,000-vertex ladder). The walk stops as soon as
/// the answer is no: too many roots, too many vertices or edges for narrow levels, or a graph with
/// fewer levels; so on wide graphs it reads at most a few hundred thousand edges.
fn narrow_start(dag: &Graph) -> Option<NarrowGraph> {
    let most = NARROW_CHECK_LEVELS * NARROW_WIDTH as usize;
    let n = dag.num_vertices();
    let is_root = |&v: &u32| dag.parents(v).is_empty();
    // Counted before they are collected: on a graph with too many roots (uniprot's 1.56 million)
    // collecting them cost 3-5 ms of a 20 ms GPU run, and the answer is already no.
    if (0..n as u32).into_par_iter().filter(is_root).count() >= most {
        return None;
    }
    let mut frontier: Vec<u32> = (0..n as u32).into_par_iter().filter(is_root).collect();
    // Parents not yet placed, per vertex (u32::MAX: not reached yet); allocated once a level is
    // known to be light enough to walk.
    let mut waiting = Vec::new();
    let (mut levels, mut vertices, mut edges) = (1, frontier.len(), 0);
    while levels < NARROW_CHECK_LEVELS {
        // A level whose edges would pass the probe's budget ends it (the answer is no) before its
        // children are visited: on a wide graph that visit is the probe's whole cost (random reads
        // of half a million edges on a random DAG of degree 50, 20 ms).
        edges += frontier.iter().map(|&v| dag.children(v).len()).sum::<usize>();
        if edges >= PROBE_EDGES {
            return None;
        }
        if waiting.is_empty() {
            waiting = vec![u32::MAX; n];
        }
        let mut next = Vec::new();
        for &v in &frontier {
            for &c in dag.children(v) {
                let left = &mut waiting[c as usize];
                if *left == u32::MAX {
                    *left = dag.parents(c).len() as u32;
                }
                *left -= 1;
                if *left == 0 {
                    next.push(c);
                }
            }
        }
        (levels, vertices) = (levels + 1, vertices + next.len());
        if next.is_empty() || vertices >= most {
            return None;
        }
        frontier = next;
    }
    NarrowGraph::of(levels, vertices as u64)
}

impl Labeler for GpuOrCpu {
    fn backend(&self) -> Backend {
        self.current.backend()
    }

    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> Result<Advance> {
        self.announce(sink);
        match self.current.advance(until, sink) {
            Err(e) if self.handed_over.is_none() && e.downcast_ref::<NarrowGraph>().is_some() => {
                let narrow = e.downcast_ref::<NarrowGraph>().expect("checked above");
                self.hand_over(narrow, sink)?;
                self.current.advance(until, sink)
            }
            other => other,
        }
    }

    fn positions(&self) -> Vec<Position> {
        self.current.positions()
    }

    fn status(&self) -> Status {
        self.current.status()
    }

    fn seconds(&self) -> f64 {
        self.gpu_seconds + self.current.seconds()
    }

    fn take_labels(&mut self) -> Option<Labels> {
        self.current.take_labels()
    }

    fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Back to the start on the labeler running now: a graph handed over stays on the CPU.
    fn reset(&mut self) {
        self.current.reset();
        self.gpu_seconds = 0.0;
    }

    fn handed_over(&self) -> Option<&str> {
        self.handed_over.as_deref()
    }

    fn snapshot(&self, dim: usize) -> Option<Snapshot> {
        self.current.snapshot(dim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;

    fn probe(spec: &str) -> Option<NarrowGraph> {
        narrow_start(&spec.parse::<GeneratorSpec>().unwrap().generate().unwrap())
    }

    #[test]
    fn the_probe_finds_deep_narrow_graphs_and_only_those() {
        for narrow in ["chain:n=5000", "ladder:k=2000", "deep:n=100000,deg=2,depth=10000,seed=1"] {
            let found = probe(narrow).unwrap_or_else(|| panic!("{narrow} is narrow"));
            assert_eq!(found.levels, NARROW_CHECK_LEVELS, "{narrow}");
            assert!(found.vertices < NARROW_CHECK_LEVELS as u64 * NARROW_WIDTH);
        }
        // Too shallow, too wide at the top, too many edges per level, too many roots.
        for wide in [
            "chain:n=100",
            "tree:n=100000,arity=2",
            "random:n=200000,deg=20,seed=1",
            "fan:width=3000,layers=200,seed=1",
            "roots:n=300000,fan=40,seed=2",
        ] {
            assert!(probe(wide).is_none(), "{wide} is not narrow");
        }
    }
}
