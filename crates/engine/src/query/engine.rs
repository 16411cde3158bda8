//! One query, start to finish: map to components, try the cheap rules, then search.

use super::answer::{Answer, Method, Rule, RuleSet};
use super::decision::{Check, CheckInputs, Decision, Outcome, answer_of};
use super::observer::{NoObserver, SearchObserver};
use super::outcome::SearchOutcome;
use super::query_index::QueryIndex;
use super::rules::{Verdict, verdict};
use super::scratch::Scratch;
use super::search::{search, search_before_labels};
use super::supportive_route::through_supportive;
use super::trace::{Trace, TraceRecorder};
use super::tree_path::tree_path;
use crate::graph::{Graph, topo};
use crate::index::Labels;
use crate::prefetch::{prefetch, prefetch_whole};
use crate::{Error, Result};

/// One query answered for a reader: the answer, the record of the checks behind it, and the
/// search tree (empty when a check decided before any search).
#[derive(Clone, Debug)]
pub struct Decided {
    /// The answer, the deciding rule and the search's counts.
    pub answer: Answer,
    /// Every check that ran, in order, with what it read.
    pub decision: Decision,
    /// The search tree, node by node.
    pub trace: Trace,
}

/// Answers reachability queries on original vertices with a labelled condensation: GRAIL's rules
/// only, or every rule once given a query index ([`Engine::with_index`]).
#[derive(Clone, Copy, Debug)]
pub struct Engine<'a> {
    dag: &'a Graph,
    labels: &'a Labels,
    component: &'a [u32],
    /// Every component is its one vertex (`component[v] == v`): the input was a DAG, as most
    /// benchmark files are, and a batch can skip the map.
    identity: bool,
    index: Option<&'a QueryIndex>,
}

/// Whether `component` maps every vertex to itself. Without an early exit, so that it vectorises:
/// a tenth of a millisecond on 1.6M vertices.
fn is_identity(component: &[u32], dag_vertices: usize) -> bool {
    component.len() == dag_vertices && component.iter().zip(0u32..).fold(0, |any, (&c, v)| any | (c ^ v)) == 0
}

impl<'a> Engine<'a> {
    /// `component[v]` is the DAG vertex of original vertex `v`; `labels` label `dag`.
    /// Panics if the labels do not cover the DAG (use [`Engine::try_new`] for data from files).
    pub fn new(dag: &'a Graph, labels: &'a Labels, component: &'a [u32]) -> Self {
        assert_eq!(labels.num_vertices(), dag.num_vertices(), "the labels must cover every DAG vertex");
        Engine { dag, labels, component, identity: is_identity(component, dag.num_vertices()), index: None }
    }

    /// [`Engine::new`] for a caller that already knows whether `component` is the identity (it
    /// keeps the answer across many engines: the check reads every vertex).
    pub fn with_known_identity(
        dag: &'a Graph,
        labels: &'a Labels,
        component: &'a [u32],
        identity: bool,
        index: Option<&'a QueryIndex>,
    ) -> Self {
        debug_assert_eq!(identity, is_identity(component, dag.num_vertices()));
        Engine { dag, labels, component, identity, index }
    }

    /// Whether `component` maps every vertex of `dag` to itself (the input was already a DAG).
    pub fn is_identity(component: &[u32], dag: &Graph) -> bool {
        is_identity(component, dag.num_vertices())
    }

    /// Like [`Engine::new`], but checks every input (an index file may belong to another graph).
    pub fn try_new(dag: &'a Graph, labels: &'a Labels, component: &'a [u32]) -> Result<Self> {
        if labels.num_vertices() != dag.num_vertices() {
            return Err(Error::InvalidInput(format!(
                "the labels cover {} vertices but the condensed graph has {}",
                labels.num_vertices(),
                dag.num_vertices()
            )));
        }
        if let Some(&c) = component.iter().find(|&&c| c as usize >= dag.num_vertices()) {
            let n = dag.num_vertices();
            return Err(Error::InvalidInput(format!("component id {c} is outside the condensed graph's {n} vertices")));
        }
        Ok(Engine { dag, labels, component, identity: is_identity(component, dag.num_vertices()), index: None })
    }

