//! [`Index`]: the library's front door. Build a reachability index over a directed graph (cycles
//! allowed), then ask whether one vertex reaches another, why, or a whole batch at once.
//!
//! Underneath, the graph is condensed to a DAG, labelled with GRAIL's interval labels (on the CPU
//! pipeline, or the GPU where asked and present) and given the query index (topological orders,
//! supportive vertices, Bloom filters); each query tries the cheap rules first and searches only
//! when they cannot tell. Answers are exact: the labels only prune the search.
//!
//! Every front end comes in here: the public constructors below, the command line and the explorer
//! through the crate's own (`build`: labels built, read or handed in, the query index beside them),
//! and every batch through `Index::run_batch` (`batch`).

// Batches are the front ends' (the command line's feature includes the explorer's).
#[cfg(feature = "tui")]
mod batch;
mod build;
mod settings;

#[cfg(feature = "tui")]
pub(crate) use batch::{BatchOn, BatchRan, BatchRun, GpuRan};
pub(crate) use build::LabelSource;
pub use build::Timings;
pub use settings::Settings;

use crate::backend::LabelSpec;
use crate::error::Error;
use crate::graph::Graph;
use crate::graph::names::UnknownVertex;
use crate::index::Labels;
use crate::query::explain::{self, Names, component_label};
use crate::query::{Decided, Decision, Engine, Method, Outcome, QueryIndex, Rule, RuleSet, Scratch};
use crate::telemetry::{Backend, NullSink};
use crate::workspace::Workspace;
use rayon::prelude::*;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// A graph with its labels and query index, ready for queries from many threads at once.
pub struct Index {
    ws: Arc<Workspace>,
    labels: Arc<Labels>,
    query_index: Option<Arc<QueryIndex>>,
    identity: bool,
    /// The back end that built the labels (`None` when they were read or handed in), and why it is
    /// not the one asked for.
    backend: Option<Backend>,
    fallback: Option<String>,
    timings: Timings,
    /// Per-search buffers sized to the DAG, reused across calls.
    scratch: Mutex<Vec<Scratch>>,
    /// Each DAG vertex's smallest original vertex, which explanations name it by; derived on the
    /// first explanation (a pass over every vertex), not per call.
    representatives: OnceLock<Vec<u32>>,
    /// The GPU batch search's copy of the DAG, labels and query index, uploaded by the first GPU
    /// batch and kept for the next ones.
    #[cfg(feature = "tui")]
    on_device: Mutex<Option<crate::gpu::search_index::SearchIndex>>,
}

/// Why a query got its answer: the checks that ran, in order, and the sentence that sums them up.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The answer.
    pub reachable: bool,
    /// The rule that decided it.
    pub rule: Rule,
    /// The checks in the order they ran: the rule, what it read, and its outcome (the last one
    /// decided).
    pub checks: Vec<(Rule, String, Outcome)>,
    /// Why the last check decided, in plain sentences.
    pub sentence: String,
    /// The whole record the sentences were rendered from.
    pub decision: Decision,
}

impl Index {
    /// Indexes `graph`, whose vertex ids are `0..n`.
    pub fn build(graph: Graph, settings: &Settings) -> Result<Index, Error> {
        Index::of_workspace(Workspace::of_graph(graph, "graph"), settings)
    }

    /// Indexes the graph on `n` vertices with these edges (duplicates and self-loops are fine).
    pub fn from_edges(n: usize, edges: &[(u32, u32)], settings: &Settings) -> Result<Index, Error> {
        let graph = Graph::from_edges(n, edges).map_err(Error::InvalidGraph)?;
        Index::build(graph, settings)
    }

    /// Reads a graph file (any format `grail` reads, by its extension or content; a `.grail` file
    /// keeps its condensation) and indexes it. Queries then name vertices by the file's ids.
    ///
    /// ```
    /// use grail::{Index, Settings};
    /// use std::path::Path;
    ///
    /// let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/follows.csv");
    /// let index = Index::open(&path, &Settings::default())?;
    /// let (alice, bob) = (index.vertex("alice")?, index.vertex("bob")?);
    /// assert!(index.reaches(alice, bob)? && index.reaches(bob, alice)?, "a ring of follows");
    /// assert!(index.vertex("alise").is_err(), "no such name (the error suggests `alice`)");
    /// # Ok::<(), grail::Error>(())
    /// ```
    pub fn open(path: &Path, settings: &Settings) -> Result<Index, Error> {
        let ws = Workspace::open(path, None).map_err(|source| Error::Load { path: path.into(), source })?;
        Index::of_workspace(ws, settings)
    }

