//! Cycles between files. Tarjan's algorithm (petgraph) finds the groups of files that all reach
//! each other; inside each group, every dependency edge u -> v is closed into a cycle by the
//! shortest way back from v to u, so every edge that takes part in a cycle is shown with the
//! import that makes it. A group of many files has many such cycles, often all through one bad
//! import: [`DependencyGraph::cycle_breaking_edges`] names the few imports that break them all.

use super::DependencyGraph;
use super::modules::FileId;
use petgraph::algo::{astar, tarjan_scc};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::NodeFiltered;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// One cycle: `files[0] -> files[1] -> ... -> files[0]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cycle {
    pub files: Vec<FileId>,
}

/// A cycle with the graph it came from, for printing.
pub struct ShowCycle<'g> {
    pub graph: &'g DependencyGraph,
    pub cycle: &'g Cycle,
}

impl Cycle {
    /// The edges around the cycle, the closing one included.
    pub fn edges(&self) -> impl Iterator<Item = (FileId, FileId)> + '_ {
        let n = self.files.len();
        (0..n).map(move |i| (self.files[i], self.files[(i + 1) % n]))
    }
}

impl DependencyGraph {
    /// Every edge that lies on a cycle, each closed into one shortest cycle; duplicates removed.
    pub fn cycles(&self) -> Vec<Cycle> {
        self.cycles_without(&BTreeSet::new())
    }

    /// Edges whose removal leaves no cycle, picked greedily (the edge on the most remaining
    /// cycles first), each with the number of cycles it was on when picked. A hint of which import
    /// to move, not a verdict: the right fix may be moving an item at the other end.
    pub fn cycle_breaking_edges(&self) -> Vec<((FileId, FileId), usize)> {
        let mut removed = BTreeSet::new();
        let mut picked = Vec::new();
        loop {
            let mut on_cycles: BTreeMap<(FileId, FileId), usize> = BTreeMap::new();
            for cycle in self.cycles_without(&removed) {
                for edge in cycle.edges() {
                    *on_cycles.entry(edge).or_default() += 1;
                }
            }
            // Most cycles first; among equals, the first edge in path order, so the output is stable.
            let Some((&edge, &count)) = on_cycles.iter().max_by_key(|&(&edge, &count)| (count, Reverse(edge))) else {
                return picked;
            };
            removed.insert(edge);
            picked.push((edge, count));
        }
    }

    fn cycles_without(&self, removed: &BTreeSet<(FileId, FileId)>) -> Vec<Cycle> {
        let mut graph = DiGraph::<FileId, ()>::new();
        let mut node: HashMap<FileId, NodeIndex> = HashMap::new();
        for &(from, to) in self.edges.keys().filter(|edge| !removed.contains(edge)) {
            for file in [from, to] {
                node.entry(file).or_insert_with(|| graph.add_node(file));
            }
            graph.add_edge(node[&from], node[&to], ());
        }
        let mut cycles = BTreeSet::new();
        for component in tarjan_scc(&graph) {
            if component.len() < 2 {
                continue;
            }
            let members: BTreeSet<NodeIndex> = component.iter().copied().collect();
            let inside = NodeFiltered::from_fn(&graph, |n| members.contains(&n));
            for &u in &component {
                for v in graph.neighbors(u).filter(|v| members.contains(v)) {
                    let (_, back) = astar(&inside, v, |n| n == u, |_| 1, |_| 0)
                        .expect("a strongly connected component has a way back from every member");
                    let mut files: Vec<FileId> = std::iter::once(u).chain(back).map(|n| graph[n]).collect();
                    files.pop(); // `back` ends at u, where the cycle started
                    cycles.insert(Cycle { files: rotate_to_smallest(files) });
                }
            }
        }
        cycles.into_iter().collect()
    }
}

/// The same cycle starts at the same file whichever edge found it.
fn rotate_to_smallest(mut files: Vec<FileId>) -> Vec<FileId> {
    let smallest = (0..files.len()).min_by_key(|&i| files[i]).unwrap_or(0);
    files.rotate_left(smallest);
    files
}

impl fmt::Display for ShowCycle<'_> {
    /// ```text
    /// src/a.rs -> src/b.rs -> src/a.rs
    ///     src/a.rs:3: use crate::b::Thing
    ///     src/b.rs:7: crate::a::helper
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let files = &self.cycle.files;
        let names: Vec<&str> = files.iter().chain(files.first()).map(|&id| self.graph.path(id)).collect();
        writeln!(f, "{}", names.join(" -> "))?;
        for (from, to) in self.cycle.edges() {
            writeln!(f, "    {}", self.graph.evidence_line(from, to))?;
        }
        Ok(())
    }
}
