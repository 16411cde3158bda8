//! `grail selftest --gpu`: the GPU's labels and answers against the CPU's; non-zero exit on any
//! difference, or when there is no GPU to check.

use super::output::{Output, Report};
use crate::format::plural;
use crate::selftest::{self, CaseResult};
use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail selftest --gpu\n  grail selftest --gpu --datasets ../shared/datasets/grail")]
pub struct SelftestArgs {
    /// Check the GPU back end (labels bit for bit, batch answers one by one) against the CPU.
    #[arg(long)]
    pub gpu: bool,

    /// Also check every graph file in this folder.
    #[arg(long, value_name = "DIR")]
    pub datasets: Option<PathBuf>,

    #[command(flatten)]
    pub output: Output,
}

/// Every checked graph's verdict.
#[derive(Serialize)]
struct SelftestReport {
    device: String,
    cases: Vec<CaseResult>,
    failed: usize,
}

impl Report for SelftestReport {
    /// The per-graph lines were printed as the checks ran; this is the verdict.
    fn print(&self) {
        if self.failed == 0 {
            println!("all {} graphs: GPU labels and answers equal the CPU's", self.cases.len());
        }
    }
}

pub fn run(args: SelftestArgs) -> Result<()> {
    if !args.gpu {
        bail!("say what to check: `grail selftest --gpu` (the CPU back ends are checked by `cargo test`)");
    }
    let gpu = crate::gpu::shared()?;
    let human = args.output.human();
    if human {
        println!(
            "GPU: {} (compute capability {}.{})",
            gpu.info.name, gpu.info.compute_capability.0, gpu.info.compute_capability.1
        );
        println!("kernels: {}", gpu.kernel_origin());
    }
    let bundled = crate::workspace::Workspace::bundled()?;
    let cases = selftest::run(gpu, &bundled, args.datasets.as_deref(), &mut |r| {
        if human {
            let verdict = if r.problems.is_empty() { "ok" } else { "DIFFERENT" };
            // Cases of the exact and shortest-path engines compare no labels, only their answers.
            let checked = match r.label_checks {
                0 => format!("{} equal", plural(r.queries as u64, "check", "checks")),
                runs => format!(
                    "{} equal, {}",
                    plural(runs as u64, "label run", "label runs"),
                    plural(r.queries as u64, "query", "queries")
                ),
            };
            println!(
                "{verdict:>9}  {} ({}, {}): {checked}",
                r.graph,
                plural(r.vertices as u64, "vertex", "vertices"),
                plural(r.edges as u64, "edge", "edges"),
            );
            for p in &r.problems {
                println!("           {p}");
            }
        }
    })?;
    let failed = cases.iter().filter(|r| !r.problems.is_empty()).count();
    let total = cases.len();
    args.output.show(&SelftestReport { device: gpu.info.name.clone(), cases, failed })?;
    if failed > 0 {
        return Err(super::exit::Disagreement(format!("{failed} of {total} graphs differ between GPU and CPU")).into());
    }
    Ok(())
}
