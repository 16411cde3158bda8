//! `grail selftest --gpu`: the GPU must agree with the CPU, bit for bit on labels and answer for
//! answer on queries, on generated graphs of every shape, the bundled graph and (when given) a folder
//! of data sets. Integration tests call the same checks.

use crate::backend::{LabelRun, LabelSpec, build_labels, open_exactly};
use crate::gpu::{Gpu, search};
use crate::graph::generators::GeneratorSpec;
use crate::index::labeler::{Driven, Until, drive, run_to_end};
use crate::index::{Labeler, Labels, Order, dfs};
use crate::query::{Method, QueryIndex, RuleSet, Scratch, random_queries};
use crate::reachability::{BatchOn, BatchRun, Index, LabelSource};
use crate::telemetry::{Backend, Event, NullSink};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One graph's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// What was checked: the graph's name, or the case and the graph it ran on.
    pub graph: String,
    /// Vertices of the graph.
    pub vertices: usize,
    /// Edges of the graph.
    pub edges: usize,
    /// (order, dims) combinations whose GPU labels equal the DFS labels.
    pub label_checks: usize,
    /// Queries whose GPU answer was compared with the CPU's (for the exact engines, the
    /// comparisons made).
    pub queries: usize,
    /// Differences found: labels (per dimension) and answers.
    pub problems: Vec<String>,
}

/// The generated shapes every run checks (the GPU running every level, deep ones included).
pub const GENERATED: [&str; 12] = [
    "random:n=20000,deg=5,seed=1",
    "random:n=3000,deg=40,seed=2",
    "chain:n=100000",
    "ladder:k=60",
    "ladder:k=3000",
    "deep:n=30000,deg=2,depth=3000,seed=6",
    "tree:n=50000,arity=3",
    // 100 T-children per vertex: the hub path of the GPU's sibling sums.
    "tree:n=30000,arity=100",
    // Vertices with 20,000 children: the giant path (a scan over the keys instead of a sort).
    "tree:n=60000,arity=20000",
    "scalefree:n=20000,m=3,seed=3",
    "fan:width=12000,layers=2,seed=4",
    "digraph:n=20000,deg=3,seed=5",
];

