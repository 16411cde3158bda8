//! Assembles a [`Picture`] from a chosen [`Subgraph`], the labels and the overlays.

use super::layout::layout_near;
use super::members::ComponentMembers;
use super::overlay::{SearchOverlay, StepOverlay};
use super::picture::{CutMarker, MEMBERS_SHOWN, Picture, PictureEdge, PictureNode};
use super::style::{EdgeKind, NodeState};
use super::subgraph::Subgraph;
use super::tree::{TreeParent, tree_parent};
use crate::graph::{Graph, VertexNames};
use crate::index::Labels;
use crate::{Error, Result};
use std::collections::{HashMap, HashSet};

/// Everything a picture reads. Vertex ids in the overlays are DAG (component) ids.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    /// The condensation to draw.
    pub dag: &'a Graph,
    /// Each component's original vertices, for the boxes' member lists.
    pub members: &'a ComponentMembers,
    /// The file's vertex names, for the ids a box shows.
    pub names: &'a VertexNames,
    /// Finished labels: intervals of the chosen dimension and its DFS tree.
    pub labels: Option<&'a Labels>,
    /// The dimension to show.
    pub dim: usize,
    /// What a stepped labeling run knows so far, while one runs.
    pub step: Option<&'a StepOverlay>,
    /// A query's search to show over the picture.
    pub search: Option<&'a SearchOverlay>,
}

