//! [`Index`]: the library's front door. Build a reachability index over a directed graph (cycles
//! allowed), then ask whether one vertex reaches another, why, or a whole batch at once.
//!
//! Underneath, the graph is condensed to a DAG, labelled with GRAIL's interval labels (on the CPU
//! pipeline, or the GPU where asked and present) and given the query index (topological orders,
//! supportive vertices, Bloom filters); each query tries the cheap rules first and searches only
//! when they cannot tell. Answers are exact: the labels only prune the search.

use crate::backend::{self, DEFAULT_DIMS, LabelSpec};
use crate::error::{Error, chain};
use crate::graph::Graph;
use crate::graph::names::UnknownVertex;
use crate::index::{Labels, Order};
use crate::query::explain::{self, Names, component_label};
use crate::query::{Decision, Engine, Method, Outcome, QueryIndex, Rule, RuleSet, Scratch};
use crate::telemetry::{Backend, NullSink};
use crate::workspace::Workspace;
use rayon::prelude::*;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// How to build an [`Index`]. `Settings::default()` builds the labels `grail label` builds by
/// default (every back end builds the same ones), on the parallel CPU pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Label dimensions: more prune more of each search and cost more to build (default 5).
    pub dims: usize,
    /// Who labels: [`Backend::Cpu`] (the parallel pipeline, the default), [`Backend::Dfs`] (the
    /// paper's sequential DFS) or [`Backend::Gpu`] (falls back to the CPU where there is no GPU;
    /// [`Index::fallback`] says why).
    pub backend: Backend,
    /// The children order of each dimension's traversal (random, seed 1, by default: the command
    /// line's default).
    pub order: Order,
    /// Every rule (the default) or GRAIL's rules only (labels, levels, tree cut), as in the paper.
    pub rules: RuleSet,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { dims: DEFAULT_DIMS, backend: Backend::Cpu, order: Order::Random { seed: 1 }, rules: RuleSet::All }
    }
}

/// A graph with its labels and query index, ready for queries from many threads at once.
pub struct Index {
    ws: Workspace,
    labels: Labels,
    query_index: Option<QueryIndex>,
    identity: bool,
    backend: Backend,
    fallback: Option<String>,
    /// Per-search buffers sized to the DAG, reused across calls.
    scratch: Mutex<Vec<Scratch>>,
    /// Each DAG vertex's smallest original vertex, which explanations name it by; derived on the
    /// first explanation (a pass over every vertex), not per call.
    representatives: OnceLock<Vec<u32>>,
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
        let graph = Graph::from_edges(n, edges).map_err(|e| Error::InvalidGraph(chain(&e)))?;
        Index::build(graph, settings)
    }

    /// Reads a graph file (any format `grail` reads, by its extension or content; a `.grail` file
    /// keeps its condensation) and indexes it. Queries then name vertices by the file's ids.
    pub fn open(path: &Path, settings: &Settings) -> Result<Index, Error> {
        let ws = Workspace::open(path, None).map_err(|e| Error::Load { path: path.into(), message: chain(&e) })?;
        Index::of_workspace(ws, settings)
    }

    fn of_workspace(ws: Workspace, settings: &Settings) -> Result<Index, Error> {
        let build = |e: anyhow::Error| Error::Build(chain(&e));
        let spec = LabelSpec::new(settings.backend, settings.dims, settings.order);
        let label = || backend::build_labels(ws.dag(), &spec, &mut NullSink);
        let (run, query_index) = match settings.rules {
            RuleSet::All => {
                let (run, index) = crate::backend::query_index::build_beside(ws.dag(), settings.backend, label);
                (run.map_err(build)?, Some(index.map_err(build)?))
            }
            RuleSet::Grail => (label().map_err(build)?, None),
        };
        let identity = Engine::is_identity(&ws.condensation.component, ws.dag());
        Ok(Index {
            ws,
            labels: run.labels,
            query_index,
            identity,
            backend: run.backend,
            fallback: run.fallback,
            scratch: Mutex::new(Vec::new()),
            representatives: OnceLock::new(),
        })
    }

    /// Does `u` reach `v`? (Every vertex reaches itself.)
    pub fn reaches(&self, u: u64, v: u64) -> Result<bool, Error> {
        let (u, v) = (self.dense(u)?, self.dense(v)?);
        Ok(self.with_scratch(|scratch| self.engine().query(u, v, Method::default(), scratch, false).reachable))
    }

    /// [`Index::reaches`] with its reasons: which checks ran and why the last one decided.
    pub fn explain(&self, u: u64, v: u64) -> Result<Explanation, Error> {
        let (du, dv) = (self.dense(u)?, self.dense(v)?);
        let decided = self.with_scratch(|scratch| self.engine().decide(du, dv, Method::default(), scratch, 0));
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

    /// The condensed DAG the labels and searches work on.
    pub fn dag(&self) -> &Arc<Graph> {
        self.ws.dag()
    }

    /// The back end that labelled the graph.
    pub fn backend(&self) -> Backend {
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

    fn engine(&self) -> Engine<'_> {
        let (dag, component) = (self.ws.dag(), &self.ws.condensation.component);
        Engine::with_known_identity(dag, &self.labels, component, self.identity, self.query_index.as_ref())
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