    fn of_workspace(ws: Workspace, settings: &Settings) -> Result<Index, Error> {
        let source = LabelSource::Build(LabelSpec::new(settings.backend, settings.dims, settings.order));
        Index::assemble(Arc::new(ws), source, settings.rules, &mut NullSink).map_err(|e| Error::Build(e.into()))
    }

    /// Does `u` reach `v`? (Every vertex reaches itself.)
    pub fn reaches(&self, u: u64, v: u64) -> Result<bool, Error> {
        let (u, v) = (self.dense(u)?, self.dense(v)?);
        Ok(self.with_scratch(|scratch| self.engine().query(u, v, Method::default(), scratch, false).reachable))
    }

    /// [`Index::reaches`] with its reasons: which checks ran and why the last one decided.
    pub fn explain(&self, u: u64, v: u64) -> Result<Explanation, Error> {
        let (du, dv) = (self.dense(u)?, self.dense(v)?);
        let decided = self.decide(du, dv, Method::default(), 0);
        let representative = self.representatives.get_or_init(|| self.ws.condensation.representatives());
        let shown = &self.ws.loaded.names;
        let sizes = &self.ws.condensation.sizes;
        let label = |c: u32| component_label(shown.label(representative[c as usize]), sizes[c as usize]);
        let names = Names { u: shown.label(du), v: shown.label(dv), vertex: &label };
        let decision = decided.decision;
        Ok(Explanation {
            reachable: decision.reachable(),
            rule: decision.rule(),
            checks: explain::trail(&decision, &names),
            sentence: explain::sentence(&decision, &names),
            decision,
        })
    }

    /// Answers every pair, in parallel on the current rayon pool; the answers come back in order.
    ///
    /// ```
    /// use grail::{Index, Settings};
    ///
    /// let index = Index::from_edges(3, &[(0, 1), (1, 2)], &Settings::default())?;
    /// assert_eq!(index.reaches_all(&[(0, 2), (2, 0), (1, 1)])?, [true, false, true]);
    /// # Ok::<(), grail::Error>(())
    /// ```
    pub fn reaches_all(&self, pairs: &[(u64, u64)]) -> Result<Vec<bool>, Error> {
        let dense =
            pairs.iter().map(|&(u, v)| Ok((self.dense(u)?, self.dense(v)?))).collect::<Result<Vec<_>, Error>>()?;
        let engine = self.engine();
        let n = self.ws.dag().num_vertices();
        Ok(dense
            .par_iter()
            .map_init(
                || Scratch::new(n),
                |scratch, &(u, v)| engine.query(u, v, Method::default(), scratch, false).reachable,
            )
            .collect())
    }

    /// Vertices of the graph as given (before condensing its cycles).
    pub fn num_vertices(&self) -> usize {
        self.ws.loaded.graph.num_vertices()
    }

    /// The labels (of the condensed DAG's vertices).
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The query index of the extra rules; `None` with GRAIL's rules only.
    pub fn query_index(&self) -> Option<&QueryIndex> {
        self.query_index.as_deref()
    }

    /// The rules the queries try: [`RuleSet::All`] exactly when there is a query index.
    pub fn rules(&self) -> RuleSet {
        if self.query_index.is_some() { RuleSet::All } else { RuleSet::Grail }
    }

