//! The Query tab: the pair typed, the result, and the search tree's folding and selection.

use super::prompt::{Prompt, PromptKind};
use super::{Effect, step};
use crate::graph::io::split_fields;
use crate::query::{NodeKind, RuleSet, TraceNode};
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
    /// Unfolded groups of pruned children, by their first node (groups start folded).
    pub open_groups: HashSet<usize>,
    /// Selected row among the visible ones.
    pub selected: usize,
    /// The rules the next query runs with (`R` switches between every rule and GRAIL's).
    pub rules: RuleSet,
    /// The labels the result was answered with are gone: it is answered again when new ones are
    /// ready, and says so meanwhile.
    pub labels_changed: bool,
    /// The pair of the last query the user asked (shown or still on its way): an answer of any
    /// other pair than this one or the one shown is an old one and is dropped.
    pub asked: Option<(u32, u32)>,
    /// The pair on screen, asked again with labels that came after its answer.
    pub asking_again: Option<(u32, u32)>,
    /// The result shown is such an answer asked again (the panel says so).
    pub asked_again: bool,
}

/// From this many on, consecutive pruned children of one vertex are one line until unfolded.
pub const GROUP_FROM: usize = 2;

/// One line of the search tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeRow {
    /// A node of the trace (index into its nodes).
    Node(usize),
    /// `count` consecutive siblings from node `first` on, all pruned (by a label or another cut);
    /// bit `d` of `dims` is set when one was pruned by label in dimension `d` (63 stands for 63
    /// and above).
    Pruned { first: usize, count: usize, dims: u64, open: bool },
    /// A node of an unfolded group of pruned children, under the group's line.
    Member(usize),
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
            Action::ExpandAll => {
                self.folded.clear();
                self.open_groups = pruned_runs(self.nodes()).collect();
            }
            Action::CollapseAll => {
                let nodes = self.nodes();
                self.folded = (0..nodes.len()).filter(|&i| has_children(nodes, i)).collect();
                self.folded.remove(&0);
                self.open_groups.clear();
                self.selected = 0;
            }
            _ => {}
        }
        None
    }

    fn nodes(&self) -> &[TraceNode] {
        self.result.as_ref().map_or(&[], |r| &r.trace.nodes)
    }

    /// Folds (`Some(true)`), unfolds (`Some(false)`) or toggles the selected node or group.
    fn toggle(&mut self, fold: Option<bool>) {
        let visible = self.visible();
        match visible.get(self.selected).copied() {
            Some(TreeRow::Node(node)) if has_children(self.nodes(), node) => {
                if fold.unwrap_or(!self.folded.contains(&node)) {
                    self.folded.insert(node);
                } else {
                    self.folded.remove(&node);
                }
            }
            Some(TreeRow::Pruned { first, open, .. }) => {
                if fold.unwrap_or(open) {
                    self.open_groups.remove(&first);
                } else {
                    self.open_groups.insert(first);
                }
            }
            // Folding inside a group folds the group, and the cursor moves to its line.
            Some(TreeRow::Member(_)) if fold != Some(false) => {
                let group = visible[..self.selected].iter().rposition(|r| matches!(r, TreeRow::Pruned { .. }));
                if let Some((row, TreeRow::Pruned { first, .. })) = group.map(|row| (row, visible[row])) {
                    self.open_groups.remove(&first);
                    self.selected = row;
                }
            }
            _ => {}
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

    /// The lines shown: nodes, skipping the insides of folded nodes, with runs of pruned siblings
    /// as one line each (followed by their nodes when unfolded).
    pub fn visible(&self) -> Vec<TreeRow> {
        let nodes = self.nodes();
        let mut out = Vec::new();
        let mut hide_below: Option<u32> = None;
        let mut i = 0;
        while i < nodes.len() {
            let n = &nodes[i];
            if let Some(d) = hide_below {
                if n.depth > d {
                    i += 1;
                    continue;
                }
                hide_below = None;
            }
            if let NodeKind::Pruned { .. } | NodeKind::Cut { .. } = n.kind {
                let count = pruned_run(nodes, i);
                if count >= GROUP_FROM {
                    let open = self.open_groups.contains(&i);
                    let dims = nodes[i..i + count].iter().fold(0u64, |mask, n| match n.kind {
                        NodeKind::Pruned { dim } => mask | 1 << dim.min(63),
                        _ => mask,
                    });
                    out.push(TreeRow::Pruned { first: i, count, dims, open });
                    if open {
                        out.extend((i..i + count).map(TreeRow::Member));
                    }
                    i += count;
                    continue;
                }
            }
            out.push(TreeRow::Node(i));
            if self.folded.contains(&i) {
                hide_below = Some(n.depth);
            }
            i += 1;
        }
        out
    }

    /// Parses `u v` (file ids, or names in a named graph; separated by spaces or a comma, quoted
    /// where a name holds one) against the graph.
    pub fn submit(&mut self, text: &str, ws: &Workspace, config: LabelConfig) -> Effect {
        self.input = text.trim().to_string();
        if self.input.matches('"').count() % 2 == 1 {
            let error = "a quote is not closed: a name holding a space or a comma is typed as \"Turing, Alan\"";
            return Effect::Error(self.with_shown(error.into(), ws));
        }
        let parts = split_fields(&self.input);
        let named = ws.loaded.names.table().is_some();
        // A name holding a space or a comma splits the line unless it is quoted, as it is shown.
        let quote_hint = if named { QUOTE_HINT } else { "" };
        let [a, b] = parts.as_slice() else {
            let example = match named {
                true => format!("type two vertex names, like: alice bob{quote_hint}"),
                false => "type two vertex ids, like: 2 1".to_string(),
            };
            return Effect::Error(self.with_shown(example, ws));
        };
        let parse = |s: &str| -> Result<u32, String> {
            if !named && s.parse::<u64>().is_err() {
                return Err(format!("'{s}' is not a vertex id (a whole number)"));
            }
            ws.vertex(s).map_err(|e| format!("{e:#}{quote_hint}"))
        };
        match (parse(a), parse(b)) {
            (Ok(u), Ok(v)) => Effect::Job(Job::Query { u, v, config, rules: self.rules }),
            (Err(e), _) | (_, Err(e)) => Effect::Error(self.with_shown(e, ws)),
        }
    }

    /// An error about a query that was not asked, saying which query the panel still answers.
    fn with_shown(&self, error: String, ws: &Workspace) -> String {
        match &self.result {
            Some(r) => {
                let names = &ws.loaded.names;
                format!("{error} (the answer shown is still {} → {}'s)", names.label(r.u), names.label(r.v))
            }
            None => error,
        }
    }

    /// Whether the shown result was answered without the labels there are now (none then, or
    /// others since): it is answered again with them when they are ready.
    pub fn wants_labels(&self) -> Option<(u32, u32)> {
        let r = self.result.as_ref()?;
        (self.labels_changed || !r.labels_ready).then_some((r.u, r.v))
    }

    /// Whether an answer of `u → v` is still wanted: the pair last asked, or the one on screen
    /// answered again. An answer of a pair asked before another one is not shown over it.
    pub fn wanted(&self, u: u32, v: u32) -> bool {
        self.asked == Some((u, v)) || self.result.as_ref().is_some_and(|r| (r.u, r.v) == (u, v))
    }

    pub fn set_result(&mut self, result: Box<QueryResult>) {
        self.asked_again = self.asking_again.take() == Some((result.u, result.v));
        self.labels_changed = false;
        self.folded.clear();
        self.open_groups.clear();
        self.selected = 0;
        self.result = Some(result);
    }
}

/// How to type a name that holds a separator, added to a named graph's prompt errors.
const QUOTE_HINT: &str = " (a name holding a space or a comma is typed in quotes: \"Turing, Alan\" bob)";

/// Whether node `i` has children in the pre-order list.
pub fn has_children(nodes: &[TraceNode], i: usize) -> bool {
    nodes.get(i + 1).is_some_and(|next| next.depth > nodes[i].depth)
}

/// How many nodes from `i` on are pruned siblings (0 if `i` is not pruned). Pruned nodes are
/// leaves, so siblings pruned one after the other sit next to each other.
fn pruned_run(nodes: &[TraceNode], i: usize) -> usize {
    let depth = nodes[i].depth;
    nodes[i..]
        .iter()
        .take_while(|n| n.depth == depth && matches!(n.kind, NodeKind::Pruned { .. } | NodeKind::Cut { .. }))
        .count()
}

/// The first node of every run of at least [`GROUP_FROM`] pruned siblings.
fn pruned_runs(nodes: &[TraceNode]) -> impl Iterator<Item = usize> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < nodes.len() {
            let (start, count) = (i, pruned_run(nodes, i));
            i += count.max(1);
            if count >= GROUP_FROM {
                return Some(start);
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Answer, Check, Decision, Method, Rule, RuleSet, Trace};

    fn node(depth: u32, kind: NodeKind) -> TraceNode {
        TraceNode { vertex: 0, depth, kind, expanded: false, dead_end: false, on_path: false, backward: false }
    }

    /// A start with 3 children pruned in dimension 0, one entered child (with 1 pruned child of its
    /// own), then 2 more pruned in dimension 0 and 1 in dimension 2.
    fn state() -> QueryState {
        let pruned = |depth, dim| node(depth, NodeKind::Pruned { dim });
        let nodes = vec![
            node(0, NodeKind::Start),
            pruned(1, 0),
            pruned(1, 0),
            pruned(1, 0),
            node(1, NodeKind::Entered),
            pruned(2, 0),
            pruned(1, 0),
            pruned(1, 0),
            pruned(1, 2),
        ];
        let result = QueryResult {
            u: 0,
            v: 1,
            cu: 0,
            cv: 1,
            answer: Answer::decided(Rule::Search, false, None),
            vertex_path: None,
            trace: Trace { method: Method::GuidedDfs, nodes, truncated: false },
            intervals_u: Vec::new(),
            intervals_v: Vec::new(),
            labels_ready: true,
            level_u: 0,
            level_v: 1,
            topo: None,
            dag_vertices: 2,
            decision: Decision {
                rules: RuleSet::Grail,
                method: Method::GuidedDfs,
                ends: (0, 1),
                checks: vec![Check::Component { u: 0, v: 1 }],
            },
            weighted: None,
        };
        let mut state = QueryState::default();
        state.set_result(Box::new(result));
        state
    }

    #[test]
    fn runs_of_pruned_siblings_are_one_folded_line() {
        let state = state();
        assert_eq!(
            state.visible(),
            vec![
                TreeRow::Node(0),
                TreeRow::Pruned { first: 1, count: 3, dims: 0b1, open: false },
                TreeRow::Node(4),
                TreeRow::Node(5),
                TreeRow::Pruned { first: 6, count: 3, dims: 0b101, open: false },
            ]
        );
    }

    #[test]
    fn a_group_unfolds_and_folds_again_from_inside() {
        let mut state = state();
        state.handle(Action::Down);
        state.handle(Action::ToggleNode);
        let rows = state.visible();
        assert_eq!(rows[1], TreeRow::Pruned { first: 1, count: 3, dims: 0b1, open: true });
        assert_eq!(&rows[2..5], &[TreeRow::Member(1), TreeRow::Member(2), TreeRow::Member(3)]);
        // h on a member folds its group and puts the cursor on the group's line.
        state.handle(Action::Down);
        state.handle(Action::Down);
        state.handle(Action::Left);
        assert_eq!(state.selected, 1);
        assert_eq!(state.visible().len(), 5);
        // e unfolds everything, E folds everything again.
        state.handle(Action::ExpandAll);
        assert_eq!(state.visible().len(), 5 + 3 + 3);
        state.handle(Action::CollapseAll);
        assert_eq!(
            state.visible(),
            vec![
                TreeRow::Node(0),
                TreeRow::Pruned { first: 1, count: 3, dims: 0b1, open: false },
                TreeRow::Node(4),
                TreeRow::Pruned { first: 6, count: 3, dims: 0b101, open: false },
            ]
        );
    }
}
