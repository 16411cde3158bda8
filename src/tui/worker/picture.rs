//! The picture tab's drawing, built on the worker: which part of the DAG to draw, and what to lay
//! over it (the labeler's snapshot while it is stepped, the finished labels, a query's search).

use crate::draw::cycle::mark_cycle;
use crate::draw::search_trace::{dead_end_note, search_overlay};
use crate::draw::{self, ComponentMembers, Picture, Sources, StepOverlay, StepVertex, Subgraph};
use crate::format::{plural, thousands};
use crate::index::Labels;
use crate::index::labeler::Snapshot;
use crate::query::RuleSet;
use crate::query::explain::Names;
use crate::reachability::Index;
use crate::workspace::Workspace;
use anyhow::Result;

/// What the picture centres on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The whole graph when small, else the neighbourhood of vertex 0.
    Whole,
    /// The neighbourhood of one DAG vertex (a component; on small graphs the whole graph is drawn).
    Component(u32),
    /// As `Component`, for a component of several vertices, with one shortest cycle marked on its
    /// box.
    Cycle(u32),
    /// A query's two vertices (dense original ids, as the Query tab uses), with its search laid
    /// over the picture.
    Query { u: u32, v: u32 },
}

/// Which labels the picture draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PictureLabels {
    /// The Labels tab's: the worker's session (its finished labels, or a stepped run's snapshot).
    #[default]
    Session,
    /// The labels the Exceptions tab counted a false positive with: the first `dims` dimensions of
    /// the classic DFS in random order from `seed` (every back end gives the same labels).
    Exception { dims: usize, seed: u64 },
}

/// One picture to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureRequest {
    pub focus: Focus,
    pub labels: PictureLabels,
    pub dim: usize,
    /// Neighbourhoods (large graphs): edges away from the focus, and most vertices drawn.
    pub depth: u32,
    pub cap: usize,
    /// The rules a query's search runs with (the Query tab's choice; a false positive from the
    /// Exceptions tab is always drawn with GRAIL's, the rules it was counted under).
    pub rules: RuleSet,
}

/// A built picture and what asked for it.
#[derive(Clone, Debug)]
pub struct PictureResult {
    pub request: PictureRequest,
    pub picture: Picture,
    /// The whole graph is drawn (else a neighbourhood).
    pub whole: bool,
}

/// Builds the picture for `request`: intervals and tree from `index`'s labels once they exist,
/// else what `snapshot` (a stepped run's view of the dimension) knows so far. A query's search
/// runs with the index's rules (every rule where it has a query index). `cycle` (the path
/// `s, ..., s` in dense original ids) is marked on a [`Focus::Cycle`] component's box.
pub fn build(
    ws: &Workspace,
    members: &ComponentMembers,
    index: Option<&Index>,
    snapshot: Option<&Snapshot>,
    cycle: Option<(&[u32], bool)>,
    request: PictureRequest,
) -> Result<PictureResult> {
    let dag = ws.dag();
    let component = &ws.condensation.component;
    let labels = index.map(Index::labels);
    let seeds: Vec<u32> = match request.focus {
        Focus::Whole => vec![0].into_iter().filter(|_| dag.num_vertices() > 0).collect(),
        Focus::Component(c) | Focus::Cycle(c) => {
            vec![c].into_iter().filter(|&c| (c as usize) < dag.num_vertices()).collect()
        }
        Focus::Query { u, v } => vec![component[u as usize], component[v as usize]],
    };
    let (subgraph, whole) = match Subgraph::whole(dag) {
        Ok(all) => (all, true),
        Err(_) => (Subgraph::around(dag, &seeds, request.depth, request.cap), false),
    };
    let step = match (labels, snapshot) {
        (None, Some(snap)) => Some(step_overlay(snap, &subgraph, dag.num_vertices())),
        _ => None,
    };
    let search = match (request.focus, index) {
        (Focus::Query { u, v }, Some(index)) => {
            let engine = index.engine();
            let names = &ws.loaded.names;
            let sizes = &ws.condensation.sizes;
            let vertex = |c: u32| {
                let shown = members.first(c, 1).first().map_or_else(|| c.to_string(), |&v| names.label(v));
                crate::query::explain::component_label(shown, sizes[c as usize])
            };
            let shown = Names { u: names.label(u), v: names.label(v), vertex: &vertex };
            Some(search_overlay(&engine, u, v, &shown).0)
        }
        _ => None,
    };
    let dim = labels.map_or(request.dim, |l| request.dim.min(l.dims().saturating_sub(1)));
    let sources =
        Sources { dag, members, names: &ws.loaded.names, labels, dim, step: step.as_ref(), search: search.as_ref() };
    let what = if whole {
        let file = ws
            .loaded
            .path
            .file_name()
            .map_or_else(|| ws.loaded.path.display().to_string(), |f| f.to_string_lossy().into_owned());
        // The picture draws the condensation: with cycles, its boxes are components, not vertices.
        let (boxes, vertices) = (dag.num_vertices() as u64, ws.loaded.graph.num_vertices() as u64);
        if boxes == vertices {
            format!("{file} ({})", plural(vertices, "vertex", "vertices"))
        } else {
            format!(
                "{file} ({} of {})",
                plural(boxes, "component", "components"),
                plural(vertices, "vertex", "vertices")
            )
        }
    } else {
        let name = |c: u32| members.first(c, 1).first().map_or_else(|| c.to_string(), |&v| ws.loaded.names.label(v));
        let around: Vec<String> = seeds.iter().map(|&c| name(c)).collect();
        let cap = plural(request.cap as u64, "vertex", "vertices");
        format!("around {} (depth {}, at most {cap})", around.join(" and "), request.depth)
    };
    let mut picture = draw::build(&sources, &subgraph, what)?;
    // A dimension is named only where there are labels (or a labeling run) to show in it.
    if let Some(dim) = picture.labeled_dim {
        picture.title = format!("{}, dimension {dim}", picture.title);
    }
    // The explorer builds labels on this graph sooner or later: room for them from the first
    // drawing keeps the layout (and the fitted zoom) still while they fill in.
    picture.label_room = draw::Picture::interval_room(dag.num_vertices());
    if let (Focus::Cycle(c), Some(cycle)) = (request.focus, cycle) {
        mark_cycle(&mut picture, c, cycle, members, &ws.loaded.names);
    }
    if let Some(note) = search.as_ref().and_then(|s| dead_end_note(s, &picture)) {
        picture.notes.push(note);
    }
    if let (PictureLabels::Exception { dims, .. }, Focus::Query { u, v }, Some(labels)) =
        (request.labels, request.focus, labels)
    {
        let names = &ws.loaded.names;
        let (cu, cv) = (component[u as usize], component[v as usize]);
        let shown = (names.label(u), names.label(v));
        picture.notes.insert(0, exception_note(labels, cu, cv, shown, dims));
    }
    Ok(PictureResult { request: PictureRequest { dim, ..request }, picture, whole })
}

