//! `grail exceptions`: the false positives of random-order labels over the ordered pairs of the
//! condensation, for d = 1..dims: the Exceptions tab's count from the command line, with the same
//! plan (`crate::exceptions::ExceptionPlan`): exact on the CPU or the GPU within their limits,
//! estimated from sampled pairs above them unless `--exact` insists.

use super::common::{GraphArgs, table};
use super::output::{Output, Report, vertex_text};
use crate::exact_run::exceptions_on_gpu;
use crate::exceptions::{self, CountMethod, ExceptionCounts, ExceptionPlan};
use crate::format::{duration, thousands};
use crate::index::{Order, dfs};
use anyhow::Result;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail exceptions graph.gra\n  grail exceptions graph.gra --device gpu --json\n  \
                        grail exceptions graph.gra --dims 3 --seed 7\n  grail exceptions big.gra --samples 1000000\n  \
                        grail exceptions big.gra --exact")]
pub struct ExceptionsArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// Label dimensions: false positives are counted for every d from 1 to this (at most 8 on the GPU).
    #[arg(short = 'd', long, default_value_t = 5, value_parser = super::values::whole::<u16, 1, 64>)]
    pub dims: u16,

    /// Seed of the random order and of the sampled pairs (the explorer's Exceptions tab uses the
    /// same labels and pairs for the same seed).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Where the pairs are decided. The GPU fails with the reason where there is no usable GPU.
    /// Sampled pairs are decided on the CPU.
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    pub device: Device,

    /// Count every ordered pair even above the device's exact limit (100,000 components on the
    /// CPU, 2,000,000 on the GPU), where the default is an estimate from sampled pairs. The time
    /// grows with the square of the components.
    #[arg(long)]
    pub exact: bool,

    /// Pairs sampled above the exact limit.
    #[arg(long, default_value_t = exceptions::SAMPLES as u64, value_parser = super::values::whole::<u64, 1, { u64::MAX }>)]
    pub samples: u64,

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
    /// Seed of the random order, and of the sampled pairs when sampled.
    seed: u64,
    /// `exact-cpu`, `exact-gpu` or `sampled`.
    method: CountMethod,
    device: String,
    /// Ordered pairs of distinct components.
    all_pairs: u64,
    /// The most components the device counts exactly without `--exact`.
    exact_limit: usize,
    /// Ordered pairs decided: all of them, or the samples.
    pairs: u64,
    /// Pairs sampled (uniform ordered pairs of distinct components); `None` when exact.
    samples: Option<u64>,
    /// Of the pairs decided, those where the first does not reach the second.
    unreachable: u64,
    /// `false_positives[d - 1]`: pairs decided that are unreachable and that the first d
    /// dimensions do not cut.
    false_positives: Vec<u64>,
    /// For an estimate, per d: the false positives among all pairs and their share of the
    /// unreachable pairs, each with its 95% Wilson interval. `None` when exact.
    estimates: Option<Vec<Estimate>>,
    /// Some false positives `(u, v, k)` as file ids of a vertex of each component: the first k
    /// dimensions are fooled.
    examples: Vec<(serde_json::Value, serde_json::Value, usize)>,
    label_seconds: f64,
    count_seconds: f64,
    #[serde(flatten)]
    gpu: crate::gpu::startup::StartupFields,
}

#[derive(Serialize)]
struct Estimate {
    d: usize,
    false_positives: f64,
    false_positives_low: f64,
    false_positives_high: f64,
    rate: f64,
    rate_low: f64,
    rate_high: f64,
}

impl Estimate {
    fn all(counts: &ExceptionCounts) -> Option<Vec<Estimate>> {
        (1..=counts.false_positives.len())
            .map(|d| {
                let (false_positives_low, false_positives_high) = counts.scaled_interval(d)?;
                let (rate_low, rate_high) = counts.rate_interval(d)?;
                Some(Estimate {
                    d,
                    false_positives: counts.scaled(d),
                    false_positives_low,
                    false_positives_high,
                    rate: counts.rate(d),
                    rate_low,
                    rate_high,
                })
            })
            .collect()
    }
}

