//! The Query tab: the pair typed, the result, and the search tree's folding and selection.

use super::prompt::{Prompt, PromptKind};
use super::{Effect, step};
use crate::query::TraceNode;
use crate::tui::action::Action;
use crate::tui::worker::{Job, LabelConfig, QueryResult};
use crate::workspace::Workspace;
use std::collections::HashSet;

#[derive(Default)]
pub struct QueryState {
    /// The last line typed.
    pub input: String,
    pub result: Option<Box<QueryResult>>,
    /// Folded tree nodes (indices into the trace's nodes).
    pub folded: HashSet<usize>,
    /// Selected row among the visible ones.
    pub selected: usize,
}

impl QueryState {
    pub fn handle(&mut self, action: Action) -> Option<Effect> {
        let visible = self.visible().len();
        match action {
            Action::EditQuery => {
                return Some(Effect::Prompt(Prompt::new(
                    PromptKind::Query,
                    "query: u v (file ids)",
                    self.input.clone(),
                )));
            }
            Action::Up => self.selected = step(self.selected, -1, visible),
            Action::Down => self.selected = step(self.selected, 1, visible),
            Action::PageUp => self.selected = step(self.selected, -10, visible),
            Action::PageDown => self.selected = step(self.selected, 10, visible),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = visible.saturating_sub(1),
            Action::ToggleNode | Action::Enter => self.toggle(None),
            Action::Left => self.toggle(Some(true)),
            Action::Right => self.toggle(Some(false)),
            Action::ExpandAll => self.folded.clear(),
            Action::CollapseAll => {
                let nodes = self.nodes();
                self.folded = (0..nodes.len()).filter(|&i| has_children(nodes, i)).collect();
                self.folded.remove(&0);
                self.selected = 0;
            }
            _ => {}
        }
        None
    }

    fn nodes(&self) -> &[TraceNode] {
        self.result.as_ref().map_or(&[], |r| &r.trace.nodes)
    }

    /// Folds (`Some(true)`), unfolds (`Some(false)`) or toggles the selected node.
    fn toggle(&mut self, fold: Option<bool>) {
        let Some(&node) = self.visible().get(self.selected) else { return };
        if !has_children(self.nodes(), node) {
            return;
        }
        let fold = fold.unwrap_or(!self.folded.contains(&node));
        if fold {
            self.folded.insert(node);
        } else {
            self.folded.remove(&node);
        }
    }

    /// Selects a visible row (mouse) and toggles it when clicked again.
    pub fn click(&mut self, row: usize) {
        if self.selected == row {
            self.toggle(None);
        } else if row < self.visible().len() {
            self.selected = row;
        }
    }

    /// The node indices shown, skipping the insides of folded nodes.
    pub fn visible(&self) -> Vec<usize> {
        let nodes = self.nodes();
        let mut out = Vec::new();
        let mut hide_below: Option<u32> = None;
        for (i, n) in nodes.iter().enumerate() {
            if let Some(d) = hide_below {
                if n.depth > d {
                    continue;
                }
                hide_below = None;
            }
            out.push(i);
            if self.folded.contains(&i) {
                hide_below = Some(n.depth);
            }
        }
        out
    }

    /// Parses `u v` (file ids) against the graph.
    pub fn submit(&mut self, text: &str, ws: &Workspace, config: LabelConfig) -> Effect {
        self.input = text.trim().to_string();
        let parts: Vec<&str> =
            self.input.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect();
        let [a, b] = parts.as_slice() else {
            return Effect::Error("type two vertex ids, like: 2 1".into());
        };
        let parse = |s: &str| -> Result<u32, String> {
            let id: u64 = s.parse().map_err(|_| format!("'{s}' is not a vertex id (a whole number)"))?;
            ws.resolve(id).map_err(|e| format!("{e:#}"))
        };
        match (parse(a), parse(b)) {
            (Ok(u), Ok(v)) => Effect::Job(Job::Query { u, v, config }),
            (Err(e), _) | (_, Err(e)) => Effect::Error(e),
        }
    }

    pub fn set_result(&mut self, result: Box<QueryResult>) {
        self.folded.clear();
        self.selected = 0;
        self.result = Some(result);
    }
}

/// Whether node `i` has children in the pre-order list.
pub fn has_children(nodes: &[TraceNode], i: usize) -> bool {
    nodes.get(i + 1).is_some_and(|next| next.depth > nodes[i].depth)
}
