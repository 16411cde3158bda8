//! The Batch tab's exact BFS rows: queries answered by a full BFS from each source, without labels,
//! and the one BFS of the row that the tab charts level by level.

use crate::exact::BfsEngine;
use crate::exact::bfs::{frontier_sizes, reached};
use crate::query::{BatchReport, Method, Query, Rule, RuleCounts};
use crate::workspace::Workspace;
use anyhow::Result;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The BFS an exact row charts: of the row's sources, the one whose BFS reached the most vertices
/// (it has the most to show; a tie keeps the first searched, the smallest id), as the row's engine
/// ran it: its levels are the engine's, not a second search's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BfsFrontier {
    pub engine: BfsEngine,
    /// The source as the graph's dense id.
    pub source: u32,
    /// The source as the file names it, in the export's JSON: its id (a number), or its name.
    pub source_id: serde_json::Value,
    /// The same, as the screen shows it.
    #[serde(skip)]
    pub source_label: String,
    /// Vertices reached, the source included.
    pub reached: u64,
    /// Vertices first reached at each level, level 0 (the source) first, as
    /// `exact::bfs::frontier_sizes` counts them for `grail bfs --compare`.
    pub frontier_sizes: Vec<u64>,
    /// Distinct sources the row ran a BFS from: the one charted was chosen among these.
    pub sources: usize,
}

/// `queries` answered by a full BFS from each source with `engine` on the file's graph, and the
/// widest of those BFSs. The time is the answering (for the GPU, the graph's upload included), less
/// the choosing of the BFS to chart, so the row's speed is the engine's alone.
pub fn run(
    ws: &Workspace,
    queries: &[Query],
    engine: BfsEngine,
    threads: usize,
    cancel: &AtomicBool,
) -> Result<(BatchReport, Option<BfsFrontier>)> {
    let pairs: Vec<(u32, u32)> = queries.iter().map(|q| (q.src, q.dst)).collect();
    let mut widest: Option<BfsFrontier> = None;
    let mut sources = 0;
    let mut choosing = Duration::ZERO;
    let clock = Instant::now();
    let answers =
        crate::exact_run::answer_by_bfs_each(&ws.loaded.graph, &pairs, engine, cancel, &mut |src, levels| {
            let started = Instant::now();
            sources += 1;
            let reached = reached(levels);
            // Levels are counted only for a new widest BFS: a few times per row, not once per source.
            if widest.as_ref().is_none_or(|w| reached > w.reached) {
                let (source_id, source_label) = (ws.loaded.names.json_id(src), ws.loaded.names.label(src));
                let frontier_sizes = frontier_sizes(levels);
                widest = Some(BfsFrontier {
                    engine,
                    source: src,
                    source_id,
                    source_label,
                    reached,
                    frontier_sizes,
                    sources: 0,
                });
            }
            choosing += started.elapsed();
        })?;
    let elapsed = clock.elapsed().saturating_sub(choosing);
    let mut by_rule = RuleCounts::default();
    queries.iter().for_each(|_| by_rule.add(Rule::Search));
    let report = BatchReport::of_answers(queries, &answers, Method::Bfs, threads, by_rule, elapsed);
    Ok((report, widest.map(|w| BfsFrontier { sources, ..w })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::query::oracle::TransitiveClosure;
    use crate::query::random_queries;
    use std::collections::VecDeque;

    /// Vertices per distance from `src`, by a plain queue BFS: independent of the engines' code.
    fn distances_counted(graph: &Graph, src: u32) -> Vec<u64> {
        let mut distance = vec![u32::MAX; graph.num_vertices()];
        distance[src as usize] = 0;
        let mut queue = VecDeque::from([src]);
        let mut sizes = vec![0u64];
        while let Some(x) = queue.pop_front() {
            let d = distance[x as usize];
            sizes[d as usize] += 1;
            for &c in graph.children(x) {
                if distance[c as usize] == u32::MAX {
                    distance[c as usize] = d + 1;
                    if sizes.len() <= d as usize + 1 {
                        sizes.push(0);
                    }
                    queue.push_back(c);
                }
            }
        }
        sizes
    }

    /// The charted BFS is the widest of the row's sources, by the oracle's closure, and its frontier
    /// per level is the oracle BFS's, summing to its reached count.
    #[test]
    fn the_charted_bfs_is_the_widest_and_its_frontiers_are_the_oracles() {
        let g = crate::graph::generators::random_digraph(2000, 1.2, 5).unwrap();
        let ws = Workspace::of_graph(g, "digraph");
        let graph = &ws.loaded.graph;
        let queries = random_queries(graph.num_vertices(), 300, 9);
        let (report, frontier) = run(&ws, &queries, BfsEngine::Cpu, 1, &AtomicBool::new(false)).unwrap();
        assert_eq!(report.queries, 300);
        let f = frontier.expect("a BFS to chart");
        let closure = TransitiveClosure::new(graph).unwrap();
        let reach = |s: u32| (0..graph.num_vertices() as u32).filter(|&v| closure.reachable(s, v)).count() as u64;
        let mut sources: Vec<u32> = queries.iter().map(|q| q.src).collect();
        sources.sort_unstable();
        sources.dedup();
        assert_eq!(f.sources, sources.len());
        assert!(sources.contains(&f.source), "the charted source is one of the row's");
        let widest = sources.iter().map(|&s| reach(s)).max().unwrap();
        assert_eq!((f.reached, reach(f.source)), (widest, widest));
        assert!(widest > 1, "the graph has sources that reach others: {widest}");
        assert_eq!(f.frontier_sizes, distances_counted(graph, f.source));
        assert_eq!(f.frontier_sizes.iter().sum::<u64>(), f.reached);
        assert_eq!((f.engine, f.source_id.clone()), (BfsEngine::Cpu, f.source.into()));
    }

    #[test]
    fn a_cancelled_row_is_an_error() {
        let g = Graph::from_edges(3, &[(0, 1), (1, 2)]).unwrap();
        let ws = Workspace::of_graph(g, "chain");
        let queries = random_queries(3, 5, 1);
        let cancelled = AtomicBool::new(true);
        assert!(run(&ws, &queries, BfsEngine::Cpu, 1, &cancelled).is_err());
    }
}
