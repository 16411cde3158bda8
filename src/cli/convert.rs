//! `grail convert`: read any supported format, write any of them; with `--around` or `--scc`, only
//! a neighbourhood or a component, with the file's own ids.

use super::common::{GraphArgs, refuse_overwriting, value_name};
use crate::format::plural;
use crate::graph::io::{self, Format};
use crate::graph::subgraph::{self, Extract};
use crate::graph::{Graph, LoadedGraph, VertexNames, Weight, WeightOrigin, WeightedGraph};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grail convert edges.txt graph.gra\n  grail convert matrix.mtx edges.txt.gz --to edge-list\n  grail convert big.gra.gz big.grail      (binary: opens memory-mapped, no parsing)\n  grail convert big.gra around-17.txt --around 17 --depth 3 --max 200\n  grail convert edges.txt cycle.txt --scc 1      (the largest component, as `grail scc` lists it)\n  grail convert graph.gra edited.gra --script edits.txt   (+ u v inserts, - u v deletes)"
)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: GraphArgs,

    /// Output file; `.gz` compresses; `.grail` writes the binary graph file (the graph and its
    /// condensation, which every command then opens memory-mapped instead of parsing).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,

    /// Output format, any the readers read (default: from the extension, `.gra` → gra, `.mtx` →
    /// matrix-market, `.grail` → grail, else edge-list). The edge list and grail keep sparse vertex
    /// ids and names (an edge list of a named graph is written as named CSV); the other text
    /// formats number vertices densely.
    #[arg(long, value_enum)]
    pub to: Option<Format>,

    /// Write only the neighbourhood of this vertex (its file id, or its name): its ancestors and
    /// descendants up to `--depth` edges away, at most `--max` vertices, with every edge among them.
    #[arg(long, value_name = "V", conflicts_with = "scc")]
    pub around: Option<String>,

    /// How many edges up (ancestors) and down (descendants) `--around` reaches.
    #[arg(long, default_value_t = 2, value_name = "K", requires = "around")]
    pub depth: u32,

    /// The most vertices written with `--around` (default 1000) or `--scc` (default: all members;
    /// cut, its shortest cycle first, then the others in the order `grail scc` lists them).
    #[arg(long, value_name = "N", value_parser = super::values::whole::<u64, 1, { u64::MAX }>)]
    pub max: Option<u64>,

    /// Write only the I-th largest strongly connected component of two or more vertices (1 = the
    /// largest, as `grail scc` numbers them), with every edge among its members.
    #[arg(long, value_name = "I", value_parser = super::values::whole::<u64, 1, { u64::MAX }>)]
    pub scc: Option<u64>,

    /// Write the graph after this edit script's edits (`+ u v` inserts the edge, `- u v` deletes
    /// it; `? u v` questions are for `grail query --script`, and skipped here). Weights are not
    /// kept: inserted edges have none.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["around", "scc"])]
    pub script: Option<PathBuf>,
}

/// Vertices `--around` writes unless `--max` says otherwise.
const AROUND_MAX: usize = 1000;

/// The format to write: the one asked for, else `.gra[.gz]` → gra, `.mtx[.gz]` → matrix-market,
/// `.grail` → grail, anything else → edge list.
pub fn output_format(path: &Path, asked: Option<Format>) -> Format {
    asked.unwrap_or_else(|| {
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let name = name.trim_end_matches(".gz");
        if name.ends_with(".grail") {
            Format::Grail
        } else if name.ends_with(".gra") {
            Format::Gra
        } else if name.ends_with(".mtx") {
            Format::MatrixMarket
        } else {
            Format::EdgeList
        }
    })
}

/// The format the file is written in: an edge list of named vertices is written as named CSV.
fn written_format(format: Format, names: &VertexNames) -> Format {
    if format == Format::EdgeList && names.table().is_some() { Format::Named } else { format }
}

/// What the written file loses, when its format numbers vertices densely: the names, or the
/// file's own ids (sparse, or shifted), in a sentence saying which formats keep them.
fn what_is_lost(format: Format, names: &VertexNames) -> Option<String> {
    let format_name = value_name(&format);
    match (format, names) {
        (Format::EdgeList | Format::Named | Format::Grail, _) | (_, VertexNames::Dense) => None,
        (Format::MatrixMarket, VertexNames::Offset(1)) => None,
        (_, VertexNames::Named(_)) => Some(format!(
            "names are not kept by {format_name} (it numbers the vertices); write .csv/.txt or .grail to keep them"
        )),
        (_, VertexNames::Offset(_) | VertexNames::Remapped { .. }) => Some(format!(
            "the file's vertex ids are not kept by {format_name} (it numbers the vertices densely); \
             write .txt or .grail to keep them"
        )),
    }
}

