//! Which original vertices each DAG vertex (strongly connected component) stands for, so a box can
//! name its members. Built once per graph (one pass over the component map, none at all when the
//! graph was already a DAG) and then read per drawn box.

use crate::graph::scc::Condensation;

/// The original vertices of every component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentMembers {
    /// The graph was a DAG: component `c` is original vertex `c`.
    Identity,
    /// `members[offsets[c]..offsets[c + 1]]` are `c`'s original vertices, by increasing id.
    Grouped {
        /// `num_components + 1` offsets into `members`.
        offsets: Vec<u32>,
        /// Every original vertex once, grouped by component.
        members: Vec<u32>,
    },
}

impl ComponentMembers {
    /// The members of every component of `condensation`.
    pub fn new(condensation: &Condensation) -> ComponentMembers {
        if condensation.is_identity() {
            return ComponentMembers::Identity;
        }
        let mut offsets = vec![0u32; condensation.num_components() + 1];
        for (c, &size) in condensation.sizes.iter().enumerate() {
            offsets[c + 1] = offsets[c] + size;
        }
        let mut cursor = offsets.clone();
        let mut members = vec![0u32; condensation.component.len()];
        for (v, &c) in condensation.component.iter().enumerate() {
            let slot = &mut cursor[c as usize];
            members[*slot as usize] = v as u32;
            *slot += 1;
        }
        ComponentMembers::Grouped { offsets, members }
    }

    /// How many original vertices `c` holds.
    pub fn count(&self, c: u32) -> usize {
        match self {
            ComponentMembers::Identity => 1,
            ComponentMembers::Grouped { offsets, .. } => (offsets[c as usize + 1] - offsets[c as usize]) as usize,
        }
    }

    /// At most `limit` of `c`'s original vertices, smallest first.
    pub fn first(&self, c: u32, limit: usize) -> Vec<u32> {
        match self {
            ComponentMembers::Identity => vec![c].into_iter().take(limit).collect(),
            ComponentMembers::Grouped { offsets, members } => {
                let (start, end) = (offsets[c as usize] as usize, offsets[c as usize + 1] as usize);
                members[start..end.min(start.saturating_add(limit))].to_vec()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, scc::condense};
    use std::sync::Arc;

    #[test]
    fn groups_members_by_component() {
        // Cycles {1,2,3} and {6,7}, as in sample-graphs/tiny-cycles.txt.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4), (3, 5), (4, 8), (5, 8), (5, 6), (6, 7), (7, 6), (9, 0)];
        let c = condense(&Arc::new(Graph::from_edges(10, &edges).unwrap()));
        let members = ComponentMembers::new(&c);
        let big = c.component[2];
        assert_eq!(members.count(big), 3);
        assert_eq!(members.first(big, 10), vec![1, 2, 3]);
        assert_eq!(members.first(big, 2), vec![1, 2]);
        assert_eq!(members.first(c.component[6], 10), vec![6, 7]);
        assert_eq!(members.first(c.component[9], 10), vec![9]);
    }

    #[test]
    fn a_dag_needs_no_table() {
        let c = condense(&Arc::new(Graph::from_edges(3, &[(0, 1)]).unwrap()));
        let members = ComponentMembers::new(&c);
        assert_eq!(members, ComponentMembers::Identity);
        assert_eq!((members.count(2), members.first(2, 5)), (1, vec![2]));
    }
}
