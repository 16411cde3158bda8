//! `grail exceptions`: the false positives of random-order labels over every ordered pair of the
//! condensation, exact, for d = 1..dims: the Exceptions tab's count from the command line, on the
//! CPU or the GPU.

use super::common::{GraphArgs, table};
use super::output::{Output, Report};
use crate::exact_run::exceptions_on_gpu;
use crate::exceptions::{ExceptionCounts, exact};
use crate::format::{duration, thousands};
use crate::index::{Order, dfs};
use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail exceptions graph.gra\n  grail exceptions graph.gra --device gpu --json\n  \
                        grail exceptions graph.gra --dims 3 --seed 7")]
pub struct ExceptionsArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// Label dimensions: false positives are counted for every d from 1 to this (at most 8 on the GPU).
    #[arg(short = 'd', long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub dims: u16,

    /// Seed of the random order (the explorer's Exceptions tab uses the same labels for the same seed).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Where the pairs are decided. The GPU fails with the reason where there is no usable GPU.
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    pub device: Device,

    #[command(flatten)]
    pub output: Output,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Device {
    /// Every core (the streamed bit-parallel passes, 512 targets at a time).
    Cpu,
    /// The GPU (the same passes, as many targets at a time as fit).
    Gpu,
}

/// Examples printed (the JSON has all that were kept).
const SHOWN: usize = 10;

#[derive(Serialize)]
struct ExceptionsReport {
    file: String,
    /// Strongly connected components: the pairs are theirs.
    components: usize,
    dims: usize,
    seed: u64,
    device: String,
    /// Ordered pairs of distinct components.
    pairs: u64,
    /// Of those, the pairs where the first does not reach the second.
    unreachable: u64,
    /// `false_positives[d - 1]`: unreachable pairs the first d dimensions do not cut.
    false_positives: Vec<u64>,
    /// Some false positives `(u, v, k)` as file ids of a vertex of each component: the first k
    /// dimensions are fooled.
    examples: Vec<(u64, u64, usize)>,
    label_seconds: f64,
    count_seconds: f64,
    #[serde(flatten)]
    gpu: crate::gpu::startup::StartupFields,
}

pub fn run(args: ExceptionsArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let dag = ws.dag();
    let clock = Instant::now();
    let labels = dfs::label(dag, args.dims as usize, Order::Random { seed: args.seed })?;
    let label_seconds = clock.elapsed().as_secs_f64();
    if matches!(args.device, Device::Gpu) {
        // Opened before the count's clock starts, so the count holds none of the start-up; a
        // failure is the count's to report, with the reason.
        let _ = crate::gpu::prepare(crate::exact_run::EXCEPTIONS_MODULES);
    }
    let clock = Instant::now();
    let never = AtomicBool::new(false);
    let counts: ExceptionCounts = match args.device {
        Device::Cpu => exact(dag, &labels, &never, &|_| {})?,
        Device::Gpu => exceptions_on_gpu(dag, &labels, &never, &|_| {})?,
    };
    let count_seconds = clock.elapsed().as_secs_f64();
    let rep = ws.condensation.representatives();
    let file_id = |c: u32| ws.loaded.names.file_id(rep[c as usize]);
    args.output.show(&ExceptionsReport {
        file: args.graph.graph.display().to_string(),
        components: dag.num_vertices(),
        dims: labels.dims(),
        seed: args.seed,
        device: counts.device,
        pairs: counts.pairs,
        unreachable: counts.unreachable,
        false_positives: counts.false_positives,
        examples: counts.examples.iter().map(|&(u, v, k)| (file_id(u), file_id(v), k)).collect(),
        label_seconds,
        count_seconds,
        gpu: crate::gpu::startup::StartupFields::of(crate::gpu::startup_so_far()),
    })
}

impl Report for ExceptionsReport {
    fn print(&self) {
        println!("file        {}", self.file);
        println!(
            "components  {}   labels d = {}, random order, seed {}",
            thousands(self.components as u64),
            self.dims,
            self.seed
        );
        println!("pairs       {} ordered, {} unreachable", thousands(self.pairs), thousands(self.unreachable));
        println!(
            "time        labels {}, count {} on {}",
            duration(self.label_seconds),
            duration(self.count_seconds),
            self.device
        );
        if let Some(line) = self.gpu.line() {
            println!("{line}");
        }
        println!();
        let mut t = table(&["d", "false positives", "% of unreachable"]);
        for (d, &fp) in self.false_positives.iter().enumerate() {
            let rate = if self.unreachable == 0 { 0.0 } else { fp as f64 / self.unreachable as f64 * 100.0 };
            t.add_row(vec![(d + 1).to_string(), thousands(fp), format!("{rate:.3}%")]);
        }
        println!("{t}");
        if !self.examples.is_empty() {
            println!("\nfalse positives fooling the most dimensions (u v: dimensions fooled):");
            for &(u, v, k) in self.examples.iter().take(SHOWN) {
                println!("  {u} {v}: {k}");
            }
        }
    }
}