/// The vertices an edge list (or CSV) cannot hold: one with no edge is written nowhere, and only
/// dense ids come back from the writer's `N vertices` comment (sparse ids and names are numbered by
/// first appearance when read).
fn isolated_lost(graph: &Graph, names: &VertexNames, format: Format) -> Option<String> {
    let restored = matches!(names, VertexNames::Dense | VertexNames::Offset(_));
    if restored || !matches!(written_format(format, names), Format::EdgeList | Format::Named) {
        return None;
    }
    let n = graph.num_vertices() as u32;
    let isolated: Vec<u32> = (0..n).filter(|&v| graph.children(v).is_empty() && graph.parents(v).is_empty()).collect();
    let first = isolated.first()?;
    Some(format!(
        "{} not in the file (e.g. {}): an edge list names vertices only through their edges; write .grail to keep {}",
        plural(isolated.len() as u64, "vertex without an edge is", "vertices without an edge are"),
        names.label(*first),
        if isolated.len() == 1 { "it" } else { "them" }
    ))
}

pub fn run(args: ConvertArgs) -> Result<()> {
    let map = io::id_map_path(&args.out);
    refuse_overwriting(&[Some(&args.input.graph), args.script.as_deref()], &[Some(&args.out), Some(&map)])?;
    // The graph and its table of ids replace older ones together, and only when both were written;
    // what was written is said once they are in place.
    let said = io::all_or_nothing(|| convert(args))?;
    for line in said {
        println!("{line}");
    }
    Ok(())
}

/// Writes the output; returns the lines that say what was written, to be printed once the outputs
/// are in place.
fn convert(args: ConvertArgs) -> Result<Vec<String>> {
    if args.around.is_some() || args.scc.is_some() {
        return run_part(args);
    }
    if args.max.is_some() {
        bail!("--max applies to --around or --scc");
    }
    // Converting keeps the graph as it is (cycles included): no condensation.
    let mut loaded = io::load(&args.input.graph, args.input.format)?;
    args.input.check_strict(&loaded)?;
    let format = output_format(&args.out, args.to);
    let mut weights = file_weights(&loaded);
    let mut edited = None;
    if let Some(script) = &args.script {
        let (graph, said) = super::script::edited_graph(&loaded, script)?;
        loaded.graph = std::sync::Arc::new(graph);
        if weights.is_some() {
            weights = Some(Err("an edit script changes the edges, and inserted edges have no weight".into()));
        }
        edited = Some(said);
    }
    let whole = |weighted: &WeightedGraph| {
        anyhow::ensure!(
            weighted.graph() == loaded.graph.as_ref(),
            "{}: the file changed while it was read",
            loaded.path.display()
        );
        Ok(weighted.weights().to_vec())
    };
    let kept = write_keeping_weights(&args.out, (&loaded.graph, &loaded.names, format), weights, whole)?;
    let mut said = vec![format!(
        "{} ({}) → {} ({}): {}, {}{}",
        args.input.graph.display(),
        value_name(&loaded.format),
        args.out.display(),
        value_name(&written_format(format, &loaded.names)),
        plural(loaded.graph.num_vertices() as u64, "vertex", "vertices"),
        plural(loaded.graph.num_edges() as u64, "edge", "edges"),
        kept.suffix()
    )];
    said.extend(edited.map(|edits| format!("edited: {edits}")));
    said.extend(kept.said(format));
    account_for_ids(&args.out, &loaded.names, loaded.graph.num_vertices(), format, true, &mut said)?;
    said.extend(isolated_lost(&loaded.graph, &loaded.names, format));
    Ok(said)
}

