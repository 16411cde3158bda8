//! The picture model: placed boxes, routed edges and "+N more" markers, ready for any renderer.

use super::overlay::StepVertex;
use super::style::{EdgeKind, NodeState};
use super::subgraph::Direction;
use crate::index::Interval;

/// Members listed in a box at most (one more where that lists them all: a box never says `+1`); a
/// larger component says how many it holds.
pub const MEMBERS_SHOWN: usize = 4;

/// One box: a DAG vertex, i.e. a strongly connected component of the file's graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureNode {
    /// DAG (component) id.
    pub vertex: u32,
    /// How the first members are shown (their file ids or names, [`crate::graph::VertexNames::label`];
    /// at most [`MEMBERS_SHOWN`], or all of one more), smallest dense id first; a box whose cycle is shown lists the
    /// cycle's vertices first, in cycle order, then the others.
    pub members: Vec<String>,
    /// How many original vertices the component holds.
    pub member_count: usize,
    /// The length of the cycle whose vertices open `members` (0: none shown): all of them are
    /// listed when it is at most `members.len()`, else its first `members.len()`.
    pub cycle: usize,
    /// Row of the layout, 0 at the top.
    pub layer: u32,
    /// Position within its layer, 0 at the left.
    pub column: u32,
    /// `[s, post]` in the chosen dimension, from finished labels.
    pub interval: Option<Interval>,
    /// What the stepper knows so far (when it runs).
    pub step: Option<StepVertex>,
    /// How the box is drawn: what the query, the search or the stepper say about the vertex.
    pub state: NodeState,
}

impl PictureNode {
    /// The id a person reads: the file's id or name, or `{1, 2, 3}` for a component (`{1, 2, 3, 4, +5}`
    /// when it holds more than [`MEMBERS_SHOWN`]). A cycle opens the list as a walk that returns to
    /// its start (the title's `↻`): `{1→2→3, 9}`, or `{1→2→3→4→…, +5}` when only its first vertices
    /// are listed.
    pub fn name(&self) -> String {
        if self.member_count == 1
            && let Some(id) = self.members.first()
        {
            return id.clone();
        }
        let on_cycle = self.cycle.min(self.members.len());
        let mut parts: Vec<String> = Vec::new();
        if on_cycle > 0 {
            let walk = self.members[..on_cycle].join("→");
            parts.push(if self.cycle > on_cycle { format!("{walk}→…") } else { walk });
        }
        parts.extend(self.members[on_cycle..].iter().cloned());
        let more = self.member_count.saturating_sub(self.members.len());
        if more > 0 {
            parts.push(format!("+{more}"));
        }
        format!("{{{}}}", parts.join(", "))
    }

    /// Glyph, name and state tag on one line, e.g. `⊘ 7 d1`.
    pub fn title(&self) -> String {
        let style = self.state.style();
        let mut text = if style.glyph == ' ' { self.name() } else { format!("{} {}", style.glyph, self.name()) };
        if let Some(tag) = self.state.tag() {
            text.push(' ');
            text.push_str(&tag);
        }
        text
    }

    /// The label line: the interval `[s, post]` once known, or what the stepper has so far
    /// (`[·, 5]` with the post number before the min-post, `size 3` before the post number).
    pub fn detail(&self) -> Option<String> {
        if let Some(iv) = self.interval {
            return Some(format!("[{}, {}]", iv.low, iv.post));
        }
        let step = self.step?;
        match (step.low, step.post, step.size) {
            (Some(low), Some(post), _) => Some(format!("[{low}, {post}]")),
            (None, Some(post), _) => Some(format!("[·, {post}]")),
            (_, None, Some(size)) => Some(format!("size {size}")),
            _ => None,
        }
    }
}

/// One edge between two boxes (indices into [`Picture::nodes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureEdge {
    /// The box the edge leaves.
    pub from: usize,
    /// The box the edge enters.
    pub to: usize,
    /// What the edge is to the picture (tree edge, path edge, ...), which sets its style.
    pub kind: EdgeKind,
    /// Drawn faint: an ordinary edge in a picture that emphasises others (tree edges, a path).
    pub dim: bool,
    /// Dummy points `(layer, column)` between the ends, top to bottom.
    pub route: Vec<(u32, u32)>,
}

/// "+N more": edges of a box that the picture leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutMarker {
    /// Index into [`Picture::nodes`].
    pub node: usize,
    /// Whether the hidden edges go to parents or to children.
    pub direction: Direction,
    /// How many edges are left out.
    pub hidden: u64,
}

