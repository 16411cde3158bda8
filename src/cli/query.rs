//! `grail query`: one pair with a full explanation, or a batch (file or random) with a summary.

use super::common::{GraphArgs, LabelOptions, spinner, table};
use super::output::{Output, Report, vertex_text};
use crate::format::{duration, plural, thousands};
use crate::index::Interval;
use crate::query::explain::{self, Names};
use crate::query::{
    self, Answer, BatchReport, Decided, Decision, Method, Outcome, Query, QueryIndex, Rule, RuleCounts, RuleSet,
};
use crate::reachability::{BatchOn, BatchRan, BatchRun, GpuRan, Index};
use crate::telemetry::{Backend, NullSink};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grail query graph.gra 12 345\n  \
                        grail query graph.gra --file queries.test.gz --json\n  \
                        grail query graph.gra --random 1000000 --query-seed 3 --method guided-bfs\n  \
                        grail query graph.gra --file queries.test.gz --rules grail   (GRAIL's cuts only, as in the paper)\n  \
                        grail query graph.gra --script edits.txt   (+ u v inserts, - u v deletes, ? u v [0|1] asks)\n  \
                        grail query graph.gra 12 345 --why   (the vertices and edges on every path)")]
pub struct QueryArgs {
    #[command(flatten)]
    pub graph: GraphArgs,

    /// Source vertex (the id used in the file, or its name when the file names its vertices).
    #[arg(value_name = "SRC", requires = "dst", conflicts_with_all = ["file", "random"])]
    pub src: Option<String>,

    /// Destination vertex (the id used in the file, or its name).
    #[arg(value_name = "DST")]
    pub dst: Option<String>,

    /// Query file: `src dst [expected 0/1]` per line (gzip allowed). Expected answers are checked.
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "random")]
    pub file: Option<PathBuf>,

    /// N uniformly random pairs (see --query-seed).
    #[arg(long, short = 'r', value_name = "N")]
    pub random: Option<usize>,

    /// Draw the random pairs from reachable ones (every answer yes): a uniform source with an
    /// out-edge, and where a random walk of 1 to 16 steps from it stops.
    #[arg(long, requires = "random")]
    pub reachable: bool,

    /// Seed of the random pairs.
    #[arg(long, default_value_t = 1)]
    pub query_seed: u64,

    /// How undecided queries are searched: guided DFS/BFS (with every rule, guided BFS is
    /// bidirectional), or unguided DFS/BFS as baselines. Default: guided-bfs with `--rules all`,
    /// guided-dfs (GRAIL's) with `--rules grail`.
    #[arg(long, short = 'm', value_enum)]
    pub method: Option<Method>,

    /// Which cuts decide and prune: `all` (GRAIL's plus the query index's: topological orders,
    /// supportive vertices, Bloom filters; built after labeling) or `grail` (the paper's only).
    #[arg(long, value_enum, default_value_t = RuleSet::All)]
    pub rules: RuleSet,

    /// Answer a batch on the GPU: every rule and the searches on the device, judged by the same
    /// rules (a short depth-first search per query, then concurrent bidirectional BFSs for those
    /// it gives up).
    #[arg(long, conflicts_with = "src")]
    pub gpu: bool,

    /// With --gpu only: the batch size in 64-query words per vertex (64·W queries per batch, W from
    /// 1 to 64; default 64, or fewer where the GPU's free memory does not hold them).
    #[arg(long, requires = "gpu")]
    pub words: Option<usize>,

    /// With --gpu only: the most vertices each query's short search (a warp, depth first) expands
    /// before the query goes to the batched BFSs; 0 sends every searched query to the batches.
    #[arg(long, requires = "gpu", default_value_t = crate::gpu::search::SHORT_SEARCH_EXPANSIONS)]
    pub short_expansions: u32,

    /// Edit script: `+ u v` inserts the edge u → v, `- u v` deletes it, `? u v [0|1]` asks (with
    /// the answer expected, checked); run in order on one index, each edit's update timed beside a
    /// rebuild of the edited graph.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["src", "file", "random", "gpu"])]
    pub script: Option<PathBuf>,

    /// With SRC DST: what holds the pair together: the vertices every path from SRC to DST visits
    /// and the edges every path crosses (deleting one puts DST out of reach). Exact, from the graph.
    #[arg(long, requires = "src")]
    pub why: bool,

    #[command(flatten)]
    pub labels: LabelOptions,

    #[command(flatten)]
    pub output: Output,
}

