//! The weighted distance of a query's pair, for the Query tab, where the open file gives weights.
//!
//! Reachability never reads a weight: the weights are read from the file on the first query that
//! needs them (once per graph) and only by this job. Reading the file again numbers its vertices as
//! the open graph's reader did, so a vertex is the same in both.

use crate::graph::io::load_weighted;
use crate::graph::{WeightOrigin, WeightedGraph};
use crate::weighted::dijkstra::dijkstra;
use crate::weighted::path::shortest_path;
use crate::workspace::Workspace;

/// A shortest path by weight and its length.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedAnswer {
    /// The sum of the path's weights.
    pub distance: f64,
    /// `u`, ..., `v` (vertex ids).
    pub path: Vec<u32>,
}

/// What the Query tab says of a pair's weighted distance, where the file gives weights.
#[derive(Clone, Debug, PartialEq)]
pub enum Weighted {
    /// The lightest path from u to v and its weight.
    Shortest(WeightedAnswer),
    /// v is not reachable from u: no path, so no distance.
    Unreachable,
    /// The weights could not be read (why).
    Unread(String),
}

/// The open graph's weights, read on first use.
#[derive(Default)]
pub struct Weights {
    /// None: not read yet; `Some(Ok(None))`: the file holds no weights.
    read: Option<Result<Option<WeightedGraph>, String>>,
}

impl Weights {
    /// The weighted distance from `u` to `v` (Dijkstra, run only when `reachable`, as the
    /// reachability answer says), if the file gives weights; None when it gives none.
    pub fn answer(&mut self, ws: &Workspace, u: u32, v: u32, reachable: bool) -> Option<Weighted> {
        let read = self.read.get_or_insert_with(|| read_weights(ws));
        let graph = match read {
            Ok(Some(graph)) => graph,
            Ok(None) => return None,
            Err(e) => return Some(Weighted::Unread(e.clone())),
        };
        if !reachable {
            return Some(Weighted::Unreachable);
        }
        let distances = dijkstra(graph, u);
        let shortest = distances
            .to(v)
            .and_then(|distance| Some(WeightedAnswer { distance, path: shortest_path(graph, &distances, v)? }));
        Some(shortest.map_or(Weighted::Unreachable, Weighted::Shortest))
    }
}

/// The file's weights, when its format can hold them and it does.
fn read_weights(ws: &Workspace) -> Result<Option<WeightedGraph>, String> {
    let loaded = &ws.loaded;
    if !loaded.format.holds_weights() {
        return Ok(None);
    }
    let graph = load_weighted(&loaded.path, Some(loaded.format)).map_err(|e| format!("{e:#}"))?;
    if graph.num_vertices() != loaded.graph.num_vertices() {
        return Err(format!("{} changed since it was opened", loaded.path.display()));
    }
    Ok((graph.origin == WeightOrigin::File).then_some(graph))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn workspace_of(text: &str) -> (tempfile::TempPath, Workspace) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        let path = file.into_temp_path();
        let ws = Workspace::open(&path, None).unwrap();
        (path, ws)
    }

    #[test]
    fn a_weighted_file_gives_the_lightest_path() {
        // 0 -> 1 -> 2 weighs 3; the direct edge 0 -> 2 weighs 5.
        let (_file, ws) = workspace_of("3 3 directed\n0 1 1\n1 2 2\n0 2 5\n");
        let mut weights = Weights::default();
        let answer = weights.answer(&ws, 0, 2, true);
        assert_eq!(answer, Some(Weighted::Shortest(WeightedAnswer { distance: 3.0, path: vec![0, 1, 2] })));
        assert_eq!(weights.answer(&ws, 2, 0, false), Some(Weighted::Unreachable), "unreachable: no distance");
        assert_eq!(weights.answer(&ws, 2, 0, true), Some(Weighted::Unreachable), "Dijkstra finds no path either");
    }

    #[test]
    fn a_grail_file_gives_its_stored_weights() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("w.txt");
        std::fs::write(&text, "3 3 directed\n0 1 1\n1 2 2\n0 2 5\n").unwrap();
        let binary = dir.path().join("w.grail");
        let weighted = load_weighted(&text, None).unwrap();
        crate::graph::io::write_weighted(&binary, &weighted, crate::graph::io::Format::Grail).unwrap();
        let ws = Workspace::open(&binary, None).unwrap();
        let answer = Weights::default().answer(&ws, 0, 2, true);
        assert_eq!(answer, Some(Weighted::Shortest(WeightedAnswer { distance: 3.0, path: vec![0, 1, 2] })));
        crate::graph::io::write(&binary, weighted.graph(), &weighted.loaded.names, crate::graph::io::Format::Grail)
            .unwrap();
        let ws = Workspace::open(&binary, None).unwrap();
        assert_eq!(Weights::default().answer(&ws, 0, 2, true), None, "a .grail file without weights");
    }

    #[test]
    fn a_file_without_weights_gives_none() {
        let (_file, ws) = workspace_of("0 1\n1 2\n");
        assert_eq!(Weights::default().answer(&ws, 0, 2, true), None);
    }
}