    /// The engine with every rule ([`RuleSet::All`]): `index` must be built for this DAG (panics
    /// otherwise). `None` keeps GRAIL's rules.
    pub fn with_index(self, index: Option<&'a QueryIndex>) -> Self {
        if let Some(index) = index {
            assert_eq!(index.num_vertices(), self.dag.num_vertices(), "the query index must cover every DAG vertex");
        }
        Engine { index, ..self }
    }

    /// The rules this engine tries.
    pub fn rule_set(&self) -> RuleSet {
        if self.index.is_some() { RuleSet::All } else { RuleSet::Grail }
    }

    /// The index of the extra rules, when the engine has one.
    pub fn query_index(&self) -> Option<&'a QueryIndex> {
        self.index
    }

    /// The cheap rules' verdict on DAG vertices `cu != cv` (what batch pre-filters use).
    #[inline]
    pub fn verdict(&self, cu: u32, cv: u32) -> Option<Verdict> {
        verdict(self.index, self.labels, cu, cv)
    }

    /// Number of original vertices (valid query ids are `0..num_vertices()`).
    pub fn num_vertices(&self) -> usize {
        self.component.len()
    }

    /// The condensation the labels describe.
    pub fn dag(&self) -> &'a Graph {
        self.dag
    }

    /// The GRAIL labels of the DAG.
    pub fn labels(&self) -> &'a Labels {
        self.labels
    }

    /// Each original vertex's DAG vertex (its strongly connected component).
    pub fn component(&self) -> &'a [u32] {
        self.component
    }

    /// True when `component[v] == v` for every vertex (the input was a DAG).
    pub fn has_identity_components(&self) -> bool {
        self.identity
    }

    /// Buffers sized for this engine's DAG.
    pub fn scratch(&self) -> Scratch {
        Scratch::new(self.dag.num_vertices())
    }

    /// Does `u` reach `v`? `u`, `v`: dense ORIGINAL vertex ids (before condensation; panics if out of
    /// range, so check ids read from users first). The path, for a yes with `want_path`, is in DAG
    /// (component) ids from `comp(u)` to `comp(v)`.
    ///
    /// Guided methods try the rules cheapest first and then search, pruned by them: with GRAIL's
    /// rules the same component, the label cut, the level cut and the tree cut; with every rule (a
    /// query index attached) the order of [`crate::query::rules::full_verdict`] (same component,
    /// level cut, topological orders, supportive cut, Bloom cut, supportive path, then GRAIL's label
    /// and tree cuts). The unguided baselines keep only the same-component rule and search without the index.
    #[inline]
    pub fn query(&self, u: u32, v: u32, method: Method, scratch: &mut Scratch, want_path: bool) -> Answer {
        self.query_observed(u, v, method, scratch, want_path, &mut NoObserver)
    }

    /// [`Engine::query`] that also returns the search tree (at most `node_limit` nodes; empty when
    /// a cheap rule decided). The answer, its counts and its path (always asked for) are exactly
    /// `query(u, v, method, scratch, true)`'s: the tree is recorded from that very search.
    pub fn query_traced(
        &self,
        u: u32,
        v: u32,
        method: Method,
        scratch: &mut Scratch,
        node_limit: usize,
    ) -> (Answer, Trace) {
        let mut recorder = TraceRecorder::new(self.labels, node_limit);
        let answer = self.query_observed(u, v, method, scratch, true, &mut recorder);
        (answer, recorder.finish(method))
    }

    /// [`Engine::query_traced`] with the record of every check it ran, in the order it ran them:
    /// the one answer the explorer's views and `grail query` show and explain. The answer is
    /// [`Engine::query`]'s with its path (the property tests hold the two to each other).
    pub fn decide(&self, u: u32, v: u32, method: Method, scratch: &mut Scratch, node_limit: usize) -> Decided {
        let ends = (self.component[u as usize], self.component[v as usize]);
        let (cu, cv) = ends;
        let levels = self.labels.levels();
        let inputs = CheckInputs { dag: self.dag, levels, labels: Some(self.labels), index: self.index };
        let rules = self.rule_set();
        let checks = inputs.run(rules, method, ends);
        let checks =
            match decided_by_checks(checks, rules, method, ends, |verdict| self.cut_path(cu, cv, verdict, scratch)) {
                Ok(decided) => return decided,
                Err(checks) => checks,
            };
        let mut recorder = TraceRecorder::new(self.labels, node_limit);
        let found = search(self.dag, self.labels, self.index, cu, cv, method, scratch, true, &mut recorder);
        let trace = recorder.finish(method);
        decided_by_search(found, Decision { rules, method, ends, checks }, trace, false)
    }

    /// [`Engine::query`], telling `observer` every step of the search, if one runs (the cheap rules
    /// and a tree cut's path walk are not reported).
    ///
    /// Always inlined: batches call [`Engine::query`] once per query in their hot loop, and this is
    /// its whole body; left to itself the inliner stops at the wrapper and adds a call per query.
    #[inline(always)]
    pub fn query_observed<O: SearchObserver>(
        &self,
        u: u32,
        v: u32,
        method: Method,
        scratch: &mut Scratch,
        want_path: bool,
        observer: &mut O,
    ) -> Answer {
        let (cu, cv) = (self.component[u as usize], self.component[v as usize]);
        if cu == cv {
            let mut answer = Answer::decided(Rule::SameComponent, true, None);
            answer.path = want_path.then(|| vec![cu]);
            return answer;
        }
        if method.is_guided()
            && let Some(verdict) = self.verdict(cu, cv)
        {
            let mut answer = Answer::decided(verdict.rule, verdict.reachable, verdict.dimension);
            if want_path && verdict.reachable {
                answer.path = self.cut_path(cu, cv, verdict, scratch);
            }
            return answer;
        }
        searched(search(self.dag, self.labels, self.index, cu, cv, method, scratch, want_path, observer))
    }

    /// Batches call this a few queries ahead: fetches the component map entries of `u` and `v`.
    #[inline]
    pub(crate) fn prefetch_components(&self, u: u32, v: u32) {
        prefetch(self.component, u as usize);
        prefetch(self.component, v as usize);
    }

    /// Fetches what the rules read for DAG vertices `cu` and `cv` besides the topological
    /// positions: their levels (a batch's first pass may have read a narrower copy), index records
    /// (48 bytes, which may straddle two lines) and the ends of their intervals. For the few
    /// queries a batch's first cuts leave, which then miss no more.
    #[inline]
    pub(crate) fn prefetch_records(&self, cu: usize, cv: usize) {
        let dims = self.labels.dims();
        let intervals = self.labels.intervals();
        for c in [cu, cv] {
            prefetch(self.labels.levels(), c);
            if let Some(index) = self.index {
                prefetch_whole(index.of(c as u32));
            }
            prefetch(intervals, c * dims);
            prefetch(intervals, c * dims + dims - 1);
        }
    }

    /// Batches call this closer ahead, once the component entries are cached: fetches what the
    /// first rules read: levels and topological positions with every rule, the labels of the
    /// label cut (both ends of each vertex's intervals, which may straddle two lines) without.
    #[inline]
    pub(crate) fn prefetch_labels(&self, u: u32, v: u32) {
        if let Some(index) = self.index {
            for c in [self.component[u as usize], self.component[v as usize]] {
                prefetch(self.labels.levels(), c as usize);
                prefetch(index.topo_positions(), c as usize);
            }
            return;
        }
        let dims = self.labels.dims();
        let intervals = self.labels.intervals();
        for c in [self.component[u as usize], self.component[v as usize]] {
            prefetch(intervals, c as usize * dims);
            prefetch(intervals, c as usize * dims + dims - 1);
        }
    }

    /// The path behind a positive cut: the tree path of a tree cut; through the supportive vertex
    /// of a supportive path, so that the path shown is the one the explanation names; otherwise
    /// (or if the labels are inconsistent) a GRAIL-guided search, which must find one.
    #[cold]
    fn cut_path(&self, cu: u32, cv: u32, verdict: Verdict, scratch: &mut Scratch) -> Option<Vec<u32>> {
        let mut find = |from: u32, to: u32| {
            if from == to {
                return Some(vec![from]);
            }
            search(self.dag, self.labels, None, from, to, Method::GuidedDfs, scratch, true, &mut NoObserver).path
        };
        if let (Rule::SupportivePath, Some(index), Some(bit)) = (verdict.rule, self.index, verdict.dimension)
            && let Some(path) = through_supportive(self.dag, index, cu, cv, bit)
        {
            return Some(path);
        }
        let tree = if verdict.rule == Rule::TreeCut { verdict.dimension } else { None };
        tree.and_then(|d| tree_path(self.dag, self.labels, cu, cv, d)).or_else(|| find(cu, cv))
    }
}