/// The weights of the file `loaded` was read from: None when it holds none, else the graph read
/// again with them (reading for reachability skips them), or why they cannot be used (a negative
/// weight, a damaged `.grail` weights section, ...): the graph is then written without them.
fn file_weights(loaded: &LoadedGraph) -> Option<Result<WeightedGraph, String>> {
    if !loaded.format.holds_weights() {
        return None;
    }
    match io::load_weighted(&loaded.path, Some(loaded.format)) {
        Ok(weighted) if weighted.origin == WeightOrigin::Unit => None,
        Ok(weighted) => Some(Ok(weighted)),
        Err(e) => Some(Err(format!("{e:#}"))),
    }
}

/// Writes `graph` with the weights `weights_of` gives when the file had usable weights and
/// `format` holds them, else without; says whether they were kept, or why not.
fn write_keeping_weights(
    out: &Path,
    (graph, names, format): (&Graph, &VertexNames, Format),
    weights: Option<Result<WeightedGraph, String>>,
    weights_of: impl FnOnce(&WeightedGraph) -> Result<Vec<Weight>>,
) -> Result<WeightsKept> {
    match weights {
        None => Ok(io::write(out, graph, names, format).map(|()| WeightsKept::NoneRead)?),
        Some(Ok(weighted)) if format.holds_weights() => {
            io::write_with_weights(out, graph, names, &weights_of(&weighted)?, format)?;
            Ok(WeightsKept::Kept)
        }
        Some(Ok(_)) => {
            io::write(out, graph, names, format)?;
            let why = format!("{} holds none; write --to weighted, .mtx or .grail to keep them", value_name(&format));
            Ok(WeightsKept::Dropped(why))
        }
        Some(Err(why)) => Ok(io::write(out, graph, names, format).map(|()| WeightsKept::Dropped(why))?),
    }
}

/// What became of the input's weights.
enum WeightsKept {
    /// The input holds none.
    NoneRead,
    /// Written with the graph.
    Kept,
    /// Not written, and why.
    Dropped(String),
}

impl WeightsKept {
    /// What the first line adds after the edge count.
    fn suffix(&self) -> &'static str {
        if matches!(self, WeightsKept::Kept) { " with their weights" } else { "" }
    }

    /// Why the weights were dropped, if they were, or that a weighted format got unit weights.
    fn said(&self, format: Format) -> Option<String> {
        match self {
            WeightsKept::Dropped(why) => Some(format!("the weights are dropped: {why}")),
            WeightsKept::NoneRead if format == Format::Weighted => {
                Some("every edge is written with weight 1: the input holds no weights".into())
            }
            _ => None,
        }
    }
}

/// The weights of `part`'s edges (positions in `part.vertices`), taken from the whole graph's.
fn part_weights(whole: &WeightedGraph, part: &Extract) -> Result<Vec<Weight>> {
    part.graph
        .edges()
        .map(|(u, v)| {
            let (u, v) = (part.vertices[u as usize], part.vertices[v as usize]);
            whole.weight(u, v).with_context(|| {
                format!("{}: the file changed while it was read (edge {u} -> {v})", whole.loaded.path.display())
            })
        })
        .collect()
}