/// Says which labels an exception is drawn with and whether its intervals are nested in all of
/// their dimensions (they are, for a false positive the Exceptions tab found).
fn exception_note(labels: &Labels, cu: u32, cv: u32, (u, v): (String, String), dims: usize) -> String {
    match labels.of(cu).iter().zip(labels.of(cv)).position(|(a, b)| !a.contains(*b)) {
        None => {
            format!("false positive {u} ⇝ {v} with its d = {dims} labels: L({v}) ⊆ L({u}) in every dimension, nested")
        }
        Some(dim) => format!("{u} ⇝ {v} with its d = {dims} labels: not nested in dimension {dim}"),
    }
}

/// The snapshot's values for the drawn vertices, and its frontier among them. The caption says
/// where the frontier is: the highlighted boxes, or the DFS tree's virtual root (vertex `n`, the
/// DAG's size, above every root), which no box stands for.
fn step_overlay(snap: &Snapshot, subgraph: &Subgraph, n: usize) -> StepOverlay {
    let vertices = subgraph
        .vertices
        .iter()
        .map(|&v| {
            let i = v as usize;
            let known = StepVertex {
                parent: snap.parent.get(i).copied().flatten().flatten(),
                size: snap.size.get(i).copied().flatten(),
                post: snap.post.get(i).copied().flatten(),
                low: snap.low.get(i).copied().flatten(),
            };
            (v, known)
        })
        .collect();
    let drawn: std::collections::HashSet<u32> = subgraph.vertices.iter().copied().collect();
    let frontier: std::collections::HashMap<u32, _> =
        snap.frontier.iter().filter(|(v, _)| drawn.contains(v)).copied().collect();
    let real = snap.frontier.iter().filter(|(v, _)| (*v as usize) < n).count() as u64;
    let root = real < snap.frontier.len() as u64;
    let caption = match snap.phase {
        None => format!("dimension {}: not started (s steps one level)", snap.dim),
        Some(phase) if real == 0 && root => format!(
            "dimension {}: {phase}, the level just run is the DFS tree's virtual root above the roots (no box \
             stands for it)",
            snap.dim
        ),
        Some(phase) => {
            let count = plural(real, "vertex", "vertices");
            let (shown, drawn) = (frontier.len() as u64, thousands(frontier.len() as u64));
            let where_ = match (shown == real, shown) {
                (true, _) => "highlighted".to_string(),
                (false, 0) => "none of them drawn here".to_string(),
                (false, _) => format!("{drawn} of them drawn, highlighted"),
            };
            let and_root = if root { " and the virtual root" } else { "" };
            format!("dimension {}: {phase}, the level just run is the frontier ({count}{and_root}, {where_})", snap.dim)
        }
    };
    StepOverlay { vertices, frontier, caption }
}
