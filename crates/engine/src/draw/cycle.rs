//! A strongly connected component's cycle laid over a picture. The picture draws the condensation,
//! so the cycle's edges lie inside the component's one box: the box is drawn in the cycle state and
//! lists the component's members, the cycle's first in cycle order, and a note spells the cycle out.

use super::members::ComponentMembers;
use super::picture::{MEMBERS_SHOWN, Picture};
use super::style::NodeState;
use crate::format::{plural, thousands};
use crate::graph::VertexNames;
use std::collections::HashSet;

/// Vertices of a cycle its note spells out at most (one more where that completes it); a longer
/// cycle says how many it leaves out.
pub const CYCLE_SHOWN: usize = 12;

/// Marks `cycle` (dense original ids, the path `s, ..., s`, as `graph::cycles::shortest_cycle`
/// gives it) through DAG vertex `component` on `picture`, and notes it in the file's ids. The box
/// lists the component's members (`members`), the cycle's first.
pub fn mark_cycle(
    picture: &mut Picture,
    component: u32,
    (cycle, shortest): (&[u32], bool),
    members: &ComponentMembers,
    names: &VertexNames,
) {
    // The ring: the cycle's vertices once each (the path repeats its start at the end), from the
    // one `grail scc` lists first.
    let cycle = crate::graph::cycles::from_first_listed(cycle, names);
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
    let count = node.member_count;
    let listed = box_members(ring, members, component, crate::format::listed(count, MEMBERS_SHOWN));
    node.state = NodeState::Cycle;
    node.members = listed.iter().map(|&v| names.label(v)).collect();
    node.cycle = ring.len();
    let mut notes = vec![cycle_note(ring, names)];
    if count > ring.len() {
        let which = match shortest {
            true => "a shortest cycle of the component",
            false => "the shortest cycle found through its first members (the component is too large to search whole)",
        };
        notes.push(format!("{which}: {} of its {}", ring.len(), plural(count as u64, "vertex", "vertices")));
    }
    let unlisted = count - listed.len();
    if ring.len() > listed.len() {
        notes.push(format!(
            "its box lists the cycle's first {} (→…); +{} not listed",
            listed.len(),
            thousands(unlisted as u64)
        ));
    } else if count > ring.len() {
        let others = listed.len() - ring.len();
        let rest = if unlisted > 0 { format!("; +{} not listed", thousands(unlisted as u64)) } else { String::new() };
        notes.push(format!(
            "its box lists the cycle, then {}{rest}",
            plural(others as u64, "other member", "other members")
        ));
    }
    picture.notes.splice(0..0, notes);
}

/// What a cycle's box lists, at most `limit` vertices: the ring's first, in cycle order, then the
/// component's other members, smallest first.
pub fn box_members(ring: &[u32], members: &ComponentMembers, component: u32, limit: usize) -> Vec<u32> {
    let mut listed: Vec<u32> = ring.iter().copied().take(limit).collect();
    let room = limit - listed.len();
    if room > 0 {
        // Among the `room + ring` smallest members at most `ring` lie on it: the rest fill the room.
        let on_ring: HashSet<u32> = ring.iter().copied().collect();
        let smallest = members.first(component, room + ring.len());
        listed.extend(smallest.into_iter().filter(|v| !on_ring.contains(v)).take(room));
    }
    listed
}

