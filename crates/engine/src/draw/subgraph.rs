//! Which part of the DAG a picture shows: all of a small graph, or a neighbourhood of a few vertices
//! in a large one.
//!
//! The neighbourhood is a breadth-first walk from the seeds, up through parents (ancestors) and down
//! through children (descendants), to a depth and a vertex cap. It never reads more of an adjacency
//! list than it draws: on uniprot's hub (1.5M parents) it stops after the cap. Its work is
//! `O(cap² + cap · EDGE_SCAN_LIMIT)` whatever the graph's size, apart from O(1) degree lookups; no
//! array of the graph's size is allocated. Where edges were left out, a [`Cut`] says exactly how
//! many (degree minus the edges drawn), which is what a box's "+N more" shows.

use crate::graph::Graph;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

/// The most DAG vertices drawn whole; larger graphs are drawn as a neighbourhood.
pub const MAX_WHOLE: usize = 80;
/// The largest vertex cap a neighbourhood accepts (a picture of more is no longer readable).
pub const MAX_CAP: usize = 400;
/// After the walk, lists up to this long are read to find the edges among the drawn vertices.
const EDGE_SCAN_LIMIT: usize = 256;

/// Which way the hidden edges of a [`Cut`] go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Edges to the vertex's parents (above it).
    Parents,
    /// Edges to the vertex's children (below it).
    Children,
}

/// Edges of a drawn vertex that the picture leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The drawn vertex (DAG id).
    pub vertex: u32,
    /// Whether the hidden edges go to parents or to children.
    pub direction: Direction,
    /// Exactly how many of the vertex's parents (or children) have no edge drawn to it.
    pub hidden: u64,
}

/// A part of the DAG to draw (DAG vertex ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subgraph {
    /// Every drawn vertex once, seeds first.
    pub vertices: Vec<u32>,
    /// Drawn edges; both ends are in `vertices`.
    pub edges: Vec<(u32, u32)>,
    /// Drawn vertices with edges left out, and how many.
    pub cuts: Vec<Cut>,
    /// The walk left vertices out at the depth asked for (it hit the vertex cap).
    pub capped: bool,
    /// Adjacency entries read to choose it: the work, whatever the graph's size.
    pub entries_read: u64,
}

/// A graph too large to draw whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The graph's vertices.
    pub vertices: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vertices after condensation; the picture draws at most {MAX_WHOLE} whole", self.vertices)
    }
}

impl std::error::Error for TooLarge {}

impl Subgraph {
    /// The whole DAG, when it has at most [`MAX_WHOLE`] vertices.
    pub fn whole(dag: &Graph) -> Result<Subgraph, TooLarge> {
        let n = dag.num_vertices();
        if n > MAX_WHOLE {
            return Err(TooLarge { vertices: n });
        }
        let edges: Vec<(u32, u32)> = dag.edges().collect();
        let entries_read = edges.len() as u64;
        Ok(Subgraph { vertices: (0..n as u32).collect(), edges, cuts: Vec::new(), capped: false, entries_read })
    }

