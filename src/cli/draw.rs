//! `grail draw`: a picture of the graph for slides, as SVG or Graphviz DOT: small graphs whole,
//! large ones as the neighbourhood of a vertex; the DFS tree and intervals of one dimension, and
//! optionally a query's search laid over it.

use super::common::{GraphArgs, OrderKind};
use crate::draw::search_trace::{dead_end_note, search_overlay};
use crate::draw::{self, ComponentMembers, EdgeKind, MAX_CAP, SearchOverlay, Sources, Subgraph};
use crate::format::plural;
use crate::graph::io::write_atomically;
use crate::index::dfs;
use crate::query::RuleSet;
use crate::query::explain::Names;
use crate::reachability::{Index, LabelSource};
use crate::telemetry::NullSink;
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail draw sample-graphs/lesson.gra --dims 2 --out lesson.svg\n  \
                        grail draw sample-graphs/lesson.gra --dims 1 --query 3 9 --out lesson.dot\n  \
                        grail draw big.gra --around 17 --depth 2 --cap 40 --out around-17.svg")]
pub struct DrawArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// Label dimensions to build (the search prunes with all of them).
    #[arg(short = 'd', long, default_value_t = crate::backend::DEFAULT_DIMS as u16, value_parser = super::values::whole::<u16, 1, 64>)]
    pub dims: u16,

    /// The dimension whose intervals and DFS tree the picture shows (numbered from 0).
    #[arg(long, default_value_t = 0)]
    pub dim: usize,

    /// Children order per dimension.
    #[arg(long, value_enum, default_value_t = OrderKind::Random)]
    pub order: OrderKind,

    /// Seed of the random order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Lay this query's label-guided search over the picture (file ids, or names): u, v, the
    /// path, the vertices expanded, those pruned by a label and the dead ends.
    #[arg(long, num_args = 2, value_names = ["U", "V"])]
    pub query: Option<Vec<String>>,

    /// Which cuts the query's search uses, as `grail query --rules`: `all` (GRAIL's and the query
    /// index's; the search is bidirectional) or `grail` (the paper's, with GRAIL's DFS).
    #[arg(long, value_enum, default_value_t = RuleSet::All)]
    pub rules: RuleSet,

    /// Draw the neighbourhood of this vertex (file id, or name) instead of the whole graph.
    #[arg(long, value_name = "V")]
    pub around: Option<String>,

    /// How many edges up (ancestors) and down (descendants) the neighbourhood reaches.
    #[arg(long, default_value_t = 2, value_name = "K")]
    pub depth: u32,

    /// The most vertices (components) a neighbourhood holds.
    #[arg(long, default_value_t = 40, value_name = "N", value_parser = super::values::whole::<u32, 1, { MAX_CAP as u64 }>)]
    pub cap: u32,

    /// Where to write the picture: `.svg` or `.dot` (Graphviz).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Svg,
    Dot,
}