/// `cycle: a → b → c → a`, with at most [`CYCLE_SHOWN`] vertices before the return to `a`.
fn cycle_note(ring: &[u32], names: &VertexNames) -> String {
    let shown = crate::format::listed(ring.len(), CYCLE_SHOWN);
    let mut steps: Vec<String> = ring.iter().take(shown).map(|&v| names.label(v)).collect();
    if ring.len() > shown {
        steps.push(format!("… ({} more)", thousands((ring.len() - shown) as u64)));
    }
    steps.push(names.label(ring[0]));
    format!("cycle: {}", steps.join(" → "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{ComponentMembers, Sources, Subgraph, build};
    use crate::graph::cycles::shortest_cycle_of;
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
        let (cycle, shortest) = shortest_cycle_of(&graph, &c.component, &members.first(big, usize::MAX), u64::MAX);
        assert_eq!((cycle.as_slice(), shortest), ([1, 2, 3, 1].as_slice(), true));
        mark_cycle(&mut picture, big, (&cycle, shortest), &members, &names);
        let node = &picture.nodes[picture.node_of(big).unwrap()];
        assert_eq!((node.state, node.name()), (NodeState::Cycle, "{101→102→103}".to_string()));
        assert_eq!(picture.notes[0], "cycle: 101 → 102 → 103 → 101");
        assert!(!picture.notes.iter().any(|n| n.starts_with("its box")), "the box lists all: {:?}", picture.notes);
        let marked = picture.nodes.iter().filter(|n| n.state == NodeState::Cycle).count();
        assert_eq!(marked, 1, "only the chosen component is marked");
        assert!(picture.legend().states.contains(&NodeState::Cycle));
    }

    #[test]
    fn one_name_left_is_listed_never_counted() {
        // Cycles of one more vertex than a box lists (4) and a note spells out (12).
        for n in [5u32, 13] {
            let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
            let graph = Arc::new(Graph::from_edges(n as usize, &edges).unwrap());
            let c = condense(&graph);
            let members = ComponentMembers::new(&c);
            let names = VertexNames::Dense;
            let sources = Sources { members: &members, names: &names, ..Sources::bare(&c.dag) };
            let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "ring").unwrap();
            if n == 5 {
                assert_eq!(picture.nodes[0].name(), "{0, 1, 2, 3, 4}", "before the cycle is marked");
            }
            let ring: Vec<u32> = (0..n).chain([0]).collect();
            mark_cycle(&mut picture, c.component[0], (&ring, true), &members, &names);
            let name = picture.nodes[0].name();
            let walk: Vec<String> = (0..n).map(|v| v.to_string()).collect();
            let spelled: Vec<String> = (0..=n).map(|v| (v % n).to_string()).collect();
            assert_eq!(picture.notes[0], format!("cycle: {}", spelled.join(" → ")), "n = {n}");
            if n == 5 {
                assert_eq!(name, format!("{{{}}}", walk.join("→")));
            } else {
                assert_eq!(name, "{0→1→2→3→…, +9}");
            }
        }
    }

    #[test]
    fn long_cycles_and_large_components_say_what_is_left_out() {
        // The cycle 0 -> 1 -> ... -> 19 -> 0, and the longer way 19 -> 20 -> 0: a component of 21
        // vertices whose shortest cycle has 20.
        let mut edges: Vec<(u32, u32)> = (0..20).map(|v| (v, (v + 1) % 20)).collect();
        edges.extend([(19, 20), (20, 0)]);
        let graph = Arc::new(Graph::from_edges(21, &edges).unwrap());
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let names = VertexNames::Dense;
        let sources = Sources { members: &members, names: &names, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "ring").unwrap();
        // The long way round, to see the note cut it short.
        let ring: Vec<u32> = (0..20).chain([0]).collect();
        mark_cycle(&mut picture, c.component[0], (&ring, true), &members, &names);
        assert_eq!(picture.nodes[0].name(), "{0→1→2→3→…, +17}");
        assert_eq!(picture.notes[0], "cycle: 0 → 1 → 2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 11 → … (8 more) → 0");
        assert_eq!(picture.notes[1], "a shortest cycle of the component: 20 of its 21 vertices");
        assert_eq!(picture.notes[2], "its box lists the cycle's first 4 (→…); +17 not listed");
    }

    #[test]
    fn the_box_lists_the_cycle_in_cycle_order_then_the_other_members() {
        // Component {0, ..., 7}: the cycle 5 -> 2 -> 6 -> 5, and 0, 1, 3, 4, 7 joined to 5 both ways.
        let mut edges = vec![(5, 2), (2, 6), (6, 5)];
        edges.extend([0, 1, 3, 4, 7].iter().flat_map(|&v| [(v, 5), (5, v)]));
        let graph = Arc::new(Graph::from_edges(8, &edges).unwrap());
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let big = c.component[0];
        let ring = [5, 2, 6];
        assert_eq!(box_members(&ring, &members, big, 4), [5, 2, 6, 0]);
        assert_eq!(box_members(&ring, &members, big, 6), [5, 2, 6, 0, 1, 3]);
        assert_eq!(box_members(&ring, &members, big, 2), [5, 2]);
        assert_eq!(box_members(&ring, &members, big, 20), [5, 2, 6, 0, 1, 3, 4, 7]);
        let names = VertexNames::Dense;
        let sources = Sources { members: &members, names: &names, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "star").unwrap();
        mark_cycle(&mut picture, big, (&[5, 2, 6, 5], true), &members, &names);
        // The cycle turned to start at its smallest id, as `grail scc` lists it.
        assert_eq!(picture.nodes[0].name(), "{2→6→5, 0, +4}");
        assert_eq!(picture.notes[1], "a shortest cycle of the component: 3 of its 8 vertices");
        assert_eq!(picture.notes[2], "its box lists the cycle, then 1 other member; +4 not listed");
    }

    #[test]
    fn a_vertex_on_no_cycle_says_so() {
        let graph = tiny_cycles();
        let c = condense(&graph);
        let members = ComponentMembers::new(&c);
        let sources = Sources { members: &members, ..Sources::bare(&c.dag) };
        let mut picture = build(&sources, &Subgraph::whole(&c.dag).unwrap(), "tiny").unwrap();
        mark_cycle(&mut picture, c.component[9], (&[9], true), &members, &VertexNames::Dense);
        assert_eq!(picture.notes[0], "9 lies on no cycle");
        assert!(picture.nodes.iter().all(|n| n.state != NodeState::Cycle));
    }
}