pub fn run(args: QueryArgs) -> Result<()> {
    let ws = args.graph.open()?;
    if let Some(path) = &args.script {
        return super::script::run(ws, path, &args.labels, args.rules, args.output);
    }
    if let (true, Some(src), Some(dst)) = (args.why, &args.src, &args.dst) {
        return super::why::run(&ws, src, dst, args.output);
    }
    let index = args.labels.index(Arc::new(ws), args.rules, &mut NullSink)?;
    let ran = LabelsRan { backend: index.backend(), fallback: index.fallback().map(str::to_string) };
    let ws = index.workspace();
    match (&args.src, &args.dst, &args.file, args.random) {
        (Some(src), Some(dst), _, _) => single(&index, src, dst, ran, &args),
        (_, _, Some(path), _) => {
            let queries = query::read_query_file(path, &ws.loaded.names, ws.loaded.graph.num_vertices())?;
            batch(&index, &queries, ran, &args)
        }
        (_, _, None, Some(count)) => {
            let queries = if args.reachable {
                query::reachable_queries(&ws.loaded.graph, count, args.query_seed)
            } else {
                query::random_queries(ws.loaded.graph.num_vertices(), count, args.query_seed)
            };
            batch(&index, &queries, ran, &args)
        }
        _ => bail!(
            "say what to ask: `SRC DST`, `--file QUERIES`, `--random N` or `--script EDITS` (see grail query --help)"
        ),
    }
}

/// Which back end built the labels (none when they were read from `--index`), and why it is not
/// the one asked for where it fell back: in every report, as `grail label` says it.
#[derive(Serialize)]
struct LabelsRan {
    backend: Option<Backend>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<String>,
}

#[derive(Serialize)]
struct SingleReport<'a> {
    #[serde(flatten)]
    ran: LabelsRan,
    /// The source: its file id, or its name in a named graph.
    src: serde_json::Value,
    dst: serde_json::Value,
    /// How the source and the destination are shown (for the text output).
    #[serde(skip)]
    shown: [String; 2],
    #[serde(flatten)]
    answer: &'a Answer,
    /// The path in file ids or names, vertex by vertex along the file's edges (`dag_path` is the
    /// same path as the search found it, through components).
    path_ids: Option<Vec<serde_json::Value>>,
    /// The same path as the text output shows it.
    #[serde(skip)]
    path_shown: Option<Vec<String>>,
    /// Each DAG vertex (a strongly connected component) the report names (`dag_path`, a check's
    /// `dag_vertex`), by its number: how many vertices of the file it holds, and the one it is
    /// shown by (the member with the smallest id, or its name).
    components: std::collections::BTreeMap<u32, ComponentShown>,
    /// Per dimension, the source's and the destination's intervals (whether or not the label check
    /// ran: `decision` says which checks did).
    intervals: Vec<[Interval; 2]>,
    /// Topological levels of the source and the destination.
    levels: [u32; 2],
    /// Every check the engine ran, in order, with what it read; the last one decided.
    decision: &'a Decision,
    /// Why the last check decided, in sentences rendered from `decision`.
    explanation: String,
    /// One line per check, rendered from `decision` (for the text output).
    #[serde(skip)]
    trail: Vec<(Rule, String, Outcome)>,
}

/// A component as a report names it.
#[derive(Serialize)]
struct ComponentShown {
    size: u32,
    shown_as: serde_json::Value,
}

fn single(index: &Index, src: &str, dst: &str, ran: LabelsRan, args: &QueryArgs) -> Result<()> {
    let (ws, labels) = (index.workspace(), index.labels());
    let (u, v) = (ws.vertex(src)?, ws.vertex(dst)?);
    let shown_names = &ws.loaded.names;
    let Decided { answer, decision, .. } = index.decide(u, v, method_of(args), 0);
    let representative = ws.condensation.representatives();
    // The search's path runs through components; the one shown runs through the file's own edges.
    let vertex_path = answer.path.as_ref().and_then(|p| ws.vertex_path(u, v, p));
    let path_ids = vertex_path.as_ref().map(|p| p.iter().map(|&x| shown_names.json_id(x)).collect::<Vec<_>>());
    let path_shown = vertex_path.as_ref().map(|p| p.iter().map(|&x| shown_names.label(x)).collect::<Vec<_>>());
    let (cu, cv) = decision.ends;
    let intervals = (0..labels.dims()).map(|i| [labels.interval(cu, i), labels.interval(cv, i)]).collect();
    let levels = [labels.level(cu), labels.level(cv)];
    let named = answer.path.iter().flatten().copied().chain(decision.named_vertices());
    let sizes = &ws.condensation.sizes;
    let components = named
        .map(|c| {
            let shown_as = shown_names.json_id(representative[c as usize]);
            (c, ComponentShown { size: sizes[c as usize], shown_as })
        })
        .collect();
    let vertex = |c: u32| explain::component_label(shown_names.label(representative[c as usize]), sizes[c as usize]);
    let names = Names { u: shown_names.label(u), v: shown_names.label(v), vertex: &vertex };
    let explanation = explain::sentence(&decision, &names);
    let trail = explain::trail(&decision, &names);
    let report = SingleReport {
        ran,
        src: shown_names.json_id(u),
        dst: shown_names.json_id(v),
        shown: [names.u.clone(), names.v.clone()],
        answer: &answer,
        path_ids,
        path_shown,
        components,
        intervals,
        levels,
        decision: &decision,
        explanation,
        trail,
    };
    args.output.show(&report)
}

