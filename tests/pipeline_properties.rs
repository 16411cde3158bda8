//! The BFS pipeline against the classic DFS labeler (docs/ALGORITHMS.md, section 5: identical labels), on
//! generated DAGs of every shape, plus the stepper's behaviour and the telemetry's bookkeeping.

use grail::backend::{LabelSpec, build_labels};
use grail::graph::Graph;
use grail::index::labeler::{Driven, Status, Until, drive, run_to_end};
use grail::index::order::splitmix64;
use grail::index::pipeline::level_clock::MAX_SPAN;
use grail::index::pipeline::{ParentMethod, PipelineConfig, PipelineLabeler, WeightOverflow};
use grail::index::{Labeler, Labels, Order, PhaseTable, dfs};
use grail::telemetry::{Backend, Event, NullSink, Phase, Sink};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

// ---------------------------------------------------------------- generators

/// A deterministic stream of pseudo-random numbers (splitmix64 of a counter).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 += 1;
        splitmix64(self.0) % n
    }

    fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut p: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            p.swap(i, self.below(i as u64 + 1) as usize);
        }
        p
    }
}

fn graph(n: usize, edges: &[(u32, u32)]) -> Arc<Graph> {
    Arc::new(Graph::from_edges(n, edges).unwrap())
}

/// 0 -> 1 -> ... -> n-1: one level per vertex.
fn chain(n: u32) -> Arc<Graph> {
    graph(n as usize, &(1..n).map(|v| (v - 1, v)).collect::<Vec<_>>())
}

/// `width` chains of `length` vertices side by side: `length` levels of `width` vertices.
fn parallel_chains(width: u32, length: u32) -> Arc<Graph> {
    let edges: Vec<(u32, u32)> =
        (0..width).flat_map(|c| (1..length).map(move |i| (c * length + i - 1, c * length + i))).collect();
    graph((width * length) as usize, &edges)
}

/// Rung k: 3k -> 3k+1, 3k -> 3k+2, 3k+1 -> 3k+3, 3k+2 -> 3k+3. Path counts double per rung.
fn diamond_ladder(rungs: u32) -> Arc<Graph> {
    let edges: Vec<(u32, u32)> = (0..rungs)
        .flat_map(|k| [(3 * k, 3 * k + 1), (3 * k, 3 * k + 2), (3 * k + 1, 3 * k + 3), (3 * k + 2, 3 * k + 3)])
        .collect();
    graph(3 * rungs as usize + 1, &edges)
}

/// A hub with `width` children that all point to one sink (out- and in-degree `width`), some cross
/// edges between the children, and a second root that shares part of the fan.
fn wide_fan(width: u32) -> Arc<Graph> {
    let (hub, sink, other_root) = (0, width + 1, width + 2);
    let mut edges = Vec::new();
    for c in 1..=width {
        edges.push((hub, c));
        edges.push((c, sink));
        if c % 7 == 0 && c + 3 <= width {
            edges.push((c, c + 3));
        }
        if c % 5 == 0 {
            edges.push((other_root, c));
        }
    }
    graph(width as usize + 3, &edges)
}

/// `n` vertices; every pair in a random topological order is an edge with probability `percent`%.
fn random_dense(n: usize, percent: u64, seed: u64) -> Arc<Graph> {
    let mut rng = Rng(seed);
    let topo = rng.permutation(n);
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if rng.below(100) < percent {
                edges.push((topo[i], topo[j]));
            }
        }
    }
    graph(n, &edges)
}

/// `n` vertices, about `n * avg_degree` edges, each from an earlier to a later vertex of a random
/// topological order.
fn random_sparse(n: usize, avg_degree: usize, seed: u64) -> Arc<Graph> {
    let mut rng = Rng(seed);
    let topo = rng.permutation(n);
    let edges: Vec<(u32, u32)> = (0..n * avg_degree)
        .filter_map(|_| {
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            (a != b).then(|| (topo[a.min(b)], topo[a.max(b)]))
        })
        .collect();
    graph(n, &edges)
}

/// `roots` roots, each pointing to a few of `inner` shared vertices, which form a sparse DAG.
fn many_roots(roots: u32, inner: u32, seed: u64) -> Arc<Graph> {
    let mut rng = Rng(seed);
    let mut edges = Vec::new();
    for r in 0..roots {
        for _ in 0..3 {
            edges.push((r, roots + rng.below(inner as u64) as u32));
        }
    }
    for v in 0..inner {
        for _ in 0..2 {
            let w = rng.below(inner as u64) as u32;
            if w > v {
                edges.push((roots + v, roots + w));
            }
        }
    }
    graph((roots + inner) as usize, &edges)
}

