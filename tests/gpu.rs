//! The GPU back end against the CPU. Runs the same checks as `grail selftest --gpu` where a GPU is
//! present; elsewhere (CI) it says why it skips, and checks that asking for the GPU never produces
//! results that claim to be GPU work.

use grail::backend::{LabelSpec, build_labels};
use grail::gpu;
use grail::index::{Order, dfs};
use grail::telemetry::{Backend, Event};
use grail::workspace::Workspace;
use std::path::Path;

fn sample() -> Workspace {
    Workspace::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/kegg.gra"), None).unwrap()
}

#[test]
fn gpu_labels_and_answers_equal_the_cpu_or_skip_with_the_reason() {
    let gpu = match gpu::shared() {
        Ok(gpu) => gpu,
        Err(reason) => {
            eprintln!("skipped: {reason:#}");
            return;
        }
    };
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/grail");
    let datasets = datasets.is_dir().then_some(datasets.as_path());
    let results = grail::selftest::run(gpu, &sample(), datasets, &mut |_| {}).unwrap();
    let failed: Vec<_> = results.iter().filter(|r| !r.problems.is_empty()).collect();
    assert!(failed.is_empty(), "GPU differs from CPU: {failed:#?}");
}

#[test]
fn asking_for_the_gpu_never_passes_cpu_work_off_as_gpu_work() {
    let ws = sample();
    let mut events: Vec<Event> = Vec::new();
    let spec = LabelSpec::new(Backend::Gpu, 2, Order::Random { seed: 3 });
    let run = build_labels(ws.dag(), &spec, &mut events).unwrap();
    let ran_on = events.iter().find_map(|e| match e {
        Event::RunStarted { backend, .. } => Some(*backend),
        _ => None,
    });
    let said_fallback = events.iter().find_map(|e| match e {
        Event::Fallback { requested, ran, reason } => Some((*requested, *ran, reason.clone())),
        _ => None,
    });
    let expected = if gpu::probe().is_ok() { Backend::Gpu } else { Backend::Cpu };
    assert_eq!(ran_on, Some(expected), "the events name the back end that really ran");
    assert_eq!(run.backend, expected, "the returned run names the back end that really ran");
    match (&run.fallback, said_fallback) {
        (None, None) => assert_eq!(expected, Backend::Gpu),
        (Some(reason), Some((Backend::Gpu, Backend::Cpu, said))) => {
            assert_eq!(expected, Backend::Cpu);
            assert_eq!(reason, &said);
            assert!(reason.contains("GPU"), "the reason names what is missing: {reason}");
        }
        (returned, event) => panic!("the fallback was returned as {returned:?} but told as {event:?}"),
    }
    assert_eq!(run.labels.digest(), dfs::label(ws.dag(), 2, Order::Random { seed: 3 }).unwrap().digest());
}

#[test]
fn gpu_exact_engines_equal_the_cpu_or_skip_with_the_reason() {
    if let Err(reason) = gpu::shared() {
        eprintln!("skipped: {reason:#}");
        return;
    }
    let results = grail::selftest::check_exact().unwrap();
    let failed: Vec<_> = results.iter().filter(|r| !r.problems.is_empty()).collect();
    assert!(failed.is_empty(), "GPU exact engines differ from the CPU: {failed:#?}");
}

/// Without a GPU, a GPU engine is an error with the probe's reason, never a CPU run in disguise.
#[test]
fn gpu_exact_engines_without_a_gpu_say_why() {
    let Err(reason) = gpu::probe() else {
        eprintln!("skipped: this machine has a GPU");
        return;
    };
    let ws = sample();
    let err = grail::exact_run::run_bfs(&ws.loaded.graph, 0, grail::exact::BfsEngine::GpuBinned).err().unwrap();
    assert!(err.to_string().contains(&reason), "{err}");
    let err = grail::exact_run::run_closure(ws.dag(), grail::exact::ClosureMethod::GpuBitParallel).err().unwrap();
    assert!(err.to_string().contains(&reason), "{err}");
}

#[test]
fn gpu_shortest_paths_equal_the_cpu_or_skip_with_the_reason() {
    if let Err(reason) = gpu::shared() {
        eprintln!("skipped: {reason:#}");
        return;
    }
    let results = grail::selftest::check_weighted().unwrap();
    assert!(results.iter().all(|r| r.queries > 0), "every case compared something");
    let failed: Vec<_> = results.iter().filter(|r| !r.problems.is_empty()).collect();
    assert!(failed.is_empty(), "GPU shortest paths differ from the CPU: {failed:#?}");
}

/// Without a GPU, a GPU shortest-path engine is an error with the probe's reason, never a CPU run.
#[test]
fn gpu_shortest_paths_without_a_gpu_say_why() {
    let Err(reason) = gpu::probe() else {
        eprintln!("skipped: this machine has a GPU");
        return;
    };
    use grail::weighted::{ApspMethod, SsspEngine};
    let graph = grail::weighted::random::random_weighted(50, 3.0, 9, 1).unwrap();
    for engine in SsspEngine::ALL.into_iter().filter(|e| e.is_gpu()) {
        let err = grail::weighted_run::run_sssp(&graph, 0, engine, None).err().unwrap();
        assert!(err.to_string().starts_with(engine.name()), "{err}");
        assert!(err.to_string().contains(&reason), "{err}");
    }
    for method in ApspMethod::ALL.into_iter().filter(|m| m.is_gpu()) {
        let err = grail::weighted_run::run_apsp(&graph, method).err().unwrap();
        assert!(err.to_string().contains(&reason), "{err}");
    }
    assert_eq!(grail::weighted_run::gpu_reason(), Some(reason));
    let cpu = grail::weighted_run::run_sssp(&graph, 0, SsspEngine::Delta, None).unwrap();
    assert_eq!(cpu.device, "cpu");
    assert_eq!(cpu.distances.differences(&grail::weighted::dijkstra::dijkstra(&graph, 0)), 0);
}
