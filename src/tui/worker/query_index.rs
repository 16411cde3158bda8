//! The open graph's query index, built on a thread of its own from the moment the graph opens.
//!
//! The index depends on the DAG alone, not on the labels, so it is built while the user looks at
//! the graph or labels it, and the first query with every rule waits only for what is left of it.

use crate::query::QueryIndex;
use crate::workspace::Workspace;
use anyhow::{Result, anyhow};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// The query index of one workspace: still building, or built (or failed, with the reason).
pub struct BackgroundIndex {
    building: Option<JoinHandle<grail_engine::Result<QueryIndex>>>,
    built: Option<Result<Arc<QueryIndex>, String>>,
}

impl BackgroundIndex {
    /// Starts building `ws`'s index.
    pub fn start(ws: &Arc<Workspace>) -> BackgroundIndex {
        let ws = Arc::clone(ws);
        let building = thread::Builder::new()
            .name("grail-query-index".into())
            .spawn(move || QueryIndex::build_for(ws.dag()))
            .map_err(|e| format!("cannot start the query index's thread: {e}"));
        match building {
            Ok(handle) => BackgroundIndex { building: Some(handle), built: None },
            Err(e) => BackgroundIndex { building: None, built: Some(Err(e)) },
        }
    }

    /// The index, waiting for it if it is still being built.
    pub fn get(&mut self) -> Result<Arc<QueryIndex>> {
        if let Some(handle) = self.building.take() {
            let built = match handle.join() {
                Ok(built) => built.map(Arc::new).map_err(|e| format!("{e:#}")),
                Err(_) => Err("the query index's thread panicked".to_string()),
            };
            self.built = Some(built);
        }
        match self.built.as_ref().expect("built, or being built") {
            Ok(index) => Ok(Arc::clone(index)),
            Err(e) => Err(anyhow!("{e}")),
        }
    }

    /// Whether the index is ready (a query with every rule would not wait).
    pub fn is_ready(&self) -> bool {
        self.building.as_ref().is_none_or(JoinHandle::is_finished)
    }
}
