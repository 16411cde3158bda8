//! What each state looks like, in one table that every renderer (SVG, DOT, the terminal) reads, so
//! the legend cannot drift from the picture. Every state has a colour AND a glyph: with `NO_COLOR`
//! (or printed in black and white) the glyph alone tells the states apart.

use super::overlay::QueueClass;

/// The state a box is drawn in. A box has one: the search's states win over the stepper's, and
/// a component whose cycle is shown is drawn in [`NodeState::Cycle`] whatever else it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeState {
    /// Nothing to say about this vertex.
    Plain,
    /// In the stepper's current frontier, in the queue its scanned degree puts it in.
    Frontier(QueueClass),
    /// The query's source `u`.
    Source,
    /// The query's destination `v`.
    Target,
    /// On the path the search found.
    Path,
    /// Expanded by the search (neither on the path nor shown to be a dead end).
    Expanded,
    /// Expanded, but it cannot reach `v`: a false positive of the labels.
    DeadEnd,
    /// Not entered: the label of this dimension proved it cannot reach `v`.
    Pruned {
        /// The dimension whose interval ruled it out.
        dim: usize,
    },
    /// Not entered: another cut (level, topological order, supportive vertex, Bloom filter) proved
    /// it cannot reach `v`.
    CutOff,
    /// A strongly connected component whose shortest cycle is shown (its box lists the cycle first).
    Cycle,
}

/// The eight named colours every terminal theme adapts (the explorer's palette), plus grey for
/// dimmed edges. Renderers map them to their own colour space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Small queues, expanded vertices, tree edges.
    Blue,
    /// Medium queues and pruned or cut-off vertices.
    Magenta,
    /// Large queues and dead ends.
    Red,
    /// The path found.
    Green,
    /// The source `u`.
    Cyan,
    /// The destination `v`.
    Yellow,
    /// Edges drawn faint.
    Grey,
}

impl Colour {
    /// A light tint for filled SVG/DOT boxes (dark text stays readable on it).
    pub fn fill_hex(self) -> &'static str {
        match self {
            Colour::Blue => "#aac8f0",
            Colour::Magenta => "#e3b3e6",
            Colour::Red => "#f4aaaa",
            Colour::Green => "#a8e0a8",
            Colour::Cyan => "#a6e3ea",
            Colour::Yellow => "#f6e39a",
            Colour::Grey => "#dddddd",
        }
    }

    /// A strong shade for strokes (edges, borders).
    pub fn stroke_hex(self) -> &'static str {
        match self {
            Colour::Blue => "#2f62b5",
            Colour::Magenta => "#9b3aa3",
            Colour::Red => "#c0392b",
            Colour::Green => "#1e8c3a",
            Colour::Cyan => "#13808c",
            Colour::Yellow => "#a07d00",
            Colour::Grey => "#aaaaaa",
        }
    }
}

/// How one state is shown and named in the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateStyle {
    /// One terminal cell wide.
    pub glyph: char,
    /// The colour, or `None` for a box drawn in the default colours.
    pub colour: Option<Colour>,
    /// The legend's words.
    pub name: &'static str,
    /// The legend's words where space is short (the terminal).
    pub short: &'static str,
}