// ---------------------------------------------------------------- helpers

const ORDERS: [Order; 3] = [Order::Lex, Order::Random { seed: 1 }, Order::Random { seed: 0xDEAD_BEEF }];

fn config(dims: usize, order: Order, parent_method: ParentMethod) -> PipelineConfig {
    PipelineConfig { dims, order, parent_method, all_dims_at_once: false }
}

fn pipeline(dag: &Arc<Graph>, config: PipelineConfig) -> grail_engine::Result<Labels> {
    run_to_end(&mut PipelineLabeler::new(Arc::clone(dag), config)?, &mut NullSink)
}

/// Pipeline labels equal DFS labels, dimension by dimension (for a readable failure).
fn assert_same(expected: &Labels, actual: &Labels, what: &str) {
    assert_eq!(expected.dims(), actual.dims());
    for dim in 0..expected.dims() {
        let (e, a) = (expected.dimension(dim), actual.dimension(dim));
        assert!(e.post == a.post, "{what}: post differs in dimension {dim}");
        assert!(e.low == a.low, "{what}: low differs in dimension {dim}");
        assert!(e.subtree == a.subtree, "{what}: subtree sizes differ in dimension {dim}");
    }
    assert_eq!(expected, actual, "{what}: levels or order differ");
}

/// The weight method either gives the DFS labels or stops with an overflow; never wrong labels.
fn assert_weights_exact_or_overflow(dag: &Arc<Graph>, dims: usize, order: Order, expected: &Labels) -> bool {
    match pipeline(dag, config(dims, order, ParentMethod::Weights)) {
        Ok(labels) => {
            assert_same(expected, &labels, "weights");
            true
        }
        Err(e) => {
            assert!(matches!(e, grail_engine::Error::WeightOverflow(_)), "unexpected error: {e:#}");
            false
        }
    }
}

/// The phase table folded from `events`.
fn phase_table(events: &[Event]) -> PhaseTable {
    let mut table = PhaseTable::default();
    events.iter().for_each(|e| table.apply(e));
    table
}

// ---------------------------------------------------------------- pipeline == DFS

#[test]
fn every_shape_matches_dfs_for_every_order() {
    let shapes: Vec<(&str, Arc<Graph>, usize)> = vec![
        ("chain of 100K", chain(100_000), 2),
        ("diamond ladder of 200 rungs", diamond_ladder(200), 3),
        ("wide fan of 12K", wide_fan(12_000), 3),
        ("random dense", random_dense(300, 30, 7), 3),
        ("many roots", many_roots(3000, 2000, 11), 3),
        ("random sparse", random_sparse(20_000, 3, 13), 3),
        // Narrow levels of a few vertices with cross edges: spans of tiny levels walked as one.
        ("deep random DAG", Arc::new(grail::graph::generators::deep_dag(30_000, 2.0, 3_000, 5).unwrap()), 3),
    ];
    for (name, dag, dims) in &shapes {
        for order in ORDERS {
            let expected = dfs::label(dag, *dims, order).unwrap();
            let actual = pipeline(dag, config(*dims, order, ParentMethod::Exact)).unwrap();
            assert_same(&expected, &actual, &format!("{name}, {order}"));
        }
    }
}

#[test]
fn weights_agree_with_exact_on_shallow_graphs() {
    let shallow =
        [wide_fan(12_000), many_roots(3000, 200, 5), chain(5000), diamond_ladder(40), random_dense(40, 20, 3)];
    for dag in &shallow {
        for order in ORDERS {
            let exact = pipeline(dag, config(2, order, ParentMethod::Exact)).unwrap();
            let weights = pipeline(dag, config(2, order, ParentMethod::Weights)).unwrap();
            assert_same(&exact, &weights, &format!("weights vs exact, {order}"));
        }
    }
    // On a graph with exponentially many paths the weights stop; they never give other labels.
    let dense = random_dense(300, 30, 7);
    let expected = dfs::label(&dense, 1, Order::Lex).unwrap();
    assert!(!assert_weights_exact_or_overflow(&dense, 1, Order::Lex, &expected));
}

