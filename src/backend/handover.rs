//! [`GpuOrCpu`]: the GPU labeler, or the CPU pipeline for a deep, narrow graph.
//!
//! The GPU runs a level in tens of microseconds of launches and waits however small it is, so a
//! chain of a million vertices (four million levels per dimension) took minutes on it and a fraction
//! of a second on the CPU. Condensing the graph found its Kahn levels, so whether they are narrow
//! ([`NarrowGraph::of_graph`]) is known before the GPU is even set up; such a graph gets the CPU
//! pipeline, with the same settings, and the run says so: an [`Event::Fallback`] in the stream,
//! [`Labeler::handed_over`] and [`Labeler::backend`] name the CPU. Labels are the same either way;
//! the run is never presented as GPU work.

use super::spec::LabelSpec;
use crate::gpu::pipeline::{GpuLabeler, NarrowGraph};
use crate::graph::Graph;
use crate::index::labeler::{Advance, Position, Snapshot, Status, Until};
use crate::index::pipeline::{PipelineConfig, PipelineLabeler};
use crate::index::{Labeler, Labels};
use crate::telemetry::{Backend, Event, Sink};
use anyhow::{Context, Result};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The labeler a GPU request opens: the GPU pipeline, or the CPU pipeline with the same settings
/// when the graph's Kahn levels are too narrow to be worth the GPU's launches.
pub struct GpuOrCpu {
    current: Box<dyn Labeler>,
    cancel: Arc<AtomicBool>,
    /// Why the CPU pipeline runs instead, if it does.
    handed_over: Option<String>,
    /// Whether the hand-over's `Fallback` event went out (with the run's first step).
    announced: bool,
}

impl GpuOrCpu {
    /// The GPU labeler, or the CPU pipeline when the graph's Kahn levels are narrow (then the GPU
    /// is not even set up).
    pub fn new(dag: &Arc<Graph>, spec: &LabelSpec) -> Result<GpuOrCpu> {
        let (current, handed_over): (Box<dyn Labeler>, _) = match NarrowGraph::of_graph(dag)? {
            Some(narrow) => (Box::new(cpu_pipeline(dag, spec)?), Some(narrow.to_string())),
            None => {
                let gpu = GpuLabeler::new(dag, spec.dims, spec.order, spec.all_dims_at_once)
                    .context("cannot start the GPU pipeline")?;
                (Box::new(gpu), None)
            }
        };
        Ok(GpuOrCpu { cancel: current.cancel_token(), current, handed_over, announced: false })
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

impl Labeler for GpuOrCpu {
    fn backend(&self) -> Backend {
        self.current.backend()
    }

    fn advance(&mut self, until: Until, sink: &mut dyn Sink) -> grail_engine::Result<Advance> {
        self.announce(sink);
        self.current.advance(until, sink)
    }

    fn positions(&self) -> Vec<Position> {
        self.current.positions()
    }

    fn status(&self) -> Status {
        self.current.status()
    }

    fn seconds(&self) -> f64 {
        self.current.seconds()
    }

    fn take_labels(&mut self) -> Option<Labels> {
        self.current.take_labels()
    }

    fn cancel_token(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Back to the start on the labeler running now.
    fn reset(&mut self) {
        self.current.reset();
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
    use crate::gpu::pipeline::NARROW_CHECK_LEVELS;
    use crate::graph::generators::GeneratorSpec;

    fn narrow(spec: &str) -> Option<NarrowGraph> {
        NarrowGraph::of_graph(&spec.parse::<GeneratorSpec>().unwrap().generate().unwrap()).unwrap()
    }

    #[test]
    fn deep_narrow_graphs_and_only_those_go_to_the_cpu() {
        for deep in ["chain:n=5000", "ladder:k=2000", "deep:n=100000,deg=2,depth=10000,seed=1"] {
            let found = narrow(deep).unwrap_or_else(|| panic!("{deep} is narrow"));
            assert_eq!(found.levels, NARROW_CHECK_LEVELS, "{deep} is narrow from the start");
        }
        // A wide top of 200 levels of 2,000 vertices, then a chain of 1,000 more: the first
        // multiple of 128 levels that averages below 1,024 vertices a level is 512.
        let top = 200 * 2000;
        let mut edges: Vec<(u32, u32)> = (0..top - 2000).map(|v| (v, v + 2000)).collect();
        edges.extend((top - 1..top + 999).map(|v| (v, v + 1)));
        let top_heavy = Graph::from_edges(top as usize + 1000, &edges).unwrap();
        let found = NarrowGraph::of_graph(&top_heavy).unwrap().expect("a long narrow tail");
        assert_eq!((found.levels, found.vertices), (512, top as u64 + 312));
        // Too shallow, too wide.
        for wide in [
            "chain:n=100",
            "tree:n=100000,arity=2",
            "random:n=200000,deg=20,seed=1",
            "fan:width=3000,layers=200,seed=1",
            "roots:n=300000,fan=40,seed=2",
        ] {
            assert!(narrow(wide).is_none(), "{wide} is not narrow");
        }
    }
}