    /// The graph as loaded, its condensation and its names.
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// The engine over the labels and the query index, for a caller that needs the search itself
    /// (a query's trace, a picture's overlay); its ids are dense original vertex ids.
    pub fn engine(&self) -> Engine<'_> {
        let (dag, component) = (self.ws.dag(), &self.ws.condensation.component);
        Engine::with_known_identity(dag, &self.labels, component, self.identity, self.query_index.as_deref())
    }

    /// How long each step of the build took.
    pub fn timings(&self) -> Timings {
        self.timings
    }

    /// The condensed DAG the labels and searches work on.
    pub fn dag(&self) -> &Arc<Graph> {
        self.ws.dag()
    }

    /// The back end that labelled the graph; `None` when the labels were read from a file or
    /// handed in finished.
    pub fn backend(&self) -> Option<Backend> {
        self.backend
    }

    /// Why the labels come from another back end than the one asked for (a GPU request on a
    /// machine without one); `None` when nothing fell back.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// The id [`Index::reaches`] and the other queries take for a vertex as a user would type it:
    /// its name, when the file named its vertices (`index.vertex("alice")`), else its file id
    /// written out (`"17"`). A name the graph lacks is [`Error::NoSuchName`], with the nearest
    /// names there are.
    pub fn vertex(&self, typed: &str) -> Result<u64, Error> {
        let names = &self.ws.loaded.names;
        let vertices = self.num_vertices();
        match names.find(typed, vertices) {
            Ok(v) => Ok(names.file_id(v)),
            Err(UnknownVertex::NoSuchId(vertex)) => Err(Error::NoSuchVertex { vertex, vertices }),
            Err(UnknownVertex::NotAnId(name)) => Err(Error::NoSuchName { name, nearest: Vec::new() }),
            Err(UnknownVertex::NoSuchName { name, nearest, .. }) => Err(Error::NoSuchName { name, nearest }),
        }
    }

    /// How the file shows vertex `id` (an id [`Index::reaches`] takes): its name in a named graph,
    /// the id written out otherwise; None when there is no such vertex.
    pub fn vertex_name(&self, id: u64) -> Option<String> {
        let names = &self.ws.loaded.names;
        names.resolve(id, self.num_vertices()).map(|v| names.plain(v))
    }

    /// The dense id of the vertex the file (or the edge list) calls `id`.
    fn dense(&self, id: u64) -> Result<u32, Error> {
        let vertices = self.num_vertices();
        self.ws.loaded.names.resolve(id, vertices).ok_or(Error::NoSuchVertex { vertex: id, vertices })
    }

    /// [`Engine::decide`] on dense original vertex ids, with a reused scratch: the answer, every
    /// check behind it, and the search tree up to `node_limit` nodes.
    pub(crate) fn decide(&self, u: u32, v: u32, method: Method, node_limit: usize) -> Decided {
        self.with_scratch(|scratch| self.engine().decide(u, v, method, scratch, node_limit))
    }

    /// Whether this index was put together from exactly these labels and this query index (the
    /// explorer keeps an index, and its data on the GPU, while they stay the same).
    #[cfg(feature = "tui")]
    pub(crate) fn shares(&self, labels: &Arc<Labels>, query_index: Option<&Arc<QueryIndex>>) -> bool {
        Arc::ptr_eq(&self.labels, labels)
            && match (&self.query_index, query_index) {
                (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
                (None, None) => true,
                _ => false,
            }
    }

    /// The workspace, labels and query index, for a front end that goes on with them alone (the
    /// command line's edit scripts, whose index changes as the graph does).
    #[cfg(feature = "cli")]
    pub(crate) fn into_parts(self) -> (Arc<Workspace>, Arc<Labels>, Option<Arc<QueryIndex>>) {
        (self.ws, self.labels, self.query_index)
    }

    fn with_scratch<T>(&self, f: impl FnOnce(&mut Scratch) -> T) -> T {
        let reused = self.scratch.lock().map(|mut pool| pool.pop()).unwrap_or(None);
        let mut scratch = reused.unwrap_or_else(|| Scratch::new(self.ws.dag().num_vertices()));
        let out = f(&mut scratch);
        if let Ok(mut pool) = self.scratch.lock() {
            pool.push(scratch);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Index>();
    }

    #[cfg(feature = "tui")]
    #[test]
    fn an_index_shares_exactly_the_parts_it_was_put_together_from() {
        let ws = Arc::new(Workspace::of_graph(crate::graph::generators::chain(20).unwrap(), "chain"));
        let labels = Arc::new(crate::index::dfs::label(ws.dag(), 2, crate::index::Order::Lex).unwrap());
        let query_index = Arc::new(QueryIndex::build_for(ws.dag()).unwrap());
        let index = Index::from_parts(Arc::clone(&ws), Arc::clone(&labels), Some(Arc::clone(&query_index)));
        assert!(index.shares(&labels, Some(&query_index)));
        assert_eq!(index.rules(), RuleSet::All);
        assert!(!index.shares(&labels, None));
        let same_content = Arc::new((*labels).clone());
        assert!(!index.shares(&same_content, Some(&query_index)));
        let grail = Index::from_parts(ws, Arc::clone(&labels), None);
        assert!(grail.shares(&labels, None) && grail.rules() == RuleSet::Grail);
    }
}
