//! The Query tab: the pair typed, the result, and the search tree's folding and selection.

use super::prompt::{Prompt, PromptKind};
use super::{Effect, step};
use crate::graph::io::split_fields;
use crate::query::{NodeKind, Rule, RuleSet, TraceNode, TraceTree};
use crate::tui::action::Action;
use crate::tui::worker::{Job, LabelConfig, QueryResult};
use crate::workspace::Workspace;
use std::collections::HashSet;

#[derive(Default)]
pub struct QueryState {
    /// The last line typed.
    pub input: String,
    pub result: Option<Box<QueryResult>>,
    /// The result's search as trees (forward from u, backward from v), each child under the vertex
    /// that met it.
    pub tree: TraceTree,
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

/// One line of the search tree, indented `depth` levels (within its side's tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeRow {
    /// A node of the trace (index into its nodes).
    Node { node: usize, depth: usize },
    /// `count` consecutive children of node `parent`, from its `from`-th child on, all pruned (by a
    /// label or another cut): one line until unfolded. Keyed by its first node, `first`.
    Pruned { parent: usize, from: usize, count: usize, first: usize, depth: usize, open: bool },
    /// A node of an unfolded group of pruned children, under the group's line.
    Member { node: usize, depth: usize },
}

/// What a group of pruned children holds, counted from the children it folds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupCounts {
    /// Children pruned by label, and the dimensions that cut them (ascending, each once).
    pub by_label: usize,
    pub dims: Vec<usize>,
    /// Children refused by each other cut, in the order the cuts first appear.
    pub by_cut: Vec<(Rule, usize)>,
}

