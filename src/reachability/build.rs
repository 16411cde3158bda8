//! How an [`Index`] comes to be: its labels built by a back end (its events sent to a sink), read
//! from a file, or handed in finished; with every rule, the query index built beside them; each
//! step timed. The public constructors, the command line and the explorer all assemble here, so
//! the labels, the query index and the engine over them are put together in one place.

use super::Index;
use crate::backend::query_index::build_beside;
use crate::backend::{LabelRun, LabelSpec, build_labels};
use crate::graph::Graph;
use crate::graph::fingerprint::fingerprint;
use crate::index::{Labels, store};
use crate::query::{Engine, QueryIndex, RuleSet};
use crate::telemetry::{Backend, Sink};
use crate::workspace::Workspace;
use anyhow::{Context, Result, ensure};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// Where an index's labels come from.
#[cfg_attr(not(feature = "tui"), allow(dead_code, reason = "files and finished labels come from the front ends"))]
pub(crate) enum LabelSource<'a> {
    /// Built as the spec asks (a GPU request may fall back to the CPU pipeline).
    Build(LabelSpec),
    /// Read from a file `grail label --out` saved, checked against the graph.
    File(&'a Path),
    /// Finished already: by a front end that drives the labeler itself (the explorer steps it one
    /// level at a time), or that draws the labels of its own choosing.
    Ready(Arc<Labels>),
}

/// How long building an index took, step by step, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Timings {
    /// Building the labels, or reading them (0 for labels handed in finished).
    pub labels: f64,
    /// Building the query index (0 without one). It runs beside the labels, so the two overlap.
    pub query_index: f64,
    /// The whole build, as the caller waited for it (0 for an index put together from parts built
    /// elsewhere).
    pub total: f64,
}

/// Labels, and who made them.
struct Labeled {
    labels: Arc<Labels>,
    backend: Option<Backend>,
    fallback: Option<String>,
}

impl LabelSource<'_> {
    /// The back end whose device may build the query index's records: the GPU's only where the
    /// labels are asked of it (the index is the same either way).
    fn query_index_backend(&self) -> Backend {
        match self {
            LabelSource::Build(spec) => spec.backend,
            LabelSource::File(_) | LabelSource::Ready(_) => Backend::Cpu,
        }
    }

    fn labels(self, dag: &Arc<Graph>, sink: &mut (dyn Sink + Send)) -> Result<Labeled> {
        Ok(match self {
            LabelSource::Build(spec) => {
                let LabelRun { labels, backend, fallback } = build_labels(dag, &spec, sink)?;
                Labeled { labels: Arc::new(labels), backend: Some(backend), fallback }
            }
            LabelSource::File(path) => {
                let labels = store::load(path, Some(fingerprint(dag)))
                    .with_context(|| format!("cannot use index {}", path.display()))?;
                Labeled { labels: Arc::new(labels), backend: None, fallback: None }
            }
            LabelSource::Ready(labels) => Labeled { labels, backend: None, fallback: None },
        })
    }
}

impl Index {
    /// The index of `ws`: labels from `source`, and with [`RuleSet::All`] the query index, built
    /// beside them on another thread of the current rayon pool (after them, on a pool of one). The
    /// labelers' events go to `sink`. The errors keep their whole chain for the command line.
    pub(crate) fn assemble(
        ws: Arc<Workspace>,
        source: LabelSource,
        rules: RuleSet,
        sink: &mut (dyn Sink + Send),
    ) -> Result<Index> {
        let start = Instant::now();
        let beside = source.query_index_backend();
        let label = || {
            let clock = Instant::now();
            source.labels(ws.dag(), sink).map(|labeled| (labeled, clock.elapsed().as_secs_f64()))
        };
        let ((labeled, label_seconds), query_index) = match rules {
            RuleSet::All => {
                let (labeled, index) = build_beside(ws.dag(), beside, label);
                (labeled?, Some(Arc::new(index?)))
            }
            RuleSet::Grail => (label()?, None),
        };
        let (dag_vertices, covered) = (ws.dag().num_vertices(), labeled.labels.num_vertices());
        ensure!(covered == dag_vertices, "the labels cover {covered} vertices, the DAG has {dag_vertices}");
        let mut index = Index::from_parts(ws, labeled.labels, query_index);
        index.backend = labeled.backend;
        index.fallback = labeled.fallback;
        index.timings.labels = label_seconds;
        index.timings.total = start.elapsed().as_secs_f64();
        Ok(index)
    }

    /// The index over labels and a query index that exist already (the explorer's, whose labels
    /// are stepped by the user and whose query index is built when the graph opens). Panics where
    /// they do not cover `ws`'s DAG.
    pub(crate) fn from_parts(ws: Arc<Workspace>, labels: Arc<Labels>, query_index: Option<Arc<QueryIndex>>) -> Index {
        // The engine checks that the parts fit the DAG; the index keeps only whether the component
        // map is the identity, which the check reads every vertex for.
        let identity = {
            let engine = Engine::new(ws.dag(), &labels, &ws.condensation.component);
            engine.with_index(query_index.as_deref()).has_identity_components()
        };
        let timings =
            Timings { query_index: query_index.as_ref().map_or(0.0, |i| i.build_seconds()), ..Timings::default() };
        Index {
            ws,
            labels,
            query_index,
            identity,
            backend: None,
            fallback: None,
            timings,
            scratch: Mutex::new(Vec::new()),
            representatives: OnceLock::new(),
            #[cfg(feature = "tui")]
            on_device: Mutex::new(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::DEFAULT_DIMS;
    use crate::index::Order;
    use crate::telemetry::{Event, NullSink};

    fn workspace() -> Arc<Workspace> {
        Arc::new(Workspace::of_graph(crate::graph::generators::random_digraph(3000, 2.0, 1).unwrap(), "g"))
    }

    #[test]
    fn built_labels_say_who_built_them_and_their_events_reach_the_sink() {
        let ws = workspace();
        let spec = LabelSpec::new(Backend::Cpu, DEFAULT_DIMS, Order::Random { seed: 1 });
        let mut events: Vec<Event> = Vec::new();
        let index = Index::assemble(Arc::clone(&ws), LabelSource::Build(spec), RuleSet::All, &mut events).unwrap();
        assert_eq!((index.backend(), index.fallback()), (Some(Backend::Cpu), None));
        assert!(events.iter().any(|e| matches!(e, Event::PhaseDone { .. })));
        let Timings { labels, query_index, total } = index.timings();
        assert!(labels > 0.0 && query_index > 0.0 && total >= labels.max(query_index), "{:?}", index.timings());
        // The same labels handed in finished, and GRAIL's rules alone: no query index, no back end.
        let ready = LabelSource::Ready(Arc::new(index.labels().clone()));
        let grail = Index::assemble(ws, ready, RuleSet::Grail, &mut NullSink).unwrap();
        assert_eq!((grail.backend(), grail.query_index().is_none()), (None, true));
        assert_eq!(grail.labels().digest(), index.labels().digest());
    }

    #[test]
    fn labels_of_another_graph_are_refused() {
        let other = crate::index::dfs::label(&crate::graph::generators::chain(10).unwrap(), 1, Order::Lex).unwrap();
        let ready = LabelSource::Ready(Arc::new(other));
        let refused = Index::assemble(workspace(), ready, RuleSet::Grail, &mut NullSink).err().unwrap();
        assert!(refused.to_string().contains("the labels cover 10 vertices"), "{refused}");
    }
}