/// Decides `u ? v` (original vertex ids) with every rule before any labels exist, from the query
/// index alone: the checks that come before the labels' in the order of every rule (same
/// component, level, topological orders, supportive vertices, Bloom filters, supportive path),
/// then, if they leave the pair open, the guided search pruned by those cuts alone (its trace at
/// most `node_limit` nodes). A pair the checks decide gets exactly the record [`Engine::decide`]
/// gives it with labels, path included; a searched one the same answer and path rule, with the
/// counts of a search the labels did not prune. `None` for the unguided baselines.
pub fn decide_before_labels(
    dag: &Graph,
    component: &[u32],
    index: &QueryIndex,
    (u, v): (u32, u32),
    method: Method,
    node_limit: usize,
) -> Option<Decided> {
    let ends @ (cu, cv) = (component[u as usize], component[v as usize]);
    let levels = topo::kahn(dag).ok()?.level;
    let inputs = CheckInputs { dag, levels, labels: None, index: Some(index) };
    let checks = inputs.run(RuleSet::All, method, ends);
    // A supportive vertex between them is the only yes besides the component's before the labels.
    let checks = match decided_by_checks(checks, RuleSet::All, method, ends, |verdict| {
        verdict.dimension.and_then(|bit| through_supportive(dag, index, cu, cv, bit))
    }) {
        Ok(decided) => return Some(decided),
        Err(checks) => checks,
    };
    let mut recorder = TraceRecorder::without_labels(node_limit);
    let mut scratch = Scratch::new(dag.num_vertices());
    let found = search_before_labels(dag, levels, index, cu, cv, method, &mut scratch, true, &mut recorder)?;
    let decision = Decision { rules: RuleSet::All, method, ends, checks };
    Some(decided_by_search(found, decision, recorder.finish(method), true))
}

