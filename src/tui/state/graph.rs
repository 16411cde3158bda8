//! The Graph tab: what the opened graph looks like.

use crate::graph::io::Format;
use crate::graph::stats::GraphStats;
use crate::workspace::Workspace;

pub struct GraphState {
    pub file: String,
    pub format: Format,
    pub load_seconds: f64,
    pub condense_seconds: f64,
    pub stats: GraphStats,
}

impl GraphState {
    pub fn new(ws: &Workspace, stats: GraphStats) -> GraphState {
        GraphState {
            file: ws.loaded.path.display().to_string(),
            format: ws.loaded.format,
            load_seconds: ws.load_seconds,
            condense_seconds: ws.condense_seconds,
            stats,
        }
    }
}