#[test]
fn diamond_ladder_overflows_the_weights_at_63_rungs() {
    // ζ(top of a ladder of R rungs) = 2^(R+2) - 3 path-count vertices: fits u64 up to R = 62.
    let first_overflow = (1..=70)
        .find(|&rungs| pipeline(&diamond_ladder(rungs), config(1, Order::Lex, ParentMethod::Weights)).is_err())
        .unwrap();
    assert_eq!(first_overflow, 63);

    let ok = diamond_ladder(62);
    let expected = dfs::label(&ok, 2, Order::Random { seed: 4 }).unwrap();
    assert_same(&expected, &pipeline(&ok, config(2, Order::Random { seed: 4 }, ParentMethod::Weights)).unwrap(), "62");

    let deep = diamond_ladder(63);
    let err = pipeline(&deep, config(1, Order::Lex, ParentMethod::Weights)).unwrap_err();
    let grail_engine::Error::WeightOverflow(overflow) = &err else { panic!("expected an overflow, got {err:#}") };
    assert_eq!(*overflow, WeightOverflow { phase: Phase::SubgraphSizes, dim: 0, level: 0, vertex: 0 });
    let message = format!("{err:#}");
    assert!(message.contains("subgraph sizes") && message.contains("dimension 0") && message.contains("level 0"));
    assert!(message.contains("exact parent method"), "{message}");
    // The exact method has no such limit.
    let expected = dfs::label(&deep, 1, Order::Lex).unwrap();
    assert_same(&expected, &pipeline(&deep, config(1, Order::Lex, ParentMethod::Exact)).unwrap(), "63 exact");
}

#[test]
fn matches_the_python_reference_script() {
    // Produced by an independent Python implementation of docs/ALGORITHMS.md's label definition
    // (kept outside this repository), two dimensions, random order, seed 42, on this edge list (its
    // mixer is the project's `mix64`): per vertex, for dimensions 0 and 1, `[s, post] size`.
    let edges =
        [(0, 2), (0, 3), (1, 3), (1, 4), (2, 5), (3, 5), (3, 6), (4, 6), (5, 7), (6, 7), (6, 8), (2, 8), (4, 9)];
    let python: [[(u32, u32, u32); 2]; 10] = [
        [(1, 7, 7), (1, 10, 2)],
        [(1, 10, 3), (1, 8, 8)],
        [(1, 6, 1), (1, 9, 1)],
        [(1, 5, 5), (1, 5, 5)],
        [(1, 9, 2), (1, 7, 2)],
        [(1, 2, 2), (2, 4, 1)],
        [(1, 4, 2), (1, 3, 3)],
        [(1, 1, 1), (2, 2, 1)],
        [(3, 3, 1), (1, 1, 1)],
        [(8, 8, 1), (6, 6, 1)],
    ];
    let dag = graph(10, &edges);
    for method in [ParentMethod::Exact, ParentMethod::Weights] {
        let labels = pipeline(&dag, config(2, Order::Random { seed: 42 }, method)).unwrap();
        for (v, expected) in python.iter().enumerate() {
            for (dim, &(low, post, size)) in expected.iter().enumerate() {
                let i = labels.interval(v as u32, dim);
                assert_eq!((i.low, i.post, labels.subtree(v as u32, dim)), (low, post, size), "vertex {v} dim {dim}");
            }
        }
    }
}