/// The record of a query the search decided: `decision` holds the checks before it.
fn decided_by_search(found: SearchOutcome, mut decision: Decision, trace: Trace, before_labels: bool) -> Decided {
    decision.checks.push(Check::Search {
        method: decision.method,
        reachable: found.reachable,
        expanded: found.expanded,
        pruned: found.pruned,
        dead_ends: found.false_positives,
        before_labels,
    });
    Decided { answer: searched(found), decision, trace }
}

/// The record of a query whose last check decided, the path of a yes from `cut_path` (given the
/// deciding rule and its witness) unless both ends share a component; the checks back when the
/// last one left the pair open.
fn decided_by_checks(
    checks: Vec<Check>,
    rules: RuleSet,
    method: Method,
    ends @ (cu, cv): (u32, u32),
    cut_path: impl FnOnce(Verdict) -> Option<Vec<u32>>,
) -> Result<Decided, Vec<Check>> {
    let last = checks.last().expect("the component check always runs");
    if last.outcome() == Outcome::Undecided {
        return Err(checks);
    }
    let mut answer = answer_of(last);
    if answer.reachable {
        answer.path = if cu == cv {
            Some(vec![cu])
        } else {
            cut_path(Verdict { rule: answer.rule, reachable: true, dimension: answer.witness })
        };
    }
    Ok(Decided { answer, decision: Decision { rules, method, ends, checks }, trace: Trace::empty(method) })
}

