//! `grail gen`: write a generated graph to a file, with random integer weights on request.

use super::common::spinner;
use super::convert::output_format;
use super::output::{Output, Report};
use crate::format::{duration, plural};
use crate::graph::VertexNames;
use crate::graph::generators::GeneratorSpec;
use crate::graph::io::{self, Format};
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "Specs (every random one takes a seed, so graphs can be regenerated):\n  \
    random:n=1000000,deg=50,seed=7     random DAG like the papers' home-made graphs\n  \
    chain:n=100000                     one long path\n  \
    deep:n=200000,deg=2,depth=20000,seed=7   deep, narrow random DAG (20,000 Kahn levels)\n  \
    tree:n=100000,arity=3              a complete tree, edges parent -> child\n  \
    ladder:k=64                        diamond ladder (path counts double per rung)\n  \
    scalefree:n=10000,m=2,seed=1       preferential attachment, new -> old\n  \
    fan:width=20000,layers=3,seed=1    wide layers, vertices of very high degree\n  \
    digraph:n=10000,deg=3,seed=1       random digraph with cycles\n\n\
Examples:\n  grail gen random:n=1000000,deg=50,seed=7 --out r1m.gra\n  grail gen ladder:k=70 --out ladder.txt\n  \
grail gen tree:n=1000,arity=2 --out tree.mtx --to matrix-market\n  \
grail gen digraph:n=1000000,deg=8,seed=1 --max-weight 100 --out w1m.txt")]
pub struct GenArgs {
    /// What to generate, as `kind:key=value,...` (see below).
    #[arg(value_name = "SPEC")]
    pub spec: GeneratorSpec,

    /// Output file; `.gz` compresses.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,

    /// Output format, any the readers read (default: from the extension, `.gra` → gra, `.mtx` →
    /// matrix-market, `.grail` → grail, else edge-list, or weighted with --max-weight). Only the
    /// edge list keeps sparse vertex ids; the others number vertices densely.
    #[arg(long, value_enum)]
    pub to: Option<Format>,

    /// Draw a weight per edge from the integers 0..=this (for `grail sssp` and `grail apsp`),
    /// written in a format that holds weights: the weighted format (`n m directed`, then `src dst
    /// weight`; the default), Matrix Market (`.mtx`, a `real` matrix) or `.grail`.
    #[arg(long, value_name = "W")]
    pub max_weight: Option<u32>,

    /// With --max-weight: the seed of the weights.
    #[arg(long, default_value_t = 1, requires = "max_weight")]
    pub weight_seed: u64,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct GenReport {
    spec: String,
    out: String,
    vertices: usize,
    edges: usize,
    /// Weights drawn from 0..=this; null: no weights written.
    max_weight: Option<u32>,
    generate_seconds: f64,
    write_seconds: f64,
}

pub fn run(args: GenArgs) -> Result<()> {
    let bar = spinner(format!("generating {}", args.spec));
    let start = Instant::now();
    let graph = args.spec.generate();
    let generate_seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let graph = graph.with_context(|| format!("cannot generate {}", args.spec))?;
    let (vertices, edges) = (graph.num_vertices(), graph.num_edges());
    let start = Instant::now();
    match args.max_weight {
        Some(max_weight) => {
            let name = args.spec.to_string();
            let format = weighted_format(&args)?;
            let weighted = crate::weighted::random::with_random_weights(graph, max_weight, args.weight_seed, &name)?;
            io::write_weighted(&args.out, &weighted, format)?;
        }
        None => io::write(&args.out, &graph, &VertexNames::Dense, output_format(&args.out, args.to))?,
    }
    let report = GenReport {
        spec: args.spec.to_string(),
        out: args.out.display().to_string(),
        vertices,
        edges,
        max_weight: args.max_weight,
        generate_seconds,
        write_seconds: start.elapsed().as_secs_f64(),
    };
    args.output.show(&report)
}

/// The format --max-weight writes: `--to` when it holds weights, else `.grail` → grail, `.mtx` →
/// matrix-market, anything else → weighted.
fn weighted_format(args: &GenArgs) -> Result<Format> {
    match args.to {
        Some(to) if !to.holds_weights() => anyhow::bail!(
            "--to {}: that format holds no weights; --max-weight writes weighted, matrix-market or grail",
            super::common::value_name(&to)
        ),
        Some(to) => Ok(to),
        None => Ok(match output_format(&args.out, None) {
            format @ (Format::Grail | Format::MatrixMarket) => format,
            _ => Format::Weighted,
        }),
    }
}

impl Report for GenReport {
    fn print(&self) {
        let weights = self.max_weight.map_or(String::new(), |w| format!(" weighing 0 to {w}"));
        println!(
            "{}: {}, {}{weights}, generated in {}, written to {} in {}",
            self.spec,
            plural(self.vertices as u64, "vertex", "vertices"),
            plural(self.edges as u64, "edge", "edges"),
            duration(self.generate_seconds),
            self.out,
            duration(self.write_seconds)
        );
    }
}