pub fn run(args: DrawArgs) -> Result<()> {
    super::common::refuse_overwriting(&[Some(&args.graph.graph)], &[Some(&args.out)])?;
    let output = output_kind(&args.out)?;
    let dims = args.dims as usize;
    if args.dim >= dims {
        bail!("--dim {} does not exist with --dims {dims} (dimensions are numbered 0 to {})", args.dim, dims - 1);
    }
    let ws = Arc::new(args.graph.open()?);
    let query = match &args.query {
        Some(ids) => match ids.as_slice() {
            [u, v] => Some((ws.vertex(u)?, ws.vertex(v)?)),
            _ => bail!("--query takes two vertices: U V"),
        },
        None => None,
    };
    let around = args.around.as_deref().map(|typed| ws.vertex(typed)).transpose()?;
    let order = args.order.with_seed(args.seed);
    let labels = Arc::new(dfs::label(ws.dag(), dims, order).context("cannot label the graph")?);
    // The query index only serves a query's search.
    let rules = if query.is_some() { args.rules } else { RuleSet::Grail };
    let index = Index::assemble(Arc::clone(&ws), LabelSource::Ready(labels), rules, &mut NullSink)?;
    let (engine, labels) = (index.engine(), index.labels());
    let representative = ws.condensation.representatives();
    let shown = &ws.loaded.names;
    let sizes = &ws.condensation.sizes;
    let vertex =
        |c: u32| crate::query::explain::component_label(shown.label(representative[c as usize]), sizes[c as usize]);
    let search: Option<SearchOverlay> = query.map(|(u, v)| {
        let names = Names { u: shown.label(u), v: shown.label(v), vertex: &vertex };
        search_overlay(&engine, u, v, &names).0
    });
    let (subgraph, scope) = choose_subgraph(&ws, &args, around, query, search.as_ref())?;
    let members = ComponentMembers::new(&ws.condensation);
    let sources = Sources {
        dag: ws.dag(),
        members: &members,
        names: &ws.loaded.names,
        labels: Some(labels),
        dim: args.dim,
        step: None,
        search: search.as_ref(),
    };
    let file =
        ws.loaded.path.file_name().map_or_else(|| ws.loaded.path.display().to_string(), |f| f.to_string_lossy().into());
    let mut picture = draw::build(&sources, &subgraph, format!("{file}: {scope}"))?;
    picture.notes.insert(0, format!("intervals [s, post] and DFS tree of dimension {} of {dims}, {order}", args.dim));
    if let Some(note) = search.as_ref().and_then(|s| dead_end_note(s, &picture)) {
        picture.notes.push(note);
    }
    let text = match output {
        Output::Svg => draw::svg::render(&picture),
        Output::Dot => draw::dot::render(&picture),
    };
    write_atomically(&args.out, |mut file| file.write_all(text.as_bytes()))?;
    let bold = picture.edges.iter().filter(|e| e.kind != EdgeKind::Other).count();
    println!(
        "wrote {}: {}, {} ({bold} bold: the DFS tree of dimension {} and any path), {scope}",
        args.out.display(),
        plural(picture.nodes.len() as u64, "box", "boxes"),
        plural(picture.edges.len() as u64, "edge", "edges"),
        args.dim
    );
    for note in &picture.notes {
        println!("  {note}");
    }
    Ok(())
}

/// `.svg` or `.dot` (also `.gv`), from the file name.
fn output_kind(path: &Path) -> Result<Output> {
    let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("svg") => Ok(Output::Svg),
        Some("dot" | "gv") => Ok(Output::Dot),
        _ => bail!("cannot tell the picture format from {}: name the file .svg or .dot", path.display()),
    }
}

/// The whole graph when it is small and no neighbourhood was asked for; else the neighbourhood of
/// `--around`, or of the query's ends and path. Returns it with words for the title.
fn choose_subgraph(
    ws: &Workspace,
    args: &DrawArgs,
    around: Option<u32>,
    query: Option<(u32, u32)>,
    search: Option<&SearchOverlay>,
) -> Result<(Subgraph, String)> {
    let dag = ws.dag();
    let component = &ws.condensation.component;
    let mut seeds: Vec<u32> = around.map(|v| component[v as usize]).into_iter().collect();
    if let Some(search) = search {
        seeds.extend([search.source, search.target]);
        seeds.extend(&search.path);
    }
    if around.is_none() {
        match Subgraph::whole(dag) {
            Ok(whole) => {
                return Ok((
                    whole,
                    format!(
                        "the whole graph ({} after condensation)",
                        plural(dag.num_vertices() as u64, "vertex", "vertices")
                    ),
                ));
            }
            Err(too_large) if search.is_none() => {
                bail!("{too_large}: pass --around V (a vertex id or name of the file) to draw its neighbourhood")
            }
            Err(_) => {}
        }
    }
    let subgraph = Subgraph::around(dag, &seeds, args.depth, args.cap as usize);
    let shown = &ws.loaded.names;
    let centre = match (around, query) {
        (Some(v), _) => format!("around {}", shown.label(v)),
        (None, Some((u, v))) => format!("around {} and {}", shown.label(u), shown.label(v)),
        (None, None) => "around nothing".into(),
    };
    let cap = plural(u64::from(args.cap), "vertex", "vertices");
    let scope = format!("{centre} (depth {}, at most {cap})", args.depth);
    Ok((subgraph, scope))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_picks_the_format() {
        assert_eq!(output_kind(Path::new("a.svg")).unwrap(), Output::Svg);
        assert_eq!(output_kind(Path::new("a.DOT")).unwrap(), Output::Dot);
        let err = output_kind(Path::new("a.png")).unwrap_err().to_string();
        assert!(err.contains("name the file .svg or .dot"), "{err}");
        assert!(output_kind(Path::new("noextension")).is_err());
    }
}