    /// Ancestors and descendants of `seeds` up to `depth` edges away, at most `cap` vertices
    /// (clamped to `1..=MAX_CAP`), breadth first, at most a quarter of the cap from one list per turn. Seeds outside the DAG are skipped; every seed is
    /// drawn while the cap allows.
    pub fn around(dag: &Graph, seeds: &[u32], depth: u32, cap: usize) -> Subgraph {
        let cap = cap.clamp(1, MAX_CAP);
        let n = dag.num_vertices();
        let mut walk = Walk { index: HashMap::new(), vertices: Vec::new(), edges: Vec::new(), seen: HashSet::new() };
        // Work items: read `direction`'s list of `x` (at `depth` from a seed) from position `from`.
        let mut queue: VecDeque<(u32, Direction, u32, usize)> = VecDeque::new();
        for &s in seeds.iter().filter(|&&s| (s as usize) < n) {
            if walk.index.contains_key(&s) || walk.vertices.len() >= cap {
                continue;
            }
            walk.add_vertex(s);
            queue.push_back((s, Direction::Parents, 0, 0));
            queue.push_back((s, Direction::Children, 0, 0));
        }
        let mut capped = false;
        let mut entries_read = 0u64;
        // One list brings in at most a quarter of the cap per turn, so that a hub's million parents
        // leave room for its children and for the other seeds; a list cut short waits for another
        // turn after everything else, while the cap has room.
        let per_list = (cap / 4).max(1);
        let mut later: VecDeque<(u32, Direction, u32, usize)> = VecDeque::new();
        'walk: while let Some((x, direction, d, from)) = next_turn(&mut queue, &mut later) {
            if d >= depth {
                continue;
            }
            let mut added = 0;
            let list = neighbours(dag, x, direction);
            for (position, &y) in list.iter().enumerate().skip(from) {
                entries_read += 1;
                if !walk.index.contains_key(&y) {
                    if walk.vertices.len() >= cap {
                        capped = true;
                        break 'walk;
                    }
                    if added == per_list {
                        later.push_back((x, direction, d, position));
                        break;
                    }
                    walk.add_vertex(y);
                    added += 1;
                    queue.push_back((y, direction, d + 1, 0));
                }
                walk.add_edge(x, y, direction);
            }
        }
        capped |= !later.is_empty();
        // Edges among the drawn vertices that the walk did not take (cross edges, edges at the depth
        // limit), from whichever end has a short list.
        for i in 0..walk.vertices.len() {
            let x = walk.vertices[i];
            for direction in [Direction::Parents, Direction::Children] {
                let list = neighbours(dag, x, direction);
                if list.len() <= EDGE_SCAN_LIMIT {
                    entries_read += list.len() as u64;
                    for &y in list {
                        if walk.index.contains_key(&y) {
                            walk.add_edge(x, y, direction);
                        }
                    }
                }
            }
        }
        let cuts = cuts(dag, &walk.vertices, &walk.edges);
        Subgraph { vertices: walk.vertices, edges: walk.edges, cuts, capped, entries_read }
    }
}

struct Walk {
    index: HashMap<u32, usize>,
    vertices: Vec<u32>,
    edges: Vec<(u32, u32)>,
    seen: HashSet<(u32, u32)>,
}

impl Walk {
    fn add_vertex(&mut self, v: u32) {
        self.index.insert(v, self.vertices.len());
        self.vertices.push(v);
    }

    /// The edge between `x` and its neighbour `y` in `direction`, once.
    fn add_edge(&mut self, x: u32, y: u32, direction: Direction) {
        let edge = match direction {
            Direction::Parents => (y, x),
            Direction::Children => (x, y),
        };
        if self.seen.insert(edge) {
            self.edges.push(edge);
        }
    }
}

/// The next work item: the queue's, else the first of those waiting for another turn.
fn next_turn<T>(queue: &mut VecDeque<T>, later: &mut VecDeque<T>) -> Option<T> {
    if queue.is_empty() {
        std::mem::swap(queue, later);
    }
    queue.pop_front()
}

fn neighbours(dag: &Graph, v: u32, direction: Direction) -> &[u32] {
    match direction {
        Direction::Parents => dag.parents(v),
        Direction::Children => dag.children(v),
    }
}