/// The answer of a query the search decided.
#[inline(always)]
fn searched(found: SearchOutcome) -> Answer {
    Answer {
        reachable: found.reachable,
        rule: Rule::Search,
        witness: None,
        expanded: found.expanded,
        pruned: found.pruned,
        false_positives: found.false_positives,
        path: found.path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::scc::{Condensation, condense};
    use crate::index::{Order, dfs};
    use crate::query::rules::supportive_path;
    use std::sync::Arc;

    /// Original graph: 0 -> 1 -> 2 -> 1 (cycle {1, 2}), 2 -> 3, 0 -> 4, 4 -> 3, 5 -> 4.
    /// Components: {0}=0, {1,2}=1, {3}=2, {4}=3, {5}=4.
    fn fixture() -> (Condensation, Labels) {
        let g = Graph::from_edges(6, &[(0, 1), (1, 2), (2, 1), (2, 3), (0, 4), (4, 3), (5, 4)]).unwrap();
        let c = condense(&Arc::new(g));
        let labels = dfs::label(&c.dag, 1, Order::Lex).unwrap();
        (c, labels)
    }

    #[test]
    fn each_rule_decides_its_case() {
        let (c, labels) = fixture();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let mut scratch = engine.scratch();
        let ask = |u, v, scratch: &mut Scratch| engine.query(u, v, Method::GuidedDfs, scratch, true);
        // Same component, in both directions and for u == v.
        for (u, v) in [(1, 2), (2, 1), (5, 5)] {
            let a = ask(u, v, &mut scratch);
            assert_eq!((a.reachable, a.rule, a.expanded), (true, Rule::SameComponent, 0));
            assert_eq!(a.path, Some(vec![c.component[u as usize]]));
        }
        // Lex DFS on the DAG 0 -> {1, 3}, 1 -> 2, 3 -> 2, 4 -> 3: post 2=1, 1=2, 3=3, 0=4, 4=5.
        // L(4) = [1,5] is not inside L(0) = [1,4]: label cut in dimension 0.
        let a = ask(0, 5, &mut scratch);
        assert_eq!((a.reachable, a.rule, a.witness, a.path), (false, Rule::LabelCut, Some(0), None));
        // L(2) = [1,2] ⊆ L(3) = [1,3], but both components sit on level 1: level cut.
        let a = ask(4, 1, &mut scratch);
        assert_eq!((a.reachable, a.rule), (false, Rule::LevelCut));
        // Component 2 is in component 0's DFS subtree: tree cut, with a real path.
        let a = ask(0, 3, &mut scratch);
        assert_eq!((a.reachable, a.rule, a.witness), (true, Rule::TreeCut, Some(0)));
        assert_eq!(a.path, Some(vec![0, 1, 2]));
        // 5 reaches 3 through 4, outside 5's DFS subtree in the lex tree: only the search knows.
        let a = ask(5, 3, &mut scratch);
        assert_eq!((a.reachable, a.rule, a.path), (true, Rule::Search, Some(vec![4, 3, 2])));
        assert_eq!((a.expanded, a.pruned, a.false_positives), (2, 0, 0));
    }

    #[test]
    fn unguided_methods_skip_the_cuts() {
        let (c, labels) = fixture();
        let engine = Engine::new(&c.dag, &labels, &c.component);
        let mut scratch = engine.scratch();
        for method in [Method::Dfs, Method::Bfs] {
            let a = engine.query(0, 5, method, &mut scratch, false);
            assert_eq!((a.reachable, a.rule, a.pruned), (false, Rule::Search, 0));
            assert_eq!(a.false_positives, a.expanded);
            assert_eq!(engine.query(1, 2, method, &mut scratch, false).rule, Rule::SameComponent);
        }
    }

    #[test]
    fn try_new_rejects_foreign_inputs() {
        let (c, labels) = fixture();
        assert!(Engine::try_new(&c.dag, &labels, &c.component).is_ok());
        assert!(Engine::try_new(&c.dag, &labels, &[0, 9]).is_err());
        let other = Graph::from_edges(2, &[]).unwrap();
        assert!(Engine::try_new(&other, &labels, &[0, 1]).is_err());
    }

    #[test]
    fn a_supportive_path_answer_shows_a_path_through_its_supportive_vertex() {
        let dag = crate::graph::generators::random_dag(400, 3.0, 4).unwrap();
        let labels = dfs::label(&dag, 2, Order::Random { seed: 3 }).unwrap();
        let index = QueryIndex::build(&dag, &labels).unwrap();
        let identity: Vec<u32> = (0..400).collect();
        let engine = Engine::new(&dag, &labels, &identity).with_index(Some(&index));
        let supportive = QueryIndex::supportive(&dag);
        let mut scratch = Scratch::new(400);
        let mut checked = 0;
        for u in 0..400 {
            for v in (0..400).step_by(7) {
                let answer = engine.query(u, v, Method::GuidedBfs, &mut scratch, true);
                if answer.rule != Rule::SupportivePath {
                    continue;
                }
                let bit = supportive_path(index.of(u), index.of(v)).unwrap();
                let path = answer.path.unwrap();
                assert!(path.contains(&supportive[bit]), "{u} -> {v}: {path:?} misses {}", supportive[bit]);
                assert_eq!((path[0], *path.last().unwrap()), (u, v));
                assert!(path.windows(2).all(|e| dag.children(e[0]).contains(&e[1])), "{path:?}");
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} supportive-path answers");
    }
}