/// `--around` or `--scc`: the part chosen, written with the file's ids where the format keeps them;
/// returns the lines that say what was written.
fn run_part(args: ConvertArgs) -> Result<Vec<String>> {
    let ws = args.input.open()?;
    let graph = &ws.loaded.graph;
    let max = args.max.map(|m| usize::try_from(m).unwrap_or(usize::MAX));
    // What was chosen, and what `--max` left out when it cut.
    let (part, what, cut): (Extract, String, &str) = match (args.around, args.scc) {
        (Some(id), _) => {
            let v = ws.vertex(&id)?;
            let part = subgraph::around(graph, v, args.depth, max.unwrap_or(AROUND_MAX));
            // Cut by `--max`, the part is the nearest of them, not all: the first line says so too.
            let what = format!(
                "{} within {} of {}",
                if part.left_out { "the nearest vertices" } else { "the vertices" },
                plural(args.depth as u64, "edge", "edges"),
                ws.loaded.names.label(v)
            );
            (part, what, "more vertices lie within reach; the nearest were kept, ancestors and descendants alternately")
        }
        (None, Some(rank)) => {
            let rank = usize::try_from(rank).unwrap_or(usize::MAX);
            let Some((part, cycle)) = subgraph::component(graph, &ws.condensation, rank, max, &ws.loaded.names) else {
                let found = crate::graph::cycles::largest_cyclic(graph, &ws.condensation, 0, Some(0)).cyclic_components;
                let file = args.input.graph.display();
                let why = match found {
                    0 => format!("{file} has no cycles: every strongly connected component is one vertex"),
                    _ => format!(
                        "{file} has {} of two or more vertices (see grail scc)",
                        plural(found, "strongly connected component", "strongly connected components")
                    ),
                };
                bail!("--scc {rank}: {why}");
            };
            let what = format!("{}strongly connected component #{rank}", if part.left_out { "part of " } else { "" });
            let cut = if part.vertices.len() >= cycle {
                "the component has more members; its shortest cycle was kept first, then the others in the order grail scc lists them"
            } else {
                "the component has more members, and its shortest cycle alone has more than that: the part holds no cycle"
            };
            (part, what, cut)
        }
        (None, None) => unreachable!("run_part is called with --around or --scc"),
    };
    let format = output_format(&args.out, args.to);
    let names = subgraph::names_of(&ws.loaded.names, &part.vertices);
    let weights = file_weights(&ws.loaded);
    let kept = write_keeping_weights(&args.out, (&part.graph, &names, format), weights, |w| part_weights(w, &part))?;
    let mut said = vec![format!(
        "{} → {} ({}): {}, {}{}: {what}",
        args.input.graph.display(),
        args.out.display(),
        value_name(&written_format(format, &names)),
        plural(part.graph.num_vertices() as u64, "vertex", "vertices"),
        plural(part.graph.num_edges() as u64, "edge", "edges"),
        kept.suffix()
    )];
    said.extend(kept.said(format));
    if part.left_out {
        said.push(format!("--max {}: {cut}", part.vertices.len()));
    }
    said.extend(isolated_lost(&part.graph, &names, format));
    let named = names.table().is_some();
    if !named && !matches!(format, Format::EdgeList | Format::Grail) {
        said.push(format!(
            "ids renumbered 0 to {} in ascending order ({} numbers vertices densely); an edge list (.txt) keeps the file's ids",
            part.vertices.len().saturating_sub(1),
            value_name(&format)
        ));
    }
    // A part's renumbered ids were just described; its names are described as the whole file's.
    account_for_ids(&args.out, &names, part.graph.num_vertices(), format, named, &mut said)?;
    Ok(said)
}

/// Where `format` loses the names or file ids: says so (when `say`) and writes the table of them
/// beside `out`; where it keeps them, removes a table an earlier conversion left there. What it
/// did goes to `said`.
fn account_for_ids(
    out: &Path,
    names: &VertexNames,
    n: usize,
    format: Format,
    say: bool,
    said: &mut Vec<String>,
) -> Result<()> {
    match what_is_lost(format, names) {
        Some(lost) => {
            if say {
                said.push(lost);
            }
            said.push(write_map(out, names, n, format)?);
        }
        None => {
            // A shift is said in a sentence; a table would list every id plus one.
            if say && format == Format::MatrixMarket && matches!(names, VertexNames::Dense) && n > 0 {
                said.push(format!(
                    "Matrix Market numbers vertices from 1: each id in {} is the input's plus 1 (0 is written as 1)",
                    out.display()
                ));
            }
            said.extend(remove_stale_map(out)?);
        }
    }
    Ok(())
}

/// Removes the table an earlier conversion left beside `out` (this one keeps the ids, so the table
/// would describe another graph); says so when there was one.
fn remove_stale_map(out: &Path) -> Result<Option<String>> {
    let path = io::id_map_path(out);
    if !io::is_id_map(&path) {
        return Ok(None);
    }
    io::remove_on_success(&path)?;
    Ok(Some(format!("removed {}: an earlier conversion's table, which does not describe this file", path.display())))
}

/// Writes the numbers' names (or file ids) beside `out`, whose format numbers vertices densely,
/// and says where.
fn write_map(out: &Path, names: &VertexNames, n: usize, format: Format) -> Result<String> {
    let path = io::id_map_path(out);
    // Matrix Market numbers vertices from 1, every other dense format from 0.
    let first = if format == Format::MatrixMarket { 1 } else { 0 };
    io::write_id_map(&path, names, n, first)?;
    let column = if names.table().is_some() { "name" } else { "file id" };
    Ok(format!("each vertex's number in {} and its {column}: {}", out.display(), path.display()))
}