impl NodeState {
    /// Its glyph, colour and legend names.
    pub fn style(self) -> StateStyle {
        let (glyph, colour, name, short) = match self {
            NodeState::Plain => (' ', None, "vertex", "vertex"),
            // The same symbols as the Labels tab's stacked queue bars.
            NodeState::Frontier(QueueClass::Small) => {
                ('█', Some(Colour::Blue), "frontier, small queue (< 32)", "small queue")
            }
            NodeState::Frontier(QueueClass::Medium) => {
                ('▓', Some(Colour::Magenta), "frontier, medium queue (32..256)", "medium queue")
            }
            NodeState::Frontier(QueueClass::Large) => {
                ('░', Some(Colour::Red), "frontier, large queue (> 256)", "large queue")
            }
            NodeState::Source => ('▶', Some(Colour::Cyan), "u, the source", "u"),
            NodeState::Target => ('◎', Some(Colour::Yellow), "v, the destination", "v"),
            NodeState::Path => ('★', Some(Colour::Green), "on the path found", "path"),
            NodeState::Expanded => ('○', Some(Colour::Blue), "expanded by the search", "expanded"),
            NodeState::DeadEnd => ('✗', Some(Colour::Red), "dead end: entered, cannot reach v", "dead end"),
            NodeState::Pruned { .. } => {
                ('⊘', Some(Colour::Magenta), "pruned by a label (dimension shown)", "pruned (dim)")
            }
            NodeState::CutOff => ('⊖', Some(Colour::Magenta), "pruned by another cut (level, order, ...)", "cut"),
            NodeState::Cycle => {
                ('↻', Some(Colour::Green), "a component, its box listing a shortest cycle first", "cycle")
            }
        };
        StateStyle { glyph, colour, name, short }
    }

    /// The short tag after the glyph, where the state carries a number (the cutting dimension).
    pub fn tag(self) -> Option<String> {
        match self {
            NodeState::Pruned { dim } => Some(format!("d{dim}")),
            _ => None,
        }
    }

    /// Legend entries merge every pruning dimension into one line.
    pub fn legend_key(self) -> NodeState {
        match self {
            NodeState::Pruned { .. } => NodeState::Pruned { dim: 0 },
            other => other,
        }
    }
}

/// How an edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// Not a tree edge of the chosen dimension: thin and dim.
    Other,
    /// An edge of the chosen dimension's DFS tree (or a parent the stepper has chosen): bold.
    Tree,
    /// On the path the search found.
    Path,
}

/// How one edge kind looks: strokes for the pictures, a legend name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeStyle {
    /// The stroke colour.
    pub colour: Colour,
    /// SVG stroke width in pixels; the terminal doubles the line of wide edges.
    pub width: f32,
    /// The legend's words.
    pub name: &'static str,
}

impl EdgeKind {
    /// Its colour, width and legend name.
    pub fn style(self) -> EdgeStyle {
        match self {
            EdgeKind::Other => EdgeStyle { colour: Colour::Grey, width: 1.0, name: "other edge" },
            EdgeKind::Tree => EdgeStyle { colour: Colour::Blue, width: 2.5, name: "DFS tree edge" },
            EdgeKind::Path => EdgeStyle { colour: Colour::Green, width: 3.5, name: "path found" },
        }
    }

    /// Drawn wider than a plain edge (and, in the terminal, with a doubled line).
    pub fn is_bold(self) -> bool {
        self != EdgeKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [NodeState; 12] = [
        NodeState::Plain,
        NodeState::Frontier(QueueClass::Small),
        NodeState::Frontier(QueueClass::Medium),
        NodeState::Frontier(QueueClass::Large),
        NodeState::Source,
        NodeState::Target,
        NodeState::Path,
        NodeState::Expanded,
        NodeState::DeadEnd,
        NodeState::Pruned { dim: 1 },
        NodeState::CutOff,
        NodeState::Cycle,
    ];

    #[test]
    fn glyphs_alone_tell_every_state_apart() {
        let mut glyphs: Vec<char> = ALL.iter().map(|s| s.style().glyph).collect();
        glyphs.sort_unstable();
        glyphs.dedup();
        assert_eq!(glyphs.len(), ALL.len(), "two states share a glyph, so NO_COLOR could not tell them apart");
        assert!(ALL.iter().all(|s| s.style().glyph == ' ' || !s.style().glyph.is_ascii()));
    }

    #[test]
    fn every_state_but_plain_has_a_colour() {
        for s in ALL {
            assert_eq!(s.style().colour.is_none(), s == NodeState::Plain, "{s:?}");
        }
    }
}
