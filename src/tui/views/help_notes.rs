//! What a tab's charts and lines mean, for the `?` help under that tab's keys: what the keys
//! cannot say.

use crate::tui::action::Tab;

/// The notes of `tab`, one paragraph each (empty for a tab whose screen explains itself).
pub fn notes(tab: Tab) -> &'static [&'static str] {
    match tab {
        Tab::Labels => &[
            "Frontier chart: one column per level of the phase shown, its height the vertices the level \
             works on, split by the degree the phase scans (small, medium, large queues). Level 0 is where \
             the phase starts: the roots for parent selection and post-order (top down), the deepest level \
             for subtree sizes and min-post (leaves up); the title says which (roots first, leaves first).",
            "On a graph small enough for the Picture tab to show its levels, every level is measured on \
             its own. On larger ones tiny levels run together and are measured as one group: the chart \
             then splits the group's total evenly over its levels (7 vertices over 5 levels: 2, 2, 1, 1, \
             1), and says how many bars it drew so.",
            "Any non-empty queue fills at least the bottom cell of its column, so the bottom row is \
             labelled 1; the top row is the tallest column shown.",
        ],
        Tab::Query => &[
            "path: a path from u to v that the answer found (any one: not necessarily the fewest edges, \
             nor the lightest); with a weighted file it reads \"a path (any one, not by weight):\".",
            "weighted distance: with a file that gives edge weights, the total weight of a shortest path \
             by weight from u to v (Dijkstra) and that path; \"no weighted distance\" when v is not \
             reachable from u, or when the weights cannot be read (and why).",
        ],
        _ => &[],
    }
}