/// Per drawn vertex, its parents and children without a drawn edge (degrees are O(1)).
fn cuts(dag: &Graph, vertices: &[u32], edges: &[(u32, u32)]) -> Vec<Cut> {
    let mut drawn: HashMap<u32, (u64, u64)> = HashMap::new();
    for &(u, v) in edges {
        drawn.entry(u).or_default().1 += 1;
        drawn.entry(v).or_default().0 += 1;
    }
    let mut cuts = Vec::new();
    for &v in vertices {
        let (parents, children) = drawn.get(&v).copied().unwrap_or_default();
        let hidden_parents = dag.parents_csr().degree(v) as u64 - parents;
        let hidden_children = dag.children_csr().degree(v) as u64 - children;
        if hidden_parents > 0 {
            cuts.push(Cut { vertex: v, direction: Direction::Parents, hidden: hidden_parents });
        }
        if hidden_children > 0 {
            cuts.push(Cut { vertex: v, direction: Direction::Children, hidden: hidden_children });
        }
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;

    /// 0 -> 1 -> 2 -> 3 -> 4, 0 -> 5, 6 -> 2.
    fn small() -> Graph {
        Graph::from_edges(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (6, 2)]).unwrap()
    }

    #[test]
    fn whole_takes_everything_up_to_the_limit() {
        let g = small();
        let whole = Subgraph::whole(&g).unwrap();
        assert_eq!((whole.vertices.len(), whole.edges.len(), whole.cuts.len()), (7, 6, 0));
        let big = GeneratorSpec::Chain { n: MAX_WHOLE + 1 }.generate().unwrap();
        let err = Subgraph::whole(&big).unwrap_err();
        assert_eq!(err.to_string(), "81 vertices after condensation; the picture draws at most 80 whole");
    }

    #[test]
    fn depth_limits_the_walk_and_cuts_say_what_is_hidden() {
        let g = small();
        let sub = Subgraph::around(&g, &[2], 1, 100);
        let mut vertices = sub.vertices.clone();
        vertices.sort_unstable();
        assert_eq!(vertices, vec![1, 2, 3, 6]);
        assert_eq!(sub.edges.len(), 3);
        assert!(!sub.capped);
        // 1 has a hidden parent (0), 3 a hidden child (4); 2 and 6 show all their edges.
        let mut cuts: Vec<(u32, Direction, u64)> = sub.cuts.iter().map(|c| (c.vertex, c.direction, c.hidden)).collect();
        cuts.sort_by_key(|c| c.0);
        assert_eq!(cuts, vec![(1, Direction::Parents, 1), (3, Direction::Children, 1)]);
    }

    #[test]
    fn edges_between_drawn_vertices_beyond_the_depth_are_drawn() {
        // 0 -> 1 -> 2 and 0 -> 2: around 0 at depth 1 draws 0, 1, 2 and all three edges.
        let g = Graph::from_edges(3, &[(0, 1), (1, 2), (0, 2)]).unwrap();
        let sub = Subgraph::around(&g, &[0], 1, 10);
        assert_eq!(sub.vertices.len(), 3);
        assert_eq!(sub.edges.len(), 3);
        assert!(sub.cuts.is_empty());
    }

    #[test]
    fn a_cut_list_gets_more_turns_while_the_cap_has_room() {
        // 100 roots above one sink (uniprot's shape): the sink's parents fill the whole cap.
        let edges: Vec<(u32, u32)> = (1..=100).map(|r| (r, 0)).collect();
        let g = Graph::from_edges(101, &edges).unwrap();
        let sub = Subgraph::around(&g, &[0], 2, 40);
        assert_eq!(sub.vertices.len(), 40);
        assert!(sub.capped);
        assert_eq!(sub.cuts, vec![Cut { vertex: 0, direction: Direction::Parents, hidden: 61 }]);
    }

    #[test]
    fn bad_seeds_are_skipped_and_the_cap_is_clamped() {
        let g = small();
        assert!(Subgraph::around(&g, &[99], 3, 10).vertices.is_empty());
        assert_eq!(Subgraph::around(&g, &[2, 2], 3, 0).vertices, vec![2]);
    }

    /// A million leaves between hubs: the walk stops at the cap, says how many it left out, and
    /// reads a few thousand adjacency entries of the graph's 5M (work counted, not timed: timings
    /// belong in benchmarks).
    #[test]
    fn million_wide_fan_is_quick_and_capped() {
        let g: Graph = "fan:width=1000000,layers=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        let hub = (0..g.num_vertices() as u32)
            .find(|&v| g.parents(v).len() == 1_000_000 && g.children(v).len() == 1_000_000)
            .expect("the middle hub");
        let sub = Subgraph::around(&g, &[hub], 3, 60);
        assert_eq!(sub.vertices.len(), 60);
        assert!(sub.capped);
        // Neither side crowds out the other: a quarter of the cap per list and turn.
        let drawn_parents = sub.edges.iter().filter(|e| e.1 == hub).count() as u64;
        let drawn_children = sub.edges.iter().filter(|e| e.0 == hub).count() as u64;
        assert!(drawn_parents >= 15 && drawn_children >= 15, "{drawn_parents} parents, {drawn_children} children");
        let hidden = |direction| sub.cuts.iter().find(|c| c.vertex == hub && c.direction == direction).unwrap().hidden;
        assert_eq!(hidden(Direction::Parents), 1_000_000 - drawn_parents);
        assert_eq!(hidden(Direction::Children), 1_000_000 - drawn_children);
        // Beyond the leaves: the hubs before and after are drawn too.
        assert!(sub.vertices.iter().any(|&v| g.children(v).len() == 1_000_000 && g.parents(v).is_empty()));
        assert!(sub.entries_read < 20_000, "read {} adjacency entries", sub.entries_read);
        let sub = Subgraph::around(&g, &[hub], 3, MAX_CAP);
        assert!(sub.vertices.len() <= MAX_CAP);
        assert!(sub.entries_read < 200_000, "read {} adjacency entries", sub.entries_read);
    }
}