impl Report for SingleReport<'_> {
    fn print(&self) {
        let ([src, dst], answer, decision) = (&self.shown, self.answer, self.decision);
        let verdict = if answer.reachable { "YES" } else { "NO" };
        println!(
            "{src} ⇝ {dst}?  {verdict}, decided by {} ({} rules)",
            explain::rule_with_witness(decision),
            decision.rules
        );
        println!("{}", self.explanation);
        println!();
        let mut checks = table(&["check", "read", "outcome"]);
        for (rule, reading, outcome) in &self.trail {
            checks.add_row(vec![rule.name().to_string(), reading.clone(), explain::outcome_word(*outcome).into()]);
        }
        println!("checks, in the order they ran:");
        println!("{checks}");
        println!();
        let cut = decision.labels().and_then(|(_, _, cut)| cut);
        match decision.labels() {
            None => println!("intervals (not checked: {} decided first)", decision.rule()),
            Some((_, _, Some(d))) => println!("intervals, as the label check read them (dimension {d} cut first)"),
            Some((_, _, None)) => println!("intervals, as the label check read them"),
        }
        let mut t = table(&["dim", &format!("L({src})"), &format!("L({dst})"), "contained"]);
        for (i, [a, b]) in self.intervals.iter().enumerate() {
            let inside = match (a.contains(*b), cut == Some(i)) {
                (_, true) => "no: cut",
                (true, false) => "yes",
                (false, false) => "no",
            };
            t.add_row(vec![
                i.to_string(),
                format!("[{}, {}]", a.low, a.post),
                format!("[{}, {}]", b.low, b.post),
                inside.into(),
            ]);
        }
        println!("{t}");
        println!("levels {} → {}", self.levels[0], self.levels[1]);
        if let Some(shown) = &self.path_shown {
            println!("path   {}", shown.join(" → "));
        }
    }
}

/// The search asked for, or the one that goes with the rules.
fn method_of(args: &QueryArgs) -> Method {
    args.method.unwrap_or(args.rules.default_method())
}

#[derive(Serialize)]
struct BatchOutput<'a> {
    file: String,
    #[serde(flatten)]
    ran: LabelsRan,
    source: String,
    dims: usize,
    order: String,
    label_seconds: f64,
    /// The rules tried.
    rules: RuleSet,
    /// Building the query index (0 with `--rules grail`); part of the index time.
    query_index_seconds: f64,
    /// Bytes of the labels and of the query index (0 with `--rules grail`).
    label_bytes: usize,
    query_index_bytes: usize,
    #[serde(flatten)]
    report: &'a BatchReport,
    /// The mismatches' vertices as the file names them: `[src, dst]` per example (the examples
    /// hold dense ids).
    mismatch_vertices: Vec<[serde_json::Value; 2]>,
    #[serde(flatten)]
    fp: FalsePositives,
}

/// The labels' false positives among the queries: no-answers that no cut ruled out, so a search
/// had to prove them ([`BatchReport::searched_negatives`]). Its rate is the explorer's FP%: the
/// same for every guided method, unlike `dead_end_rate`, which weighs the search's work.
#[derive(Serialize)]
struct FalsePositives {
    searched_negatives: u64,
    searched_negative_rate: f64,
    /// Queries answered no (the rate's denominator), for the printed line.
    #[serde(skip)]
    negatives: u64,
    /// Whether the method used the index (the unguided baselines search every no-answer).
    #[serde(skip)]
    guided: bool,
}