pub fn run(args: ExceptionsArgs) -> Result<()> {
    let ws = args.graph.open()?;
    let dag = ws.dag();
    let n = dag.num_vertices();
    let gpu = matches!(args.device, Device::Gpu);
    let plan = ExceptionPlan::on_device(n, gpu, args.exact);
    if plan != ExceptionPlan::Sampled && n > ExceptionPlan::limit(gpu) {
        eprintln!(
            "warning: --exact decides all {} ordered pairs of {} components, above the {} counted exactly by \
             default on the {}: the time grows with the square of the components",
            thousands(n as u64 * (n as u64 - 1)),
            thousands(n as u64),
            thousands(ExceptionPlan::limit(gpu) as u64),
            if gpu { "GPU" } else { "CPU" }
        );
    }
    let clock = Instant::now();
    let labels = dfs::label(dag, args.dims as usize, Order::Random { seed: args.seed })?;
    let label_seconds = clock.elapsed().as_secs_f64();
    if plan == ExceptionPlan::Gpu {
        // Opened before the count's clock starts, so the count holds none of the start-up; a
        // failure is the count's to report, with the reason.
        let _ = crate::gpu::prepare(crate::exact_run::EXCEPTIONS_MODULES);
    }
    let samples = usize::try_from(args.samples).unwrap_or(usize::MAX);
    let bar = progress_bar(plan, samples);
    let progress = |f: f64| bar.set_position((f * 1000.0) as u64);
    let clock = Instant::now();
    let never = AtomicBool::new(false);
    let counts = match plan {
        ExceptionPlan::Cpu => exceptions::exact(dag, &labels, &never, &progress)?,
        ExceptionPlan::Gpu => exceptions_on_gpu(dag, &labels, &never, &progress)?,
        ExceptionPlan::Sampled => exceptions::sampled(dag, &labels, samples, args.seed, &never, &progress)?,
    };
    bar.finish_and_clear();
    let count_seconds = clock.elapsed().as_secs_f64();
    let rep = ws.condensation.representatives();
    let file_id = |c: u32| ws.loaded.names.json_id(rep[c as usize]);
    let method = counts.method();
    args.output.show(&ExceptionsReport {
        file: args.graph.graph.display().to_string(),
        components: n,
        dims: labels.dims(),
        seed: args.seed,
        method,
        all_pairs: n as u64 * (n as u64).saturating_sub(1),
        exact_limit: ExceptionPlan::limit(gpu),
        pairs: counts.pairs,
        samples: (method == CountMethod::Sampled).then_some(counts.pairs),
        unreachable: counts.unreachable,
        estimates: Estimate::all(&counts),
        examples: counts.examples.iter().map(|&(u, v, k)| (file_id(u), file_id(v), k)).collect(),
        false_positives: counts.false_positives,
        device: counts.device,
        label_seconds,
        count_seconds,
        gpu: crate::gpu::startup::StartupFields::of(crate::gpu::startup_so_far()),
    })
}

/// The count's progress on stderr, drawn only when stderr is a terminal.
fn progress_bar(plan: ExceptionPlan, samples: usize) -> ProgressBar {
    let bar = ProgressBar::new(1000);
    let what = match plan {
        ExceptionPlan::Sampled => format!("deciding {} sampled pairs", thousands(samples as u64)),
        ExceptionPlan::Cpu | ExceptionPlan::Gpu => plan.describe().to_string(),
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {percent}% {elapsed}, about {eta} left")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(what);
    bar
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
        match self.samples {
            Some(samples) => {
                println!(
                    "method      sampled: an estimate from {} uniform ordered pairs (seed {}) of the {} ordered pairs; \
                     95% Wilson intervals",
                    thousands(samples),
                    self.seed,
                    thousands(self.all_pairs)
                );
                println!(
                    "            ({} components is above the {} counted exactly by default; --exact counts every pair)",
                    thousands(self.components as u64),
                    thousands(self.exact_limit as u64)
                );
                println!("pairs       {} sampled, {} unreachable", thousands(self.pairs), thousands(self.unreachable));
            }
            None => {
                println!("method      {}: every ordered pair", self.method.name());
                println!("pairs       {} ordered, {} unreachable", thousands(self.pairs), thousands(self.unreachable));
            }
        }
        let verb = if self.samples.is_some() { "estimate" } else { "count" };
        println!(
            "time        labels {}, {verb} {} on {}",
            duration(self.label_seconds),
            duration(self.count_seconds),
            self.device
        );
        if let Some(line) = self.gpu.line() {
            println!("{line}");
        }
        println!();
        match &self.estimates {
            Some(estimates) => {
                let mut t = table(&["d", "false positives (est.)", "95% interval", "% of unreachable", "95% interval"]);
                for e in estimates {
                    t.add_row(vec![
                        e.d.to_string(),
                        format!("~{}", thousands(e.false_positives.round() as u64)),
                        format!(
                            "{} to {}",
                            thousands(e.false_positives_low.round() as u64),
                            thousands(e.false_positives_high.round() as u64)
                        ),
                        format!("{:.3}%", e.rate * 100.0),
                        format!("{:.3}% to {:.3}%", e.rate_low * 100.0, e.rate_high * 100.0),
                    ]);
                }
                println!("{t}");
            }
            None => {
                let mut t = table(&["d", "false positives", "% of unreachable"]);
                for (d, &fp) in self.false_positives.iter().enumerate() {
                    let rate = if self.unreachable == 0 { 0.0 } else { fp as f64 / self.unreachable as f64 * 100.0 };
                    t.add_row(vec![(d + 1).to_string(), thousands(fp), format!("{rate:.3}%")]);
                }
                println!("{t}");
            }
        }
        if !self.examples.is_empty() {
            let found = if self.samples.is_some() { "among the sampled pairs, " } else { "" };
            println!("\n{found}false positives fooling the most dimensions (u v: dimensions fooled):");
            for (u, v, k) in self.examples.iter().take(SHOWN) {
                println!("  {} {}: {k}", vertex_text(u), vertex_text(v));
            }
        }
    }
}