/// Checks every generated shape, the bundled graph and each graph file in `datasets` on `gpu` (the
/// process's shared one, which the labelers and the batches open).
pub fn run(
    gpu: &Gpu,
    bundled: &Workspace,
    datasets: Option<&Path>,
    report: &mut dyn FnMut(&CaseResult),
) -> Result<Vec<CaseResult>> {
    // The batch search's kernels, readied once before the first graph's batches.
    gpu.prepare(&[crate::gpu::kernels::search::MODULE])?;
    let mut results = Vec::new();
    for case in [check_stepper()?, check_snapshots()?, check_handover()?] {
        report(&case);
        results.push(case);
    }
    let mut check = |name: String, ws: Workspace| -> Result<()> {
        let result = check_graph(name, Arc::new(ws))?;
        report(&result);
        results.push(result);
        Ok(())
    };
    for spec in GENERATED {
        let graph = spec.parse::<GeneratorSpec>()?.generate()?;
        check(spec.to_string(), Workspace::of_graph(graph, spec))?;
    }
    check(bundled.loaded.path.display().to_string(), bundled.clone())?;
    if let Some(dir) = datasets {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot list {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for file in files {
            check(file.display().to_string(), Workspace::open(&file, None)?)?;
        }
    }
    for case in check_exact()?.into_iter().chain(check_weighted()?) {
        report(&case);
        results.push(case);
    }
    Ok(results)
}

/// A weighted case: a generator's graph and its weights, `0..=max_weight` scaled by `scale` (1:
/// integers, so every sum is exact; otherwise fractions, whose all-pairs sums are compared within
/// the tolerance of [`crate::weighted::apsp::tolerance`]).
fn weighted_case(spec: &str, max_weight: u32, scale: f64) -> Result<crate::graph::WeightedGraph> {
    let generate = || spec.parse::<GeneratorSpec>()?.generate();
    let name = format!("{spec} weights 0 to {max_weight} x {scale}");
    let integers = crate::weighted::random::with_random_weights(generate()?, max_weight, 1, &name)?;
    if scale == 1.0 {
        return Ok(integers);
    }
    let weights = integers.weights().iter().map(|w| w * scale).collect();
    Ok(crate::graph::WeightedGraph::with_weights(generate()?, weights, &name)?)
}

/// The single-source cases: (generator spec, weights 0..=this, scale).
pub const WEIGHTED_SSSP: [(&str, u32, f64); 6] = [
    // Every weight 0: every reached vertex at distance 0.
    ("digraph:n=20000,deg=3,seed=5", 0, 1.0),
    // Few distinct weights: many ties; one giant strongly connected component.
    ("digraph:n=20000,deg=4,seed=2", 3, 1.0),
    // Mean degree 1: most vertices unreachable from any source.
    ("digraph:n=20000,deg=1,seed=3", 100, 1.0),
    // Hubs, and fractions whose sums round.
    ("scalefree:n=20000,m=3,seed=3", 10, 0.1),
    // A long path: thousands of iterations.
    ("chain:n=3000", 5, 1.0),
    ("random:n=20000,deg=5,seed=1", 1000, 1e-3),
];

/// The all-pairs cases: (generator spec, weights 0..=this, scale).
pub const WEIGHTED_APSP: [(&str, u32, f64); 4] = [
    ("digraph:n=300,deg=4,seed=7", 9, 1.0),
    // Dense, and not a multiple of the 32-wide tiles.
    ("digraph:n=181,deg=40,seed=8", 100, 1.0),
    ("digraph:n=250,deg=1,seed=9", 0, 1.0),
    ("digraph:n=200,deg=6,seed=10", 50, 0.3),
];

/// The GPU's shortest-path engines against the CPU: each single-source engine's distances equal
/// Dijkstra's bit for bit from a few sources of [`WEIGHTED_SSSP`], and each all-pairs method's
/// matrix equals Dijkstra from every source on [`WEIGHTED_APSP`] (within the stated tolerance for
/// fractions). In a result, `queries` counts the comparisons made.
pub fn check_weighted() -> Result<Vec<CaseResult>> {
    use crate::weighted::apsp::{differences, sssp_all, tolerance};
    use crate::weighted::{ApspMethod, SsspEngine, dijkstra::dijkstra};
    use crate::weighted_run::{run_apsp, run_sssp};
    let mut results = Vec::new();
    for (spec, max_weight, scale) in WEIGHTED_SSSP {
        let graph = weighted_case(spec, max_weight, scale)?;
        let n = graph.num_vertices() as u32;
        let (mut problems, mut checks) = (Vec::new(), 0);
        for src in [0, n / 3, n - 1] {
            let reference = dijkstra(&graph, src);
            for engine in SsspEngine::ALL.into_iter().filter(|e| e.is_gpu()) {
                let got = run_sssp(&graph, src, engine, None)?.distances;
                checks += 1;
                if let Some(v) = (0..n as usize).find(|&v| got.dist[v].to_bits() != reference.dist[v].to_bits()) {
                    let differ = got.differences(&reference);
                    problems.push(format!(
                        "{} from {src}: {differ} distances differ; vertex {v} at {}, dijkstra says {}",
                        engine.name(),
                        got.dist[v],
                        reference.dist[v]
                    ));
                }
            }
        }
        results.push(CaseResult {
            graph: format!("shortest paths: {}", graph.loaded.path.display()),
            vertices: graph.num_vertices(),
            edges: graph.num_edges(),
            label_checks: 0,
            queries: checks,
            problems,
        });
    }
    for (spec, max_weight, scale) in WEIGHTED_APSP {
        let graph = weighted_case(spec, max_weight, scale)?;
        let reference = sssp_all(&graph);
        let (mut problems, mut checks) = (Vec::new(), 0);
        for method in ApspMethod::ALL.into_iter().filter(|m| m.is_gpu()) {
            let got = run_apsp(&graph, method)?.run.matrix;
            checks += 1;
            let differ = differences(&reference, &got, tolerance(&graph));
            if differ > 0 {
                problems.push(format!("{}: {differ} pairs differ from dijkstra from every source", method.name()));
            }
        }
        results.push(CaseResult {
            graph: format!("all pairs: {}", graph.loaded.path.display()),
            vertices: graph.num_vertices(),
            edges: graph.num_edges(),
            label_checks: 0,
            queries: checks,
            problems,
        });
    }
    Ok(results)
}

/// The generated shapes the exact engines are checked on (cycles, hubs, deep chains).
pub const EXACT_GENERATED: [&str; 7] = [
    "random:n=20000,deg=5,seed=1",
    "digraph:n=20000,deg=3,seed=5",
    "digraph:n=5000,deg=1.05,seed=6",
    "chain:n=3000",
    "tree:n=30000,arity=100",
    "scalefree:n=20000,m=3,seed=3",
    "ladder:k=60",
];

/// The GPU's exact engines against the CPU's: every BFS engine's levels from a few sources, and
/// every GPU closure method's matrix against the CPU bit-parallel one, and the exception counts, on
/// [`EXACT_GENERATED`]. In a result, `queries` counts the comparisons made (BFS runs, closures and
/// exception counts).
pub fn check_exact() -> Result<Vec<CaseResult>> {
    use crate::exact::{BfsEngine, ClosureMethod};
    use crate::exact_run::{run_bfs, run_closure};
    let mut results = Vec::new();
    for spec in EXACT_GENERATED {
        let ws = Workspace::of_graph(spec.parse::<GeneratorSpec>()?.generate()?, spec);
        let graph = &ws.loaded.graph;
        let n = graph.num_vertices() as u32;
        let mut problems = Vec::new();
        let mut checks = 0;
        for src in [0, n / 3, n - 1] {
            let cpu = run_bfs(graph, src, BfsEngine::Cpu)?.result.levels;
            for engine in BfsEngine::ALL.into_iter().filter(|e| e.is_gpu()) {
                let got = run_bfs(graph, src, engine)?.result.levels;
                checks += 1;
                if let Some(v) = (0..n as usize).find(|&v| got.get(v) != cpu.get(v)) {
                    problems.push(format!(
                        "{} from {src}: vertex {v} at level {:?}, the CPU says {}",
                        engine.name(),
                        got.get(v),
                        cpu[v]
                    ));
                }
            }
        }
        // A batch answered by BFS with the graph kept on the device, as the explorer's exact rows do.
        let pairs: Vec<(u32, u32)> = (0..200u32).map(|i| (i * 7919 % n, i * 104_729 % n)).collect();
        let never = std::sync::atomic::AtomicBool::new(false);
        let cpu = crate::exact_run::answer_by_bfs(graph, &pairs, BfsEngine::Cpu, &never)?;
        for engine in BfsEngine::ALL.into_iter().filter(|e| e.is_gpu()) {
            let got = crate::exact_run::answer_by_bfs(graph, &pairs, engine, &never)?;
            checks += 1;
            let wrong = got.iter().zip(&cpu).filter(|(a, b)| a != b).count();
            if wrong > 0 {
                problems.push(format!("{} batch of {} pairs: {wrong} answers differ", engine.name(), pairs.len()));
            }
        }
        let reference = run_closure(ws.dag(), ClosureMethod::BitParallel)?.matrix;
        for method in ClosureMethod::ALL.into_iter().filter(|m| m.is_gpu()) {
            let got = run_closure(ws.dag(), method)?.matrix;
            checks += 1;
            if got != reference {
                let rows = (0..reference.n()).filter(|&i| got.row(i) != reference.row(i)).count();
                problems.push(format!("{}: {rows} closure rows differ from the CPU's", method.name()));
            }
        }
        checks += check_exceptions(&ws, &mut problems)?;
        results.push(CaseResult {
            graph: format!("exact engines: {spec}"),
            vertices: graph.num_vertices(),
            edges: graph.num_edges(),
            label_checks: 0,
            queries: checks,
            problems,
        });
    }
    Ok(results)
}

/// The GPU's exception count against the CPU's (the Exceptions tab's labels: 5 random dimensions),
/// in one wide target block and in blocks of 2 words; each example the GPU keeps is a real false
/// positive fooling as many dimensions as it says. Returns the comparisons made.
fn check_exceptions(ws: &Workspace, problems: &mut Vec<String>) -> Result<usize> {
    use crate::exceptions::{exact, leading_contained};
    let (dag, never) = (ws.dag(), AtomicBool::new(false));
    let labels = dfs::label(dag, 5, Order::Random { seed: 3 })?;
    let cpu = exact(dag, &labels, &never, &|_| {})?;
    let closure = crate::exact_run::run_closure(dag, crate::exact::ClosureMethod::BitParallel)?.matrix;
    let gpu = crate::gpu::shared()?;
    for block_words in [None, Some(2)] {
        let got = crate::gpu::exceptions::count(gpu, dag, &labels, block_words, &never, &|_| {})?;
        if (got.false_positives.as_slice(), got.unreachable, got.pairs)
            != (cpu.false_positives.as_slice(), cpu.unreachable, cpu.pairs)
        {
            problems.push(format!(
                "exceptions (blocks of {block_words:?} words): GPU {:?} of {} unreachable, CPU {:?} of {}",
                got.false_positives, got.unreachable, cpu.false_positives, cpu.unreachable
            ));
        }
        // Which pairs are kept may differ; how many dimensions the kept ones fool may not.
        let fooled = |c: &crate::exceptions::ExceptionCounts| c.examples.iter().map(|e| e.2).collect::<Vec<_>>();
        if fooled(&got) != fooled(&cpu) {
            problems.push(format!(
                "exceptions: GPU examples fool {:?} dimensions, CPU's {:?}",
                fooled(&got),
                fooled(&cpu)
            ));
        }
        for &(u, v, k) in &got.examples {
            if closure.get(u as usize, v as usize) || leading_contained(&labels, u, v) != k {
                problems.push(format!("exceptions: the GPU's example ({u}, {v}) fooling {k} dimensions is not one"));
            }
        }
    }
    Ok(2)
}

fn check_graph(name: String, ws: Arc<Workspace>) -> Result<CaseResult> {
    let dag = ws.dag();
    let mut problems = Vec::new();
    let mut label_checks = 0;
    let mut last = None;
    for (order, dims) in [(Order::Lex, 1), (Order::Random { seed: 7 }, 3)] {
        let cpu = dfs::label(dag, dims, order)?;
        let on_gpu =
            run_to_end(open_exactly(dag, &LabelSpec::new(Backend::Gpu, dims, order))?.as_mut(), &mut NullSink)?;
        match first_difference(&cpu, &on_gpu) {
            None => label_checks += 1,
            Some(diff) => problems.push(format!("labels, {order}, {dims} dims: {diff}")),
        }
        last = Some(cpu);
    }
    let labels = Arc::new(last.expect("two label runs"));
    let queries = random_queries(ws.loaded.graph.num_vertices(), 20_000, 11);
    // The GPU's CPU pre-filter runs the engine's rules: GRAIL's, then every cut of the query index.
    let index_with =
        |rules| Index::assemble(Arc::clone(&ws), LabelSource::Ready(Arc::clone(&labels)), rules, &mut NullSink);
    let (grail, every) = (index_with(RuleSet::Grail)?, index_with(RuleSet::All)?);
    let index = every.query_index().expect("built with every rule");
    // The index's orders and records built on the GPU, whatever the graph's size.
    let (topo, records) = crate::gpu::query_index::records(dag, &QueryIndex::supportive(dag))?;
    if (topo.as_slice(), records.as_slice()) != (index.topo_positions(), index.records()) {
        problems.push("query index: the GPU's orders or records differ from the CPU's".into());
    }
    let mut scratch = Scratch::new(dag.num_vertices());
    let mut wrong = 0;
    // The short searches alone (nearly always, on graphs this small), some given up to the
    // batches, and the batches alone.
    let shapes = [search::SHORT_SEARCH_EXPANSIONS, 8, 0]
        .map(|short_expansions| search::SearchShape { words: None, short_expansions });
    for (index, shape) in [&grail, &every].into_iter().flat_map(|i| shapes.map(|shape| (i, shape))) {
        let on_gpu = index.run_batch(&queries, BatchRun { on: BatchOn::Gpu(shape), threads: None })?;
        let gpu = on_gpu.gpu.context("a GPU batch without the device's report")?;
        let on_cpu = BatchRun { on: BatchOn::Cpu(Method::GuidedBfs), threads: None };
        let cpu = index.run_batch(&queries, on_cpu)?.report;
        let (engine, rules) = (index.engine(), index.rules());
        if cpu.by_rule != gpu.report.by_rule {
            problems.push(format!("rule counts ({rules} rules): CPU {:?}, GPU {:?}", cpu.by_rule, gpu.report.by_rule));
        }
        for (q, &got) in queries.iter().zip(&gpu.answers) {
            let want = engine.query(q.src, q.dst, Method::GuidedDfs, &mut scratch, false).reachable;
            if want != got {
                if wrong < 3 {
                    problems.push(format!(
                        "query {} -> {} ({rules} rules, short searches of {} vertices): CPU says {want}, GPU says {got}",
                        q.src, q.dst, shape.short_expansions
                    ));
                }
                wrong += 1;
            }
        }
    }
    if wrong > 3 {
        problems.push(format!("... {wrong} answers differ in all"));
    }
    Ok(CaseResult {
        graph: name,
        vertices: ws.loaded.graph.num_vertices(),
        edges: ws.loaded.graph.num_edges(),
        label_checks,
        queries: queries.len(),
        problems,
    })
}

/// The GPU stepper, driven through the labeler contract as the explorer drives it: level by level,
/// reset half-way (inside dimension 0, whose parent selection builds the Kahn levels), a phase at a
/// time, paused, cancelled; it still ends with the DFS labels.
fn check_stepper() -> Result<CaseResult> {
    let spec = "random:n=5000,deg=6,seed=9";
    let dag = Arc::new(spec.parse::<GeneratorSpec>()?.generate()?);
    let (dims, order) = (3, Order::Random { seed: 5 });
    let expected = dfs::label(&dag, dims, order)?;
    let mut problems = Vec::new();
    let mut labeler = open_exactly(&dag, &LabelSpec::new(Backend::Gpu, dims, order))?;
    let mut events: Vec<Event> = Vec::new();
    let (running, paused) = (AtomicBool::new(false), AtomicBool::new(true));
    for _ in 0..3 {
        drive(labeler.as_mut(), Until::Level, &mut events, &running, &mut |_| {})?;
    }
    labeler.reset();
    if !matches!(drive(labeler.as_mut(), Until::End, &mut events, &paused, &mut |_| {})?, Driven::Paused) {
        problems.push("a paused run did not stop".into());
    }
    let mut steps = 0;
    let stepped = loop {
        let until = if steps % 2 == 0 { Until::Level } else { Until::Phase };
        steps += 1;
        if let Driven::Finished(labels) = drive(labeler.as_mut(), until, &mut events, &running, &mut |_| {})? {
            break labels;
        }
    };
    if let Some(diff) = first_difference(&expected, &stepped) {
        problems.push(format!("stepped labels: {diff}"));
    }
    labeler.reset();
    labeler.cancel_token().store(true, Ordering::Relaxed);
    if run_to_end(labeler.as_mut(), &mut events).is_ok() {
        problems.push("a cancelled run still finished".into());
    }
    labeler.reset();
    if let Some(diff) = first_difference(&expected, &run_to_end(labeler.as_mut(), &mut NullSink)?) {
        problems.push(format!("after cancel and reset: {diff}"));
    }
    let levels = events.iter().filter(|e| matches!(e, Event::LevelDone { .. })).count();
    if levels < steps {
        problems.push(format!("{steps} steps but only {levels} level events"));
    }
    Ok(CaseResult {
        graph: format!("GPU stepper on {spec} ({steps} steps)"),
        vertices: dag.num_vertices(),
        edges: dag.num_edges(),
        label_checks: 2,
        queries: 0,
        problems,
    })
}

/// Deep, narrow shapes, asked of the GPU as every front end asks (`backend::build_labels`): the GPU
/// hands them to the CPU pipeline and says so, and the labels are still the DFS's; a wide graph
/// stays on the GPU.
fn check_handover() -> Result<CaseResult> {
    let shapes = [
        ("chain:n=200000", true),
        ("ladder:k=20000", true),
        ("deep:n=200000,deg=2,depth=20000,seed=7", true),
        ("random:n=20000,deg=5,seed=1", false),
    ];
    let (dims, order) = (3, Order::Random { seed: 7 });
    let (mut problems, mut vertices, mut edges) = (Vec::new(), 0, 0);
    for (spec, narrow) in shapes {
        let dag = Arc::new(spec.parse::<GeneratorSpec>()?.generate()?);
        (vertices, edges) = (vertices + dag.num_vertices(), edges + dag.num_edges());
        let LabelRun { labels, backend, fallback } =
            build_labels(&dag, &LabelSpec::new(Backend::Gpu, dims, order), &mut NullSink)?;
        let handed_over = fallback.as_deref().is_some_and(|reason| reason.contains("narrow"));
        if narrow != handed_over || (backend == Backend::Cpu) != narrow {
            problems.push(format!("{spec}: ran on the {}, fallback {fallback:?}", backend.title()));
        }
        if let Some(diff) = first_difference(&dfs::label(&dag, dims, order)?, &labels) {
            problems.push(format!("{spec}: {diff}"));
        }
    }
    Ok(CaseResult {
        graph: "GPU handing deep, narrow graphs to the CPU pipeline (chain, ladder, deep; a wide one stays)".into(),
        vertices,
        edges,
        label_checks: shapes.len(),
        queries: 0,
        problems,
    })
}

/// The GPU's snapshots (what the explorer's picture draws while stepping) on a small graph: every
/// value they show is the final one, values never disappear, and by the end of each dimension all
/// are known.
fn check_snapshots() -> Result<CaseResult> {
    let spec = "random:n=70,deg=3,seed=12";
    let dag = Arc::new(spec.parse::<GeneratorSpec>()?.generate()?);
    let (dims, order) = (2, Order::Random { seed: 4 });
    let expected = dfs::label(&dag, dims, order)?;
    let mut labeler = open_exactly(&dag, &LabelSpec::new(Backend::Gpu, dims, order))?;
    let problems = snapshot_problems(labeler.as_mut(), &expected)?;
    Ok(CaseResult {
        graph: format!("GPU snapshots on {spec}"),
        vertices: dag.num_vertices(),
        edges: dag.num_edges(),
        label_checks: 1,
        queries: 0,
        problems,
    })
}

/// Steps `labeler` level by level and checks every snapshot of every dimension against `expected`.
pub fn snapshot_problems(labeler: &mut dyn Labeler, expected: &Labels) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let mut seen = vec![0usize; expected.dims()];
    let never = AtomicBool::new(false);
    while let Driven::Reached = drive(labeler, Until::Level, &mut NullSink, &never, &mut |_| {})? {
        for (dim, seen) in seen.iter_mut().enumerate() {
            let Some(snap) = labeler.snapshot(dim) else {
                problems.push(format!("dimension {dim}: no snapshot"));
                continue;
            };
            let want = expected.dimension(dim);
            let columns =
                [("size", &snap.size, &want.subtree), ("post", &snap.post, &want.post), ("low", &snap.low, &want.low)];
            for (what, got, want) in columns {
                if let Some(v) = (0..want.len()).find(|&v| got[v].is_some_and(|x| x != want[v])) {
                    problems.push(format!("dimension {dim}: {what} of {v} shown as {:?}, finally {}", got[v], want[v]));
                }
            }
            let count = snap.size.iter().chain(&snap.post).chain(&snap.low).filter(|x| x.is_some()).count();
            if count < *seen {
                problems.push(format!("dimension {dim}: values disappeared ({seen} known, then {count})"));
            }
            *seen = count;
        }
        if problems.len() > 5 {
            break;
        }
    }
    Ok(problems)
}

/// Where two label sets first differ, in words.
fn first_difference(a: &Labels, b: &Labels) -> Option<String> {
    if a.dims() != b.dims() || a.num_vertices() != b.num_vertices() {
        return Some("different sizes".into());
    }
    for dim in 0..a.dims() {
        let (x, y) = (a.dimension(dim), b.dimension(dim));
        for (what, xs, ys) in [("low", &x.low, &y.low), ("post", &x.post, &y.post), ("subtree", &x.subtree, &y.subtree)]
        {
            if let Some(v) = (0..xs.len()).find(|&v| xs[v] != ys[v]) {
                return Some(format!("dimension {dim}, vertex {v}: {what} {} on the CPU, {} on the GPU", xs[v], ys[v]));
            }
        }
    }
    None
}