impl<'a> Sources<'a> {
    /// A DAG drawn as it is: its own ids, every component one vertex, no labels and no overlays
    /// (set the fields that differ with struct update syntax).
    pub fn bare(dag: &'a Graph) -> Sources<'a> {
        static IDENTITY: ComponentMembers = ComponentMembers::Identity;
        static DENSE: VertexNames = VertexNames::Dense;
        Sources { dag, members: &IDENTITY, names: &DENSE, labels: None, dim: 0, step: None, search: None }
    }
}

/// Lays out `subgraph` and dresses it: names, intervals, tree edges, overlay states, cut markers.
/// Fails only if `dim` is not a dimension of the labels.
pub fn build(sources: &Sources, subgraph: &Subgraph, title: impl Into<String>) -> Result<Picture> {
    if let Some(labels) = sources.labels
        && (sources.dim >= labels.dims() || labels.num_vertices() != sources.dag.num_vertices())
    {
        return Err(Error::InvalidInput(format!(
            "dimension {} does not exist: the labels have {} (numbered from 0)",
            sources.dim,
            labels.dims()
        )));
    }
    let index: HashMap<u32, usize> = subgraph.vertices.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let local_edges: Vec<(usize, usize)> =
        subgraph.edges.iter().filter_map(|(u, v)| Some((*index.get(u)?, *index.get(v)?))).collect();
    // In a neighbourhood, a search's u and v are laid out close together (the whole small graph
    // keeps its plain layout).
    let whole = subgraph.vertices.len() == sources.dag.num_vertices();
    let pair = sources.search.filter(|_| !whole).and_then(|s| Some((*index.get(&s.source)?, *index.get(&s.target)?)));
    let placed = layout_near(subgraph.vertices.len(), &local_edges, pair, !whole);
    let mut notes = Vec::new();
    let nodes: Vec<PictureNode> = subgraph
        .vertices
        .iter()
        .enumerate()
        .map(|(i, &v)| node(sources, v, placed.layer[i], placed.column[i]))
        .collect();
    let tree = tree_edges(sources, subgraph, &mut notes);
    let path: HashSet<(u32, u32)> =
        sources.search.map(|s| s.path.windows(2).map(|w| (w[0], w[1])).collect()).unwrap_or_default();
    let emphasis = !tree.is_empty() || !path.is_empty();
    let edges = local_edges
        .iter()
        .zip(placed.routes)
        .map(|(&(from, to), route)| {
            let pair = (subgraph.vertices[from], subgraph.vertices[to]);
            let kind = if path.contains(&pair) {
                EdgeKind::Path
            } else if tree.contains(&pair) {
                EdgeKind::Tree
            } else {
                EdgeKind::Other
            };
            PictureEdge { from, to, kind, dim: emphasis && kind == EdgeKind::Other, route }
        })
        .collect();
    let cuts = subgraph
        .cuts
        .iter()
        .filter_map(|c| Some(CutMarker { node: *index.get(&c.vertex)?, direction: c.direction, hidden: c.hidden }))
        .collect();
    for caption in [sources.step.map(|s| &s.caption), sources.search.map(|s| &s.caption)].into_iter().flatten() {
        if !caption.is_empty() {
            notes.insert(0, caption.clone());
        }
    }
    if subgraph.capped {
        notes.push("not every neighbour fits: \"+N more\" counts the parents (↑) and children (↓) left out".into());
    }
    Ok(Picture {
        nodes,
        edges,
        cuts,
        layers: placed.layers,
        columns: placed.columns,
        dim: sources.dim,
        // While the stepper fills the labels in, their final width is not known yet.
        label_room: if sources.step.is_some() { Picture::interval_room(sources.dag.num_vertices()) } else { 0 },
        dims: sources.labels.map(Labels::dims),
        labeled_dim: (sources.labels.is_some() || sources.step.is_some()).then_some(sources.dim),
        title: title.into(),
        notes,
    })
}

fn node(sources: &Sources, v: u32, layer: u32, column: u32) -> PictureNode {
    let count = sources.members.count(v);
    let shown = crate::format::listed(count, MEMBERS_SHOWN);
    let members = sources.members.first(v, shown).into_iter().map(|m| sources.names.label(m)).collect();
    PictureNode {
        vertex: v,
        members,
        member_count: count,
        cycle: 0,
        layer,
        column,
        interval: sources.labels.map(|l| l.interval(v, sources.dim)),
        step: sources.step.and_then(|s| s.vertices.get(&v).copied()),
        state: state(sources, v),
    }
}

/// The box's state: the search's (most telling first), else the stepper's frontier.
fn state(sources: &Sources, v: u32) -> NodeState {
    if let Some(search) = sources.search {
        if v == search.source {
            return NodeState::Source;
        }
        if v == search.target {
            return NodeState::Target;
        }
        if search.path.contains(&v) {
            return NodeState::Path;
        }
        if search.dead_ends.contains(&v) {
            return NodeState::DeadEnd;
        }
        if let Some(&dim) = search.pruned.get(&v) {
            return NodeState::Pruned { dim };
        }
        if search.cut.contains_key(&v) {
            return NodeState::CutOff;
        }
        if search.expanded.contains(&v) {
            return NodeState::Expanded;
        }
    }
    match sources.step.and_then(|s| s.frontier.get(&v)) {
        Some(&class) => NodeState::Frontier(class),
        None => NodeState::Plain,
    }
}

/// The drawn edges that belong to the tree: the stepper's chosen parents where it has them, else
/// the tree the finished labels imply.
fn tree_edges(sources: &Sources, subgraph: &Subgraph, notes: &mut Vec<String>) -> HashSet<(u32, u32)> {
    let mut tree = HashSet::new();
    let drawn: HashSet<(u32, u32)> = subgraph.edges.iter().copied().collect();
    for &v in &subgraph.vertices {
        let chosen = sources.step.and_then(|s| s.vertices.get(&v)).and_then(|s| s.parent);
        let parent = match (chosen, sources.labels) {
            (Some(p), _) => Some(p),
            (None, Some(labels)) => match tree_parent(sources.dag, labels, sources.dim, v) {
                TreeParent::Parent(p) => Some(p),
                TreeParent::Root => None,
                TreeParent::Unknown { parents } => {
                    notes.push(format!(
                        "tree edge into {} not derived: it has {} parents",
                        sources.names.label(sources.members.first(v, 1).first().copied().unwrap_or(v)),
                        crate::format::thousands(parents as u64)
                    ));
                    None
                }
            },
            (None, None) => None,
        };
        if let Some(p) = parent.filter(|&p| drawn.contains(&(p, v))) {
            tree.insert((p, v));
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::overlay::{QueueClass, StepVertex};
    use crate::index::{Order, dfs};

    /// 0 -> 1 -> 3, 0 -> 2 -> 3, 4 -> 2.
    fn diamond() -> Graph {
        Graph::from_edges(5, &[(0, 1), (1, 3), (0, 2), (2, 3), (4, 2)]).unwrap()
    }

    #[test]
    fn labels_give_intervals_and_tree_edges() {
        let dag = diamond();
        let labels = dfs::label(&dag, 1, Order::Lex).unwrap();
        let members = ComponentMembers::Identity;
        let names = VertexNames::Dense;
        let sources = Sources {
            dag: &dag,
            members: &members,
            names: &names,
            labels: Some(&labels),
            dim: 0,
            step: None,
            search: None,
        };
        let picture = build(&sources, &Subgraph::whole(&dag).unwrap(), "diamond").unwrap();
        assert_eq!(picture.nodes.len(), 5);
        // Lex DFS: 0 -> 1 -> 3, then 0 -> 2; 4's edge to 2 and 2 -> 3 are not tree edges.
        let kinds: HashMap<(u32, u32), EdgeKind> = picture
            .edges
            .iter()
            .map(|e| ((picture.nodes[e.from].vertex, picture.nodes[e.to].vertex), e.kind))
            .collect();
        assert_eq!(kinds[&(0, 1)], EdgeKind::Tree);
        assert_eq!(kinds[&(1, 3)], EdgeKind::Tree);
        assert_eq!(kinds[&(0, 2)], EdgeKind::Tree);
        assert_eq!(kinds[&(2, 3)], EdgeKind::Other);
        assert_eq!(kinds[&(4, 2)], EdgeKind::Other);
        assert!(picture.edges.iter().all(|e| e.dim == (e.kind == EdgeKind::Other)));
        let zero = &picture.nodes[picture.node_of(0).unwrap()];
        assert_eq!(zero.detail().as_deref(), Some("[1, 4]"));
        assert!(build(&Sources { dim: 1, ..sources }, &Subgraph::whole(&dag).unwrap(), "").is_err());
    }

    #[test]
    fn overlays_set_states_and_the_path() {
        let dag = diamond();
        let members = ComponentMembers::Identity;
        let names = VertexNames::Offset(100);
        let search = SearchOverlay {
            source: 0,
            target: 3,
            path: vec![0, 2, 3],
            expanded: [0, 1, 2].into(),
            pruned: [(4, 1)].into(),
            cut: Default::default(),
            dead_ends: [1].into(),
            caption: "100 ⇝ 103? yes".into(),
        };
        let step = StepOverlay {
            vertices: [(1, StepVertex { parent: Some(0), ..StepVertex::default() })].into(),
            frontier: [(1, QueueClass::Small), (3, QueueClass::Large)].into(),
            caption: String::new(),
        };
        let sources = Sources {
            dag: &dag,
            members: &members,
            names: &names,
            labels: None,
            dim: 0,
            step: Some(&step),
            search: Some(&search),
        };
        let picture = build(&sources, &Subgraph::whole(&dag).unwrap(), "diamond").unwrap();
        let state = |v: u32| picture.nodes[picture.node_of(v).unwrap()].state;
        assert_eq!(state(0), NodeState::Source);
        assert_eq!(state(3), NodeState::Target);
        assert_eq!(state(2), NodeState::Path);
        assert_eq!(state(1), NodeState::DeadEnd);
        assert_eq!(state(4), NodeState::Pruned { dim: 1 });
        assert_eq!(picture.nodes[picture.node_of(0).unwrap()].name(), "100");
        let kind = |a: u32, b: u32| {
            picture
                .edges
                .iter()
                .find(|e| picture.nodes[e.from].vertex == a && picture.nodes[e.to].vertex == b)
                .unwrap()
                .kind
        };
        assert_eq!((kind(0, 2), kind(2, 3)), (EdgeKind::Path, EdgeKind::Path));
        assert_eq!(kind(0, 1), EdgeKind::Tree, "the stepper's chosen parent");
        assert_eq!(picture.notes, vec!["100 ⇝ 103? yes".to_string()]);
        let legend = picture.legend();
        assert_eq!(legend.edges, vec![EdgeKind::Other, EdgeKind::Tree, EdgeKind::Path]);
        assert!(legend.states.contains(&NodeState::Pruned { dim: 0 }), "pruned states share one legend line");
    }
}