impl GroupCounts {
    pub fn of(nodes: &[TraceNode], members: &[usize]) -> GroupCounts {
        let mut counts = GroupCounts::default();
        for &m in members {
            match nodes[m].kind {
                NodeKind::Pruned { dim } => {
                    counts.by_label += 1;
                    if let Err(at) = counts.dims.binary_search(&dim) {
                        counts.dims.insert(at, dim);
                    }
                }
                NodeKind::Cut { rule } => match counts.by_cut.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, n)) => *n += 1,
                    None => counts.by_cut.push((rule, 1)),
                },
                _ => {}
            }
        }
        counts
    }
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
                let nodes = self.nodes();
                self.open_groups = (self.tree.children.iter().enumerate())
                    .flat_map(|(parent, c)| sibling_rows(nodes, parent, c, 0, &HashSet::new()))
                    .filter_map(|row| match row {
                        TreeRow::Pruned { first, .. } => Some(first),
                        _ => None,
                    })
                    .collect();
            }
            Action::CollapseAll => {
                self.folded = (0..self.nodes().len()).filter(|&i| self.has_children(i)).collect();
                for root in &self.tree.roots {
                    self.folded.remove(root);
                }
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
            Some(TreeRow::Node { node, .. }) if self.has_children(node) => {
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
            Some(TreeRow::Member { .. }) if fold != Some(false) => {
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

    /// The lines shown: each side's tree in pre-order (forward, then backward), skipping the
    /// insides of folded nodes, with runs of pruned siblings as one line each (followed by their
    /// nodes when unfolded). Iterative: a depth-first search's tree can be as deep as the graph.
    pub fn visible(&self) -> Vec<TreeRow> {
        let nodes = self.nodes();
        let children = &self.tree.children;
        let mut out = Vec::new();
        let mut stack: Vec<TreeRow> =
            self.tree.roots.iter().rev().map(|&node| TreeRow::Node { node, depth: 0 }).collect();
        while let Some(row) = stack.pop() {
            out.push(row);
            match row {
                TreeRow::Node { node, depth } if !self.folded.contains(&node) => {
                    let below = sibling_rows(nodes, node, &children[node], depth + 1, &self.open_groups);
                    stack.extend(below.into_iter().rev());
                }
                TreeRow::Pruned { parent, from, count, depth, open: true, .. } => {
                    let members = &children[parent][from..from + count];
                    stack.extend(members.iter().rev().map(|&node| TreeRow::Member { node, depth }));
                }
                _ => {}
            }
        }
        out
    }

    /// The nodes a group's line folds.
    pub fn members(&self, row: TreeRow) -> &[usize] {
        match row {
            TreeRow::Pruned { parent, from, count, .. } => &self.tree.children[parent][from..from + count],
            _ => &[],
        }
    }

    /// Whether node `i` has children in the tree.
    pub fn has_children(&self, i: usize) -> bool {
        self.tree.children.get(i).is_some_and(|c| !c.is_empty())
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
        self.tree = result.trace.tree();
        self.result = Some(result);
    }
}

/// How to type a name that holds a separator, added to a named graph's prompt errors.
const QUOTE_HINT: &str = " (a name holding a space or a comma is typed in quotes: \"Turing, Alan\" bob)";

/// The rows for `parent`'s `children` at `depth`: one per child, but a run of at least
/// [`GROUP_FROM`] pruned children (leaves, refused by a label or another cut) is one group's line.
fn sibling_rows(
    nodes: &[TraceNode],
    parent: usize,
    children: &[usize],
    depth: usize,
    open_groups: &HashSet<usize>,
) -> Vec<TreeRow> {
    let pruned = |&i: &usize| matches!(nodes[i].kind, NodeKind::Pruned { .. } | NodeKind::Cut { .. });
    let mut rows = Vec::new();
    let mut from = 0;
    while from < children.len() {
        let count = children[from..].iter().take_while(|i| pruned(i)).count();
        if count >= GROUP_FROM {
            let first = children[from];
            let open = open_groups.contains(&first);
            rows.push(TreeRow::Pruned { parent, from, count, first, depth, open });
            from += count;
        } else {
            rows.push(TreeRow::Node { node: children[from], depth });
            from += 1;
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Answer, Check, Decision, Method, Rule, RuleSet, Trace};

    fn node(parent: Option<usize>, kind: NodeKind) -> TraceNode {
        let depth = parent.map_or(0, |_| 1);
        TraceNode { vertex: 0, parent, depth, kind, expanded: false, dead_end: false, on_path: false, backward: false }
    }

    /// A start with 3 children pruned in dimension 0, one entered child (with 1 pruned child of its
    /// own), then 2 more pruned in dimension 0 and 1 in dimension 2, recorded in a breadth-first
    /// search's order: the entered child's own child comes after all of the start's.
    fn state() -> QueryState {
        let pruned = |parent, dim| node(Some(parent), NodeKind::Pruned { dim });
        let nodes = vec![
            node(None, NodeKind::Start),
            pruned(0, 0),
            pruned(0, 0),
            pruned(0, 0),
            node(Some(0), NodeKind::Entered),
            pruned(0, 0),
            pruned(0, 0),
            pruned(0, 2),
            pruned(4, 0),
        ];
        state_of(nodes)
    }

    fn state_of(nodes: Vec<TraceNode>) -> QueryState {
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
        let rows = state.visible();
        assert_eq!(
            rows,
            vec![
                TreeRow::Node { node: 0, depth: 0 },
                TreeRow::Pruned { parent: 0, from: 0, count: 3, first: 1, depth: 1, open: false },
                TreeRow::Node { node: 4, depth: 1 },
                TreeRow::Node { node: 8, depth: 2 },
                TreeRow::Pruned { parent: 0, from: 4, count: 3, first: 5, depth: 1, open: false },
            ]
        );
        assert_eq!(state.members(rows[4]), [5, 6, 7]);
        let counts = GroupCounts::of(&state.result.as_ref().unwrap().trace.nodes, state.members(rows[4]));
        assert_eq!(counts, GroupCounts { by_label: 3, dims: vec![0, 2], by_cut: vec![] });
    }

    #[test]
    fn a_group_header_counts_the_children_it_folds() {
        // One child pruned by label in dimension 2 and five by level: six in the group, one by label.
        let mut nodes = vec![node(None, NodeKind::Start), node(Some(0), NodeKind::Pruned { dim: 2 })];
        nodes.extend((0..5).map(|_| node(Some(0), NodeKind::Cut { rule: Rule::LevelCut })));
        nodes.push(node(Some(0), NodeKind::Cut { rule: Rule::TopoCut }));
        let state = state_of(nodes);
        let rows = state.visible();
        assert_eq!(rows.len(), 2);
        let counts = GroupCounts::of(&state.result.as_ref().unwrap().trace.nodes, state.members(rows[1]));
        let want = GroupCounts { by_label: 1, dims: vec![2], by_cut: vec![(Rule::LevelCut, 5), (Rule::TopoCut, 1)] };
        assert_eq!(counts, want);
    }

    #[test]
    fn both_sides_are_trees_of_their_own() {
        // Forward: 0 starts, 1 under it; backward: 2 starts, 3 under it, 4 under 3. Recorded
        // interleaved, as the bidirectional search alternates.
        let mut nodes = vec![
            node(None, NodeKind::Start),
            node(Some(0), NodeKind::Entered),
            node(None, NodeKind::Start),
            node(Some(2), NodeKind::Entered),
            node(Some(3), NodeKind::Entered),
        ];
        for n in &mut nodes[2..] {
            n.backward = true;
        }
        let state = state_of(nodes);
        let shape: Vec<(usize, usize)> = (state.visible().iter())
            .map(|r| match *r {
                TreeRow::Node { node, depth } => (node, depth),
                other => panic!("no group here: {other:?}"),
            })
            .collect();
        assert_eq!(shape, [(0, 0), (1, 1), (2, 0), (3, 1), (4, 2)]);
    }

    #[test]
    fn a_group_unfolds_and_folds_again_from_inside() {
        let mut state = state();
        state.handle(Action::Down);
        state.handle(Action::ToggleNode);
        let rows = state.visible();
        assert_eq!(rows[1], TreeRow::Pruned { parent: 0, from: 0, count: 3, first: 1, depth: 1, open: true });
        let member = |node| TreeRow::Member { node, depth: 1 };
        assert_eq!(&rows[2..5], &[member(1), member(2), member(3)]);
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
                TreeRow::Node { node: 0, depth: 0 },
                TreeRow::Pruned { parent: 0, from: 0, count: 3, first: 1, depth: 1, open: false },
                TreeRow::Node { node: 4, depth: 1 },
                TreeRow::Pruned { parent: 0, from: 4, count: 3, first: 5, depth: 1, open: false },
            ]
        );
    }
}