impl FalsePositives {
    fn of(report: &BatchReport) -> FalsePositives {
        FalsePositives {
            searched_negatives: report.searched_negatives(),
            searched_negative_rate: report.searched_negative_rate(),
            negatives: report.queries - report.positives,
            guided: report.method.is_guided(),
        }
    }

    fn print(&self) {
        if self.negatives == 0 {
            println!("FP%        none to measure: every answer is yes");
            return;
        }
        let why = if self.guided {
            "(no cut ruled them out); the same for every guided method"
        } else {
            "(an unguided search uses no index, so it searches every no-answer)"
        };
        println!(
            "FP%        {:.2}%: {} of {} no-answers needed a search {why}",
            100.0 * self.searched_negative_rate,
            thousands(self.searched_negatives),
            thousands(self.negatives)
        );
    }
}

fn batch(index: &Index, queries: &[Query], ran: LabelsRan, args: &QueryArgs) -> Result<()> {
    if args.gpu {
        return gpu_batch(index, queries, ran, args);
    }
    let spinner = spinner(format!("answering {}", plural(queries.len() as u64, "query", "queries")));
    let answered = index.run_batch(queries, BatchRun { on: BatchOn::Cpu(method_of(args)), threads: None });
    spinner.finish_and_clear();
    let report = answered?.report;
    let source = match &args.file {
        Some(path) => path.display().to_string(),
        None => format!(
            "{}, seed {}",
            plural(
                queries.len() as u64,
                if args.reachable { "random reachable pair" } else { "random pair" },
                if args.reachable { "random reachable pairs" } else { "random pairs" }
            ),
            args.query_seed
        ),
    };
    let (ws, labels) = (index.workspace(), index.labels());
    args.output.show(&BatchOutput {
        file: ws.loaded.path.display().to_string(),
        ran,
        source,
        dims: labels.dims(),
        order: labels.order().to_string(),
        label_seconds: index.timings().labels,
        rules: index.rules(),
        query_index_seconds: index.timings().query_index,
        label_bytes: labels.heap_bytes(),
        query_index_bytes: index.query_index().map_or(0, QueryIndex::heap_bytes),
        report: &report,
        mismatch_vertices: report
            .mismatch_examples
            .iter()
            .map(|m| [ws.loaded.names.json_id(m.src), ws.loaded.names.json_id(m.dst)])
            .collect(),
        fp: FalsePositives::of(&report),
    })?;
    if report.mismatches > 0 {
        return Err(super::exit::Disagreement(format!(
            "{} with the expected column ({})",
            plural(report.mismatches, "answer disagrees", "answers disagree"),
            if args.output.json { "the first ones in mismatch_examples" } else { "the first ones listed above" }
        ))
        .into());
    }
    Ok(())
}

impl Report for BatchOutput<'_> {
    fn print(&self) {
        let report = self.report;
        println!("queries    {}", self.source);
        let dims = plural(self.dims as u64, "dimension", "dimensions");
        match self.ran.backend {
            Some(backend) => println!(
                "labels     {dims}, {}, built in {} by the {} back end",
                self.order,
                duration(self.label_seconds),
                backend.title()
            ),
            None => println!("labels     {dims}, {}, read in {}", self.order, duration(self.label_seconds)),
        }
        println!(
            "rules      {}{}",
            self.rules,
            if self.rules == RuleSet::All {
                format!(
                    " (query index built in {}, {} beside the labels' {})",
                    duration(self.query_index_seconds),
                    crate::format::bytes(self.query_index_bytes as u64),
                    crate::format::bytes(self.label_bytes as u64)
                )
            } else {
                String::new()
            }
        );
        let secs = report.elapsed.as_secs_f64();
        println!(
            "answered   {} in {} ({} queries/s, {}, {})",
            thousands(report.queries),
            duration(secs),
            thousands((report.queries as f64 / secs.max(1e-9)) as u64),
            plural(report.threads as u64, "thread", "threads"),
            report.method
        );
        println!("positives  {}", thousands(report.positives));
        println!();
        print_rule_table(&report.by_rule, report.queries);
        println!();
        self.fp.print();
        println!(
            "search     {} expanded, {} pruned by cuts, {} (dead-end rate {:.1}% of expanded; depends on the search order)",
            thousands(report.expanded),
            thousands(report.pruned),
            plural(report.dead_ends, "dead end", "dead ends"),
            100.0 * report.dead_end_rate
        );
        if report.mismatches > 0 {
            eprintln!();
            let disagree = plural(report.mismatches, "answer disagrees", "answers disagree");
            eprintln!("MISMATCH: {disagree} with the expected column");
            for (m, [u, v]) in report.mismatch_examples.iter().zip(&self.mismatch_vertices) {
                let (u, v) = (vertex_text(u), vertex_text(v));
                eprintln!("  line {}: {u} ⇝ {v} expected {}, got {}", m.line, m.expected, m.got);
            }
        }
    }
}

