//! `grail query GRAPH U V --why`: what holds a reachable pair together, the vertices every path from
//! `u` to `v` visits and the edges every path crosses (cut one, and `v` is out of reach).

use super::output::{Output, Report, vertex_text};
use crate::format::plural;
use crate::graph::every_path::every_path;
use crate::workspace::Workspace;
use anyhow::Result;
use serde::Serialize;

#[derive(Serialize)]
struct WhyReport {
    src: serde_json::Value,
    dst: serde_json::Value,
    reachable: bool,
    /// The vertices every path visits, from the source to the destination.
    vertices: Vec<serde_json::Value>,
    /// The edges every path crosses, in path order.
    edges: Vec<[serde_json::Value; 2]>,
    /// The pair's subgraph: the vertices reached from the source that reach the destination.
    subgraph_vertices: usize,
    subgraph_edges: usize,
}

/// Answers for the vertices typed as `src` and `dst`.
pub fn run(ws: &Workspace, src: &str, dst: &str, output: Output) -> Result<()> {
    let (u, v) = (ws.vertex(src)?, ws.vertex(dst)?);
    let names = &ws.loaded.names;
    let id = |w: u32| names.json_id(w);
    let found = every_path(&ws.loaded.graph, u, v);
    let report = WhyReport {
        src: id(u),
        dst: id(v),
        reachable: found.is_some(),
        vertices: found.iter().flat_map(|f| f.vertices.iter().map(|&w| id(w))).collect(),
        edges: found.iter().flat_map(|f| f.edges.iter().map(|&(a, b)| [id(a), id(b)])).collect(),
        subgraph_vertices: found.as_ref().map_or(0, |f| f.subgraph_vertices),
        subgraph_edges: found.as_ref().map_or(0, |f| f.subgraph_edges),
    };
    output.show(&report)
}

impl Report for WhyReport {
    fn print(&self) {
        let (u, v) = (vertex_text(&self.src), vertex_text(&self.dst));
        if !self.reachable {
            println!("{u} does not reach {v}: no path, so nothing holds them together");
            return;
        }
        println!(
            "{u} reaches {v}; the pair's subgraph (reached from {u}, reaching {v}) has {} and {}",
            plural(self.subgraph_vertices as u64, "vertex", "vertices"),
            plural(self.subgraph_edges as u64, "edge", "edges")
        );
        let shown: Vec<String> = self.vertices.iter().map(vertex_text).collect();
        if shown.len() <= 2 {
            println!("no vertex between {u} and {v} is on every path");
        } else {
            let between = plural(shown.len() as u64 - 2, "vertex", "vertices");
            println!("every path visits {between} between them, in this order: {}", shown.join(" … "));
        }
        if self.edges.is_empty() {
            println!("no edge is on every path: deleting any one edge leaves {v} in reach");
        } else {
            let edges: Vec<String> =
                self.edges.iter().map(|[a, b]| format!("{} → {}", vertex_text(a), vertex_text(b))).collect();
            println!(
                "every path crosses {} (deleting one puts {v} out of reach): {}",
                plural(edges.len() as u64, "edge", "edges"),
                edges.join(", ")
            );
        }
    }
}
