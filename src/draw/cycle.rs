//! A strongly connected component's cycle laid over a picture. The picture draws the condensation,
//! so the cycle's edges lie inside the component's one box: the box is drawn in the cycle state and
//! lists the cycle's vertices in cycle order, and a note spells the cycle out.

use super::picture::{MEMBERS_SHOWN, Picture};
use super::style::NodeState;
use crate::format::{plural, thousands};
use crate::graph::VertexNames;

/// Vertices of a cycle its note spells out at most; a longer cycle says how many it leaves out.
pub const CYCLE_SHOWN: usize = 12;

/// Marks `cycle` (dense original ids, the path `s, ..., s`, as `graph::cycles::shortest_cycle`
/// gives it) through DAG vertex `component` on `picture`, and notes it in the file's ids.
pub fn mark_cycle(picture: &mut Picture, component: u32, cycle: &[u32], names: &VertexNames) {
    // The ring: the cycle's vertices once each (the path repeats its start at the end).
    let ring = &cycle[..cycle.len().saturating_sub(1)];
    let Some(i) = picture.node_of(component) else {
        picture.notes.insert(0, "the component's box is not in this drawing".into());
        return;
    };
    let node = &mut picture.nodes[i];
    if ring.is_empty() {
        picture.notes.insert(0, format!("{} lies on no cycle", node.name()));
        return;
    }
    node.state = NodeState::Cycle;
    node.members = ring.iter().take(MEMBERS_SHOWN).map(|&v| names.label(v)).collect();
    let count = node.member_count;
    let mut notes = vec![cycle_note(ring, names)];
    if count > ring.len() {
        notes.push(format!(
            "a shortest cycle through its smallest member: {} of the component's {}",
            ring.len(),
            plural(count as u64, "vertex", "vertices")
        ));
    }
    if ring.len() > MEMBERS_SHOWN {
        notes.push(format!("its box lists the cycle's first {MEMBERS_SHOWN}"));
    }
    picture.notes.splice(0..0, notes);
}

/// `cycle: a → b → c → a`, with at most [`CYCLE_SHOWN`] vertices before the return to `a`.
fn cycle_note(ring: &[u32], names: &VertexNames) -> String {
    let mut steps: Vec<String> = ring.iter().take(CYCLE_SHOWN).map(|&v| names.label(v)).collect();
    if ring.len() > CYCLE_SHOWN {
        steps.push(format!("… ({} more)", thousands((ring.len() - CYCLE_SHOWN) as u64)));
    }
    steps.push(names.label(ring[0]));
    format!("cycle: {}", steps.join(" → "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{ComponentMembers, Sources, Subgraph, build};
    use crate::graph::cycles::shortest_cycle;
    use crate::graph::{Graph, scc::condense};
    use std::sync::Arc;

    /// Cycles {1,2,3} and {6,7}, as in sample-graphs/tiny-cycles.txt.
    fn tiny_cycles() -> Arc<Graph> {
        let edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4), (3, 5), (4, 8), (5, 8), (5, 6), (6, 7), (7, 6), (9, 0)];
        Arc::new(Graph::from_edges(10, &edges).unwrap())
    }

    #[test]
    fn the_components_box_lists_its_cycle_and_a_note_spells_it_out() {
        let graph = tiny_cycles();
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let names = VertexNames::Offset(100);
        let sources = Sources { members: &members, names: &names, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "tiny").unwrap();
        let big = c.component[1];
        let cycle = shortest_cycle(&graph, &c.component, 1);
        assert_eq!(cycle, [1, 2, 3, 1]);
        mark_cycle(&mut picture, big, &cycle, &names);
        let node = &picture.nodes[picture.node_of(big).unwrap()];
        assert_eq!((node.state, node.name()), (NodeState::Cycle, "{101, 102, 103}".to_string()));
        assert_eq!(picture.notes[0], "cycle: 101 → 102 → 103 → 101");
        let marked = picture.nodes.iter().filter(|n| n.state == NodeState::Cycle).count();
        assert_eq!(marked, 1, "only the chosen component is marked");
        assert!(picture.legend().states.contains(&NodeState::Cycle));
    }

    #[test]
    fn long_cycles_and_large_components_say_what_is_left_out() {
        // One cycle 0 -> 1 -> ... -> 19 -> 0, plus 20 <-> 0: a component of 21 vertices.
        let mut edges: Vec<(u32, u32)> = (0..20).map(|v| (v, (v + 1) % 20)).collect();
        edges.extend([(20, 0), (0, 20)]);
        let graph = Arc::new(Graph::from_edges(21, &edges).unwrap());
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let names = VertexNames::Dense;
        let sources = Sources { members: &members, names: &names, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "ring").unwrap();
        // The long way round, to see the note cut it short.
        let ring: Vec<u32> = (0..20).chain([0]).collect();
        mark_cycle(&mut picture, c.component[0], &ring, &names);
        assert_eq!(picture.nodes[0].name(), "{0, 1, 2, 3, +17}");
        assert_eq!(picture.notes[0], "cycle: 0 → 1 → 2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 11 → … (8 more) → 0");
        assert_eq!(picture.notes[1], "a shortest cycle through its smallest member: 20 of the component's 21 vertices");
        assert_eq!(picture.notes[2], "its box lists the cycle's first 4");
    }

    #[test]
    fn a_vertex_on_no_cycle_says_so() {
        let graph = tiny_cycles();
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let sources = Sources { members: &members, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "tiny").unwrap();
        mark_cycle(&mut picture, c.component[9], &[9], &VertexNames::Dense);
        assert_eq!(picture.notes[0], "9 lies on no cycle");
        assert!(picture.nodes.iter().all(|n| n.state != NodeState::Cycle));
    }
}