#[derive(Serialize)]
struct GpuBatchOutput<'a> {
    #[serde(flatten)]
    ran: LabelsRan,
    #[serde(flatten)]
    report: &'a crate::gpu::search::GpuBatchReport,
    /// Opening the GPU and readying the search kernels (once per process; not in the search
    /// time), and its parts.
    gpu_startup_seconds: f64,
    gpu_startup: crate::gpu::startup::Startup,
    /// Answers checked against the file's expected column, and those that disagree.
    checked: u64,
    mismatches: u64,
    mismatch_examples: &'a [crate::query::Mismatch],
    #[serde(flatten)]
    fp: FalsePositives,
}

impl Report for GpuBatchOutput<'_> {
    fn print(&self) {
        let report = self.report;
        println!("device          {} (opened in {})", report.device, self.gpu_startup.summary());
        println!(
            "upload          {} of graph, labels{} in {}",
            crate::format::bytes(report.resident_bytes),
            if report.rules == RuleSet::All { " and query index" } else { "" },
            duration(report.upload_seconds)
        );
        println!("queries         {}", thousands(report.queries));
        println!("rules           {} on the device, short searches included", duration(report.filter_seconds));
        let batched = report.searched - report.short_searched;
        let rest = if batched == 0 {
            "none left to the batches".to_string()
        } else {
            format!(
                "{} in {} of {} queries ({}, {})",
                thousands(batched),
                plural(report.batches, "batch", "batches"),
                thousands(64 * report.words as u64),
                plural(report.steps, "step", "steps"),
                duration(report.search_seconds)
            )
        };
        println!(
            "searched        {}: {} by short searches (a warp each, at most {} vertices), {rest}",
            thousands(report.searched),
            thousands(report.short_searched),
            thousands(u64::from(report.short_expansions))
        );
        println!("answers back    {}", duration(report.download_seconds));
        println!(
            "answered        {} in {} ({} queries/s on the device, upload apart)",
            thousands(report.queries),
            duration(report.gpu_seconds),
            thousands((report.queries as f64 / report.gpu_seconds.max(1e-9)) as u64)
        );
        println!("positives       {}", thousands(report.positives));
        println!("mismatches      {}", thousands(self.mismatches));
        println!();
        print_rule_table(&report.by_rule, report.queries);
        println!();
        self.fp.print();
    }
}

/// The rules that decided a batch's queries, with their shares.
fn print_rule_table(by_rule: &RuleCounts, queries: u64) {
    let mut t = table(&["decided by", "queries", "share"]);
    for (rule, count) in by_rule.iter() {
        t.add_row(vec![
            rule.name().to_string(),
            thousands(count),
            format!("{:.1}%", 100.0 * count as f64 / queries.max(1) as f64),
        ]);
    }
    println!("{t}");
}

/// The GPU batch: every rule and the searches on the device, timed apart from the upload.
fn gpu_batch(index: &Index, queries: &[Query], ran: LabelsRan, args: &QueryArgs) -> Result<()> {
    let shape = crate::gpu::search::SearchShape { words: args.words, short_expansions: args.short_expansions };
    let BatchRan { report: checked, gpu } =
        index.run_batch(queries, BatchRun { on: BatchOn::Gpu(shape), threads: None })?;
    let GpuRan { report, startup, .. } = gpu.context("a GPU batch without the device's report")?;
    let mismatches = checked.mismatches;
    args.output.show(&GpuBatchOutput {
        ran,
        report: &report,
        gpu_startup_seconds: startup.total_seconds(),
        gpu_startup: startup,
        checked: checked.checked,
        mismatches,
        mismatch_examples: &checked.mismatch_examples,
        fp: FalsePositives::of(&checked),
    })?;
    if mismatches > 0 {
        let why = format!("{} disagree with the expected column", plural(mismatches, "GPU answer", "GPU answers"));
        return Err(super::exit::Disagreement(why).into());
    }
    Ok(())
}