#[test]
fn tiny_and_degenerate_graphs() {
    for dag in [graph(0, &[]), graph(1, &[]), graph(5, &[]), graph(2, &[(1, 0)])] {
        for method in [ParentMethod::Exact, ParentMethod::Weights] {
            let expected = dfs::label(&dag, 2, Order::Random { seed: 3 }).unwrap();
            assert_same(&expected, &pipeline(&dag, config(2, Order::Random { seed: 3 }, method)).unwrap(), "tiny");
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let cyclic = graph(3, &[(0, 1), (1, 2), (2, 0)]);
    let err = PipelineLabeler::new(cyclic, PipelineConfig::new(1, Order::Lex)).unwrap_err();
    assert!(format!("{err:#}").contains("cycle"));
    assert!(PipelineLabeler::new(chain(3), PipelineConfig::new(0, Order::Lex)).is_err());
}

// ---------------------------------------------------------------- the stepper

#[test]
fn stepping_level_by_level_gives_the_same_labels() {
    let dag = random_sparse(3000, 3, 21);
    let cfg = config(2, Order::Random { seed: 8 }, ParentMethod::Exact);
    let expected = pipeline(&dag, cfg).unwrap();
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
    let mut last: Option<(usize, Phase, usize)> = None;
    let mut steps = 0;
    loop {
        let progress = labeler.advance(Until::Level, &mut NullSink).unwrap();
        assert_eq!(progress.steps.len(), 1, "one dimension at a time");
        let s = progress.steps[0];
        // Levels count up within a phase, dimensions and phases move forward.
        if let Some((dim, phase, level)) = last {
            assert!(s.dim > dim || (s.dim == dim && (s.phase != phase || s.level == level + 1)));
        }
        assert!(s.level < s.levels);
        assert_eq!(s.phase_finished, s.level + 1 == s.levels);
        last = Some((s.dim, s.phase, s.level));
        steps += 1;
        if progress.finished {
            break;
        }
    }
    assert!(steps > 8, "a DAG of several levels takes several steps per phase");
    assert_eq!(labeler.status(), Status::Finished);
    assert_same(&expected, &labeler.take_labels().unwrap(), "stepped");
    assert!(labeler.take_labels().is_none(), "labels are handed out once");
}

#[test]
fn finish_phase_runs_whole_phases() {
    let dag = diamond_ladder(30);
    let cfg = config(2, Order::Lex, ParentMethod::Weights);
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
    let mut events = Vec::new();
    let mut phases = Vec::new();
    let never = AtomicBool::new(false);
    let labels = loop {
        let before = labeler.positions()[0];
        let driven = drive(&mut labeler, Until::Phase, &mut events, &never, &mut |_| {}).unwrap();
        phases.push((before.dim, before.phase));
        // Each call ends exactly where the phase ends: the next one starts a fresh phase.
        if let Some(after) = labeler.positions().first() {
            assert_eq!((after.level, after.phase == before.phase && after.dim == before.dim), (0, false));
        }
        match driven {
            Driven::Finished(labels) => break labels,
            Driven::Reached => {}
            Driven::Paused => panic!("nothing asked for a pause"),
        }
    };
    let per_dim = ParentMethod::Weights.phases();
    let expected: Vec<(usize, Phase)> = (0..2).flat_map(|d| per_dim.iter().map(move |&p| (d, p))).collect();
    assert_eq!(phases, expected);
    let table = phase_table(&events);
    assert_eq!(table.rows.len(), 10);
    assert!(table.rows.iter().all(|r| r.done));
    assert_same(&dfs::label(&dag, 2, Order::Lex).unwrap(), &labels, "finish_phase");
}

#[test]
fn a_paused_drive_stops_at_a_level_boundary_and_resumes() {
    let dag = random_sparse(2000, 3, 4);
    let cfg = config(2, Order::Random { seed: 3 }, ParentMethod::Exact);
    let expected = pipeline(&dag, cfg).unwrap();
    // A zero call budget: every call runs one level, so the ticks count levels.
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap().with_call_budget(Duration::ZERO);
    let pause = AtomicBool::new(false);
    let mut ticks = 0;
    // Pause from the progress callback after a few levels, as the explorer's `c` does.
    let driven = drive(&mut labeler, Until::End, &mut NullSink, &pause, &mut |_| {
        ticks += 1;
        if ticks == 4 {
            pause.store(true, Ordering::Relaxed);
        }
    });
    assert!(matches!(driven.unwrap(), Driven::Paused));
    assert_eq!(labeler.status(), Status::Running);
    let at = labeler.positions()[0];
    assert_eq!((at.dim, at.level), (0, 4), "four levels ran after the first, then the pause held");
    pause.store(false, Ordering::Relaxed);
    assert_same(&expected, &run_to_end(&mut labeler, &mut NullSink).unwrap(), "paused and resumed");
}

#[test]
fn runs_to_the_end_take_many_levels_per_call() {
    // A chain has a level per vertex: 4 phases x 20,000 levels per dimension.
    let dag = chain(20_000);
    for all_dims_at_once in [false, true] {
        let cfg = PipelineConfig { all_dims_at_once, ..config(2, Order::Random { seed: 1 }, ParentMethod::Exact) };
        let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
        let (mut calls, mut levels) = (0, 0);
        let mut events = Vec::new();
        let labels = loop {
            let advance = labeler.advance(Until::End, &mut events).unwrap();
            calls += 1;
            levels += advance.steps.iter().map(|s| s.span).sum::<usize>();
            if advance.finished {
                break labeler.take_labels().unwrap();
            }
        };
        // Per dimension, the Kahn levels twice and T's depth levels (rho's on top) twice.
        assert_eq!(levels, 2 * (2 * 20_000 + 2 * 20_001), "every level reported once");
        assert!(calls < levels / 100, "{calls} calls for {levels} levels");
        // A chain's levels are tiny: they are reported in spans, not one by one.
        let level_events = events.iter().filter(|e| matches!(e, Event::LevelDone { .. })).count();
        assert!(level_events < levels / 100, "{level_events} level events for {levels} levels");
        assert_same(&dfs::label(&dag, 2, Order::Random { seed: 1 }).unwrap(), &labels, "batched levels");
        check_telemetry(&dag, &events, 2, ParentMethod::Exact);
    }
}

#[test]
fn stepping_a_chain_runs_one_tiny_level_at_a_time() {
    // Runs to a phase's end take tiny levels in spans; a step of one level must stay one level.
    let mut labeler = PipelineLabeler::new(chain(5_000), PipelineConfig::new(1, Order::Lex)).unwrap();
    for level in 0..50 {
        let steps = labeler.advance(Until::Level, &mut NullSink).unwrap().steps;
        assert_eq!(steps.iter().map(|s| (s.level, s.span)).collect::<Vec<_>>(), vec![(level, 1)]);
    }
    let steps = labeler.advance(Until::Phase, &mut NullSink).unwrap().steps;
    assert_eq!(steps.iter().map(|s| s.span).sum::<usize>(), 5_000 - 50, "the rest of the phase");
    assert!(steps.len() <= (5_000 - 50) / 1000 + 1, "in spans: {} steps", steps.len());
    assert_eq!(steps.last().map(|s| (s.level, s.phase_finished)), Some((4_999, true)));
}

#[test]
fn all_dims_at_once_gives_the_same_labels() {
    let dag = many_roots(500, 1500, 3);
    for method in [ParentMethod::Exact, ParentMethod::Weights] {
        let sequential = config(4, Order::Random { seed: 5 }, method);
        let together = PipelineConfig { all_dims_at_once: true, ..sequential };
        let expected = pipeline(&dag, sequential).unwrap();
        let mut labeler = PipelineLabeler::new(Arc::clone(&dag), together).unwrap();
        let first = labeler.advance(Until::Level, &mut NullSink).unwrap();
        assert_eq!(first.steps.iter().map(|s| s.dim).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_same(&expected, &run_to_end(&mut labeler, &mut NullSink).unwrap(), "all dims at once");
    }
}

#[test]
fn reset_then_run_again_gives_the_same_labels() {
    let dag = random_dense(120, 10, 9);
    let cfg = config(3, Order::Random { seed: 2 }, ParentMethod::Exact);
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
    let mut events = Vec::new();
    let first = run_to_end(&mut labeler, &mut events).unwrap();
    labeler.reset();
    assert_eq!(labeler.status(), Status::NotStarted);
    assert_eq!(labeler.seconds(), 0.0);
    // Half-way, then reset again, then to the end.
    for _ in 0..5 {
        labeler.advance(Until::Level, &mut events).unwrap();
    }
    labeler.reset();
    let second = run_to_end(&mut labeler, &mut events).unwrap();
    assert_same(&first, &second, "after reset");
    let runs = events.iter().filter(|e| matches!(e, Event::RunStarted { .. })).count();
    assert_eq!(runs, 3);
}

/// Cancels through the token after a given number of levels, as another thread would.
struct CancelAfterLevels {
    levels: usize,
    token: Arc<AtomicBool>,
    events: Vec<Event>,
    done: std::sync::mpsc::Sender<Vec<Event>>,
}

impl Sink for CancelAfterLevels {
    fn emit(&mut self, event: Event) {
        if matches!(event, Event::LevelDone { .. }) {
            if self.levels == 1 {
                self.token.store(true, Ordering::Relaxed);
            }
            self.levels = self.levels.saturating_sub(1);
        }
        let cancelled = matches!(event, Event::Cancelled);
        self.events.push(event);
        if cancelled {
            let _ = self.done.send(std::mem::take(&mut self.events));
        }
    }
}

#[test]
fn cancel_stops_at_the_next_level_boundary() {
    // Levels of 100 vertices: each is timed, and its event emitted, as it ends (the events of tiny
    // levels wait for a batch: see `cancel_stops_within_a_batch_of_tiny_levels`).
    let dag = parallel_chains(100, 1000);
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), PipelineConfig::new(2, Order::Lex)).unwrap();
    let (done, receive) = std::sync::mpsc::channel();
    let mut sink = CancelAfterLevels { levels: 3, token: labeler.cancel_token(), events: Vec::new(), done };
    // The labeler is Send: a worker thread runs it while this thread waits.
    let worker = std::thread::spawn(move || {
        let result = run_to_end(&mut labeler, &mut sink);
        (labeler, result)
    });
    let (mut labeler, result) = worker.join().unwrap();
    assert!(result.unwrap_err().is_cancelled());
    let events = receive.recv().unwrap();
    assert_eq!(events.iter().filter(|e| matches!(e, Event::LevelDone { .. })).count(), 3);
    assert!(matches!(events.last(), Some(Event::Cancelled)));
    assert_eq!(labeler.status(), Status::Cancelled);
    let again = labeler.advance(Until::Level, &mut NullSink).unwrap_err();
    assert!(again.is_cancelled(), "stays cancelled");
    // A reset clears the cancellation.
    labeler.reset();
    assert_eq!(run_to_end(&mut labeler, &mut NullSink).unwrap().num_vertices(), 100_000);
}

#[test]
fn cancel_stops_within_a_batch_of_tiny_levels() {
    let mut labeler = PipelineLabeler::new(chain(100_000), PipelineConfig::new(2, Order::Lex)).unwrap();
    let (done, receive) = std::sync::mpsc::channel();
    let mut sink = CancelAfterLevels { levels: 3, token: labeler.cancel_token(), events: Vec::new(), done };
    let result = run_to_end(&mut labeler, &mut sink);
    assert!(result.unwrap_err().is_cancelled());
    let events = receive.recv().unwrap();
    let spans: Vec<usize> =
        events.iter().filter_map(|e| if let Event::LevelDone { span, .. } = e { Some(*span) } else { None }).collect();
    let levels: usize = spans.iter().sum();
    // The third event cancelled the run at the next level boundary; the span of tiny levels that
    // was waiting by then is reported too, and nothing ran after it.
    assert!((3..=4).contains(&spans.len()), "{spans:?}");
    assert!((3..=4 * MAX_SPAN).contains(&levels), "{levels} levels");
    assert_eq!(labeler.positions()[0].level, levels, "every level run was reported");
    assert!(matches!(events.last(), Some(Event::Cancelled)));
}

#[test]
fn a_failed_run_reports_until_reset() {
    let mut labeler = PipelineLabeler::new(diamond_ladder(70), config(1, Order::Lex, ParentMethod::Weights)).unwrap();
    let err = run_to_end(&mut labeler, &mut NullSink).unwrap_err();
    assert!(matches!(err, grail_engine::Error::WeightOverflow(_)));
    assert!(matches!(labeler.status(), Status::Failed(_)));
    assert!(format!("{:#}", labeler.advance(Until::Level, &mut NullSink).unwrap_err()).contains("reset"));
}

// ---------------------------------------------------------------- telemetry

/// Per phase: levels numbered 0.. in order, frontier sizes summing to the vertices the phase
/// processes, scanned edges summing to the edges it reads (see each phase's module docs).
fn check_telemetry(dag: &Graph, events: &[Event], dims: usize, method: ParentMethod) {
    let (n, m) = (dag.num_vertices() as u64, dag.num_edges() as u64);
    let expected_work = |phase: Phase| match phase {
        // DAG phases: every vertex, every edge once (from one side).
        Phase::ParentSelection | Phase::ParentSssp | Phase::SubgraphSizes | Phase::MinPost => (n, m),
        // Tree phases: the n + 1 nodes of T (ρ included) and its n edges.
        Phase::SubtreeSizes | Phase::PostOrder => (n + 1, n),
        Phase::Dfs => unreachable!(),
    };
    assert!(matches!(events.first(), Some(Event::RunStarted { backend: Backend::Cpu, .. })));
    assert!(matches!(events.last(), Some(Event::RunDone { .. })));
    let mut seen = Vec::new();
    for dim in 0..dims {
        for &phase in method.phases() {
            let of_phase = |e: &&Event| match e {
                Event::PhaseStarted { dim: d, phase: p } | Event::LevelDone { dim: d, phase: p, .. } => {
                    *d == dim && *p == phase
                }
                Event::PhaseDone { dim: d, phase: p, .. } => *d == dim && *p == phase,
                _ => false,
            };
            let mine: Vec<&Event> = events.iter().filter(of_phase).collect();
            assert!(matches!(mine.first(), Some(Event::PhaseStarted { .. })), "{phase:?} starts first");
            let Some(&&Event::PhaseDone { levels, vertices, edges_scanned, .. }) = mine.last() else {
                panic!("{phase:?} of dim {dim} has no PhaseDone last");
            };
            let level_events = &mine[1..mine.len() - 1];
            // Every level once, in order: spans of tiny levels follow each other without gaps.
            let (mut next, mut frontier_sum, mut edge_sum) = (0, 0, 0);
            for e in level_events {
                let Event::LevelDone { level, span, queues, edges_scanned, .. } = e else { unreachable!() };
                assert_eq!(*level, next);
                assert!(*span >= 1 && queues.total() >= *span as u64, "no empty levels");
                next += span;
                frontier_sum += queues.total();
                edge_sum += edges_scanned;
            }
            assert_eq!(next, levels);
            assert_eq!((frontier_sum, edge_sum), (vertices, edges_scanned), "{phase:?}: levels add up to the phase");
            assert_eq!((vertices, edges_scanned), expected_work(phase), "{phase:?}: the phase's documented work");
            seen.push(phase);
        }
    }
    assert_eq!(seen.len(), dims * method.phases().len());
    assert!(events.iter().any(|e| matches!(e, Event::Memory { structures, .. } if !structures.is_empty())));
}

#[test]
fn telemetry_adds_up_for_both_methods() {
    // Wide levels, narrow ones, and long runs of tiny levels (steps of many levels each).
    let shapes =
        [(wide_fan(3000), 2), (random_sparse(5000, 4, 17), 2), (parallel_chains(3, 3000), 2), (graph(1, &[]), 1)];
    for (dag, dims) in shapes {
        for method in [ParentMethod::Exact, ParentMethod::Weights] {
            for all_dims_at_once in [false, true] {
                let cfg =
                    PipelineConfig { dims, order: Order::Random { seed: 6 }, parent_method: method, all_dims_at_once };
                let mut events = Vec::new();
                run_to_end(&mut PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap(), &mut events).unwrap();
                check_telemetry(&dag, &events, dims, method);
                // The TUI's table agrees with the events.
                assert_eq!(phase_table(&events).rows.len(), dims * method.phases().len());
            }
        }
    }
}

#[test]
fn the_fan_fills_the_large_queues() {
    let dag = wide_fan(3000);
    let mut events = Vec::new();
    run_to_end(&mut PipelineLabeler::new(Arc::clone(&dag), PipelineConfig::new(1, Order::Lex)).unwrap(), &mut events)
        .unwrap();
    let large_in = |phase: Phase| {
        events.iter().any(|e| matches!(e, Event::LevelDone { phase: p, queues, .. } if *p == phase && queues.large > 0))
    };
    // The sink has 3000 parents, the hub 3000 DAG children and 3000 T-children.
    for phase in [Phase::ParentSelection, Phase::SubtreeSizes, Phase::PostOrder, Phase::MinPost] {
        assert!(large_in(phase), "{phase:?}");
    }
}

#[test]
fn build_labels_agrees_across_backends_and_reports_phases() {
    let dag = random_sparse(4000, 4, 23);
    let order = Order::Random { seed: 77 };
    let mut dfs_events = Vec::new();
    let by_dfs = build_labels(&dag, &LabelSpec::new(Backend::Dfs, 3, order), &mut dfs_events).unwrap();
    let mut cpu_events = Vec::new();
    let by_cpu = build_labels(&dag, &LabelSpec::new(Backend::Cpu, 3, order), &mut cpu_events).unwrap();
    assert_eq!(
        (by_dfs.backend, by_cpu.backend, &by_dfs.fallback, &by_cpu.fallback),
        (Backend::Dfs, Backend::Cpu, &None, &None)
    );
    let (by_dfs, by_cpu) = (by_dfs.labels, by_cpu.labels);
    assert_eq!(by_dfs.digest(), by_cpu.digest());
    assert!(matches!(dfs_events.first(), Some(Event::RunStarted { backend: Backend::Dfs, dims: 3, .. })));
    assert!(matches!(dfs_events.last(), Some(Event::RunDone { .. })));
    let dfs_done: Vec<usize> = dfs_events
        .iter()
        .filter_map(|e| match e {
            Event::PhaseDone { dim, phase: Phase::Dfs, vertices: 4000, .. } => Some(*dim),
            _ => None,
        })
        .collect();
    assert_eq!(dfs_done, vec![0, 1, 2]);
    assert_eq!(dfs_events.iter().filter(|e| matches!(e, Event::Memory { .. })).count(), 3);
    check_telemetry(&dag, &cpu_events, 3, ParentMethod::Exact);
    let weights = LabelSpec { parent_method: ParentMethod::Weights, ..LabelSpec::new(Backend::Cpu, 3, order) };
    match build_labels(&dag, &weights, &mut NullSink) {
        Ok(run) => assert_eq!(run.labels.digest(), by_dfs.digest()),
        Err(e) => assert!(format!("{e:#}").contains("exact parent method")),
    }
}

// ---------------------------------------------------------------- random DAGs

/// A random DAG on up to 200 vertices: edges go forward in a random permutation.
fn arb_dag() -> impl Strategy<Value = Arc<Graph>> {
    (1usize..=200, 0usize..=6, any::<u64>()).prop_map(|(n, avg_degree, seed)| random_sparse(n, avg_degree, seed))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_dags_match_dfs(dag in arb_dag(), seed in any::<u64>(), dims in 1usize..=3) {
        for order in [Order::Lex, Order::Random { seed }] {
            let expected = dfs::label(&dag, dims, order).unwrap();
            let exact = pipeline(&dag, config(dims, order, ParentMethod::Exact)).unwrap();
            assert_same(&expected, &exact, "exact");
            assert_weights_exact_or_overflow(&dag, dims, order, &expected);
            let together = PipelineConfig { all_dims_at_once: true, ..config(dims, order, ParentMethod::Exact) };
            assert_same(&expected, &pipeline(&dag, together).unwrap(), "all dims at once");
        }
    }
}

#[test]
fn snapshots_only_ever_show_final_values_and_fill_in_phase_by_phase() {
    let dag = random_sparse(60, 3, 12);
    let cfg = config(2, Order::Random { seed: 4 }, ParentMethod::Exact);
    let expected = pipeline(&dag, cfg).unwrap();
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
    let mut filled = (0, 0, 0, 0);
    loop {
        // The last step hands the labels out (the explorer then draws them): dimension 0 was
        // complete one step before.
        if labeler.advance(Until::Level, &mut NullSink).unwrap().finished {
            break;
        }
        let snap = labeler.snapshot(0).expect("small graphs keep snapshots");
        let want = expected.dimension(0);
        for v in 0..60 {
            assert!(snap.size[v].is_none_or(|s| s == want.subtree[v]), "size of {v}");
            assert!(snap.post[v].is_none_or(|p| p == want.post[v]), "post of {v}");
            assert!(snap.low[v].is_none_or(|l| l == want.low[v]), "low of {v}");
        }
        // Once post numbers are known, the parents read from the growing tree agree with them.
        if snap.post.iter().all(Option::is_some) {
            for v in 0..60u32 {
                if let Some(Some(p)) = snap.parent[v as usize] {
                    let (pp, ps, pv) = (want.post[p as usize], want.subtree[p as usize], want.post[v as usize]);
                    assert!(pp - ps < pv && pv <= pp, "{p} is the tree parent of {v}");
                }
            }
        }
        if snap.dim == 0 && labeler.positions().first().is_some_and(|p| p.dim == 0) {
            assert!(!snap.frontier.is_empty() || snap.phase.is_none());
        }
        let count = |xs: &[Option<u32>]| xs.iter().filter(|x| x.is_some()).count();
        let now = (
            snap.parent.iter().filter(|x| x.is_some()).count(),
            count(&snap.size),
            count(&snap.post),
            count(&snap.low),
        );
        assert!(
            now.0 >= filled.0 && now.1 >= filled.1 && now.2 >= filled.2 && now.3 >= filled.3,
            "values never vanish"
        );
        filled = now;
    }
    assert_eq!(filled, (60, 60, 60, 60), "everything is known at the end");
}

#[test]
fn the_selftests_snapshot_check_passes_on_the_cpu_pipeline_and_catches_wrong_labels() {
    let dag = random_sparse(70, 3, 12);
    let cfg = PipelineConfig { all_dims_at_once: true, ..config(2, Order::Random { seed: 4 }, ParentMethod::Exact) };
    let expected = dfs::label(&dag, 2, Order::Random { seed: 4 }).unwrap();
    let mut labeler = PipelineLabeler::new(Arc::clone(&dag), cfg).unwrap();
    assert_eq!(grail::selftest::snapshot_problems(&mut labeler, &expected).unwrap(), Vec::<String>::new());
    // Against another seed's labels, the same run must be reported.
    let other = dfs::label(&dag, 2, Order::Random { seed: 5 }).unwrap();
    labeler.reset();
    assert!(!grail::selftest::snapshot_problems(&mut labeler, &other).unwrap().is_empty());
}
