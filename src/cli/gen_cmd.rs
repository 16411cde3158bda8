//! `grail gen`: write a generated graph to a file.

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
grail gen tree:n=1000,arity=2 --out tree.mtx --to matrix-market")]
pub struct GenArgs {
    /// What to generate, as `kind:key=value,...` (see below).
    #[arg(value_name = "SPEC")]
    pub spec: GeneratorSpec,

    /// Output file; `.gz` compresses.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,

    /// Output format, any the readers read (default: from the extension, `.gra` → gra, else
    /// edge-list). Only the edge list keeps sparse vertex ids; the others number vertices densely.
    #[arg(long, value_enum)]
    pub to: Option<Format>,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Serialize)]
struct GenReport {
    spec: String,
    out: String,
    vertices: usize,
    edges: usize,
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
    let format = output_format(&args.out, args.to);
    let start = Instant::now();
    io::write(&args.out, &graph, &VertexNames::Dense, format)?;
    let report = GenReport {
        spec: args.spec.to_string(),
        out: args.out.display().to_string(),
        vertices: graph.num_vertices(),
        edges: graph.num_edges(),
        generate_seconds,
        write_seconds: start.elapsed().as_secs_f64(),
    };
    args.output.show(&report)
}

impl Report for GenReport {
    fn print(&self) {
        println!(
            "{}: {}, {}, generated in {}, written to {} in {}",
            self.spec,
            plural(self.vertices as u64, "vertex", "vertices"),
            plural(self.edges as u64, "edge", "edges"),
            duration(self.generate_seconds),
            self.out,
            duration(self.write_seconds)
        );
    }
}