impl CutMarker {
    /// `+12 more ↑` (parents) or `+12 more ↓` (children).
    pub fn text(&self) -> String {
        let arrow = match self.direction {
            Direction::Parents => '↑',
            Direction::Children => '↓',
        };
        format!("+{} more {arrow}", crate::format::thousands(self.hidden))
    }
}

/// A drawable picture of (part of) the DAG.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picture {
    /// The boxes, each at its place in the grid.
    pub nodes: Vec<PictureNode>,
    /// The edges between boxes, with their routes.
    pub edges: Vec<PictureEdge>,
    /// The "+N more" markers of boxes whose edges are not all drawn.
    pub cuts: Vec<CutMarker>,
    /// Rows of the layout grid.
    pub layers: u32,
    /// Columns of the layout grid.
    pub columns: u32,
    /// The dimension whose intervals and tree are shown.
    pub dim: usize,
    /// Characters of the widest interval a box can show (`[n, n]` for a DAG of `n` vertices) while
    /// labels are being built, else 0: room kept for them, so the layout does not grow as the
    /// stepper fills them in.
    pub label_room: usize,
    /// How many dimensions the labels have, when there are labels.
    pub dims: Option<usize>,
    /// The dimension whose labels the picture draws, finished or as far as a labeling run has
    /// them; `None` where it draws none. The title, the legend and every message name this one.
    pub labeled_dim: Option<usize>,
    /// The heading: what the picture shows.
    pub title: String,
    /// Lines under the title: what the overlays show, what was left out and why.
    pub notes: Vec<String>,
}

/// What the legend lists: only what the picture shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Legend {
    /// The box states drawn, other than plain, in their sort order.
    pub states: Vec<NodeState>,
    /// The edge kinds drawn, in their sort order.
    pub edges: Vec<EdgeKind>,
    /// Some box stands for a component of several vertices.
    pub components: bool,
    /// Some box has a "+N more" marker.
    pub cuts: bool,
}

impl Picture {
    /// Characters of the widest interval of a DAG of `n` vertices, `[n, n]`.
    pub fn interval_room(n: usize) -> usize {
        format!("[{n}, {n}]").len()
    }

    /// The box of DAG vertex `vertex`, if drawn.
    pub fn node_of(&self, vertex: u32) -> Option<usize> {
        self.nodes.iter().position(|n| n.vertex == vertex)
    }

    /// The legend of this picture: the states, edge kinds and markers it shows.
    pub fn legend(&self) -> Legend {
        let mut states: Vec<NodeState> =
            self.nodes.iter().map(|n| n.state.legend_key()).filter(|&s| s != NodeState::Plain).collect();
        states.sort_unstable();
        states.dedup();
        let mut edges: Vec<EdgeKind> = self.edges.iter().map(|e| e.kind).collect();
        edges.sort_unstable();
        edges.dedup();
        Legend { states, edges, components: self.nodes.iter().any(|n| n.member_count > 1), cuts: !self.cuts.is_empty() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(members: Vec<u64>, member_count: usize) -> PictureNode {
        PictureNode {
            vertex: 0,
            members: members.iter().map(u64::to_string).collect(),
            member_count,
            cycle: 0,
            layer: 0,
            column: 0,
            interval: None,
            step: None,
            state: NodeState::Plain,
        }
    }

    #[test]
    fn names_and_details() {
        assert_eq!(node(vec![7], 1).name(), "7");
        assert_eq!(node(vec![1, 2, 3], 3).name(), "{1, 2, 3}");
        assert_eq!(node(vec![1, 2, 3, 4], 9).name(), "{1, 2, 3, 4, +5}");
        let cycle = |members, count, cycle| PictureNode { cycle, ..node(members, count) };
        assert_eq!(cycle(vec![1, 2, 3], 3, 3).name(), "{1→2→3}");
        assert_eq!(cycle(vec![3, 1, 7, 9], 9, 2).name(), "{3→1, 7, 9, +5}");
        assert_eq!(cycle(vec![0, 1, 2, 3], 21, 20).name(), "{0→1→2→3→…, +17}");
        let mut n = node(vec![7], 1);
        n.state = NodeState::Pruned { dim: 1 };
        assert_eq!(n.title(), "⊘ 7 d1");
        assert_eq!(n.detail(), None);
        n.step = Some(StepVertex { size: Some(3), ..StepVertex::default() });
        assert_eq!(n.detail().as_deref(), Some("size 3"));
        n.step = Some(StepVertex { size: Some(3), post: Some(5), ..StepVertex::default() });
        assert_eq!(n.detail().as_deref(), Some("[·, 5]"));
        n.interval = Some(Interval { low: 1, post: 5 });
        assert_eq!(n.detail().as_deref(), Some("[1, 5]"));
    }
}
