//! The worker thread: every long job (loading, labeling, queries, batches, exception counts,
//! exports) runs here, one at a time, and reports back as [`Msg`]s. The UI thread only sends
//! [`Job`]s and sets the cancel flag; the running job checks it at its next safe point.

mod batch;
pub mod concentration;
mod exact_rows;
pub mod labeling;
mod msg;
pub mod picture;
mod query_index;
pub mod weighted_path;

pub use batch::{
    BatchResult, BatchRow, BatchSpec, EXACT_BFS_QUERIES, GPU_METHOD, QuerySource, RunSpec, expected_answers, export,
};
pub use labeling::{LabelCmd, LabelConfig};
pub use msg::{ExceptionResult, LabelStatus, Msg, QueryResult};
pub use picture::{Focus, PictureLabels, PictureRequest, PictureResult};

use super::event::AppEvent;
use crate::draw::ComponentMembers;
use crate::exceptions::{self, ExceptionPlan};
use crate::format;
use crate::graph::io::Watch;
use crate::graph::{cycles, topo};
use crate::index::Labels;
use crate::query::{Decided, QueryIndex, Rule, RuleSet, decide_before_labels};
use crate::reachability::Index;
use crate::tui::state::graph::GraphFacts;
use crate::workspace::Workspace;
use concentration::BackgroundConcentration;
use labeling::Session;
use query_index::BackgroundIndex;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Most nodes a traced query keeps for the tree view.
pub const TRACE_NODE_LIMIT: usize = 20_000;
/// Dimensions the Exceptions tab compares.
pub const EXCEPTION_DIMS: usize = 5;

/// What the UI asks for.
#[derive(Debug)]
pub enum Job {
    Load(PathBuf),
    Label(LabelCmd, LabelConfig),
    /// Dense original ids; labels are built first (with the config) if there are none and the query
    /// index cannot decide alone.
    Query {
        u: u32,
        v: u32,
        config: LabelConfig,
        rules: RuleSet,
    },
    Batch(BatchSpec, LabelConfig),
    /// `gpu`: count on the GPU the explorer offers, where the graph is within its limit.
    Exceptions {
        seed: u64,
        gpu: bool,
    },
    Export {
        result: Arc<BatchResult>,
        base: PathBuf,
    },
    /// Draw (part of) the graph for the picture tab; a query's search needs labels, built with the
    /// config first if there are none.
    Picture(PictureRequest, LabelConfig),
    /// A job that panics on a pool thread (tests of the worker's recovery).
    #[cfg(test)]
    PanicOnPool,
}

impl Job {
    /// What the job does, to name it in its error.
    fn name(&self) -> &'static str {
        match self {
            Job::Load(_) => "loading",
            Job::Label(..) => "labeling",
            Job::Query { .. } => "the query",
            Job::Batch(..) => "the batch",
            Job::Exceptions { .. } => "counting exceptions",
            Job::Export { .. } => "the export",
            Job::Picture(..) => "the picture",
            #[cfg(test)]
            Job::PanicOnPool => "the test job",
        }
    }
}

/// The handle the UI keeps.
pub struct Worker {
    jobs: Sender<Job>,
    cancel: Arc<AtomicBool>,
}

impl Worker {
    /// Starts the thread on `ws`; `threads` is the "all threads" count for batches (0 = all cores).
    pub fn spawn(ws: Arc<Workspace>, events: Sender<AppEvent<Msg>>, threads: usize) -> Worker {
        let (jobs, inbox) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        thread::Builder::new()
            .name("grail-worker".into())
            .spawn(move || State::new(ws, events, flag, threads).serve(inbox))
            .expect("cannot start the worker thread");
        Worker { jobs, cancel }
    }

    pub fn send(&self, job: Job) {
        // A dead worker already reported its panic through the channel.
        let _ = self.jobs.send(job);
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The worker's side.
struct State {
    ws: Arc<Workspace>,
    out: Sender<AppEvent<Msg>>,
    cancel: Arc<AtomicBool>,
    threads: usize,
    session: Session,
    /// Each component's original vertices, for the picture (built on first use per graph).
    members: Option<ComponentMembers>,
    /// The open graph's query index (it depends on the DAG alone), started when the graph opens.
    query_index: BackgroundIndex,
    /// Where the session's finished labels let false positives through, counted beside the jobs.
    false_positives: BackgroundConcentration,
    /// The last exception's labels the picture drew, by `(dims, seed)` (dropped with the graph).
    exception_labels: Option<((usize, u64), Arc<Labels>)>,
    /// The last component whose cycle the picture drew, that cycle, and whether it is a shortest
    /// of the component (dropped with the graph).
    cycle: Option<(u32, Vec<u32>, bool)>,
    /// The index the Batch tab's runs answer with, kept while its labels and query index stay the
    /// same: a second GPU run finds the index's data still on the device.
    batch_index: Option<Index>,
    /// The open file's edge weights, read by the first query that shows a weighted distance.
    weights: weighted_path::Weights,
}

impl State {
    fn new(ws: Arc<Workspace>, out: Sender<AppEvent<Msg>>, cancel: Arc<AtomicBool>, threads: usize) -> State {
        let session = Session::new(out.clone());
        let query_index = BackgroundIndex::start(&ws);
        State {
            ws,
            out,
            cancel,
            threads,
            session,
            members: None,
            query_index,
            false_positives: BackgroundConcentration::default(),
            exception_labels: None,
            cycle: None,
            batch_index: None,
            weights: weighted_path::Weights::default(),
        }
    }

    fn send(&self, msg: Msg) {
        let _ = self.out.send(AppEvent::Worker(msg));
    }

    fn serve(mut self, inbox: Receiver<Job>) {
        while let Ok(job) = inbox.recv() {
            self.cancel.store(false, Ordering::Relaxed);
            let out = self.out.clone();
            let name = job.name();
            // A panic in a job (on this thread or a pool thread the job runs on) must not take the
            // UI down with a dead worker: it is the job's error, and the worker goes on.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run(job)));
            if let Err(panic) = result {
                // The hook kept the message with its place while the UI held the terminal.
                let text = super::terminal::take_panic_message()
                    .unwrap_or_else(|| super::terminal::payload_text(panic.as_ref()));
                let error = format!("{name} failed: internal error in the worker: {text}");
                let _ = out.send(AppEvent::Worker(Msg::Error(error)));
            }
            // A job may have finished, replaced or dropped the labels (or the graph): the count of
            // false positives follows them.
            self.false_positives.follow(&self.ws, self.session.labels(), &self.out);
            let _ = out.send(AppEvent::Worker(Msg::Idle));
        }
    }

    fn busy(&self, what: impl Into<String>, cancellable: bool) {
        self.send(Msg::Busy { what: what.into(), cancellable });
    }

    fn run(&mut self, job: Job) {
        match job {
            Job::Load(path) => self.load(path),
            Job::Label(cmd, config) => {
                self.busy(cmd.describe(&config), true);
                self.session.command(&self.ws, cmd, config, &self.cancel);
            }
            Job::Query { u, v, config, rules } => self.query(u, v, config, rules),
            Job::Batch(spec, config) => self.batch(spec, config),
            Job::Exceptions { seed, gpu } => self.exceptions(seed, gpu),
            Job::Picture(request, config) => self.picture(request, config),
            #[cfg(test)]
            Job::PanicOnPool => {
                use rayon::prelude::*;
                (0..64).into_par_iter().for_each(|i| assert_ne!(i, 63, "injected panic on a pool thread"));
            }
            Job::Export { result, base } => {
                self.busy(format!("exporting to {}", base.display()), false);
                match export(&result, &base) {
                    Ok(paths) => {
                        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                        self.send(Msg::Info(format!("exported {}", names.join(" and "))));
                    }
                    Err(e) => self.send(Msg::Error(format!("{e:#}"))),
                }
            }
        }
    }

    /// Opens `path` in place of the current graph. Reading reports its bytes and `c` stops it; a
    /// cancelled or failed load keeps the current graph open.
    fn load(&mut self, path: PathBuf) {
        let name = path.display().to_string();
        self.busy(format!("loading {name}"), true);
        let out = Mutex::new(self.out.clone());
        let report = |msg: Msg| {
            if let Ok(tx) = out.lock() {
                let _ = tx.send(AppEvent::Worker(msg));
            }
        };
        let progress = |read: u64, total: u64| {
            let doing = if read < total {
                format!("loading {name}: {} of {} read", format::bytes(read), format::bytes(total))
            } else {
                format!("loading {name}: {} read, parsing the rest and building the graph", format::bytes(total))
            };
            report(Msg::Doing(doing));
            report(Msg::Progress(if total == 0 { 1.0 } else { read as f64 / total as f64 }));
        };
        let watch = Watch { cancel: &self.cancel, progress: &progress };
        let stage = |what: &str| report(Msg::Doing(format!("loading {name}: {what}")));
        let opened = Workspace::open_in_stages(&path, None, watch, &stage).and_then(|ws| {
            stage("counting levels, degrees and cycles for the Graph tab");
            let facts = GraphFacts::compute(&ws);
            watch.check()?;
            Ok((ws, facts))
        });
        match opened {
            Ok((ws, facts)) => {
                self.ws = Arc::new(ws);
                self.query_index = BackgroundIndex::start(&self.ws);
                self.members = None;
                self.batch_index = None;
                self.exception_labels = None;
                self.cycle = None;
                self.weights = weighted_path::Weights::default();
                self.session.clear();
                self.send(Msg::LabelsCleared);
                self.send(Msg::Loaded(Arc::clone(&self.ws), Box::new(facts)));
            }
            Err(e) if e.is_cancelled() => {
                let kept = self.ws.loaded.path.display();
                self.send(Msg::Info(format!("loading {name} cancelled; {kept} stays open")));
            }
            Err(e) => self.send(Msg::LoadFailed(format!("{e:#}"))),
        }
    }

    /// The open graph's query index, waiting for its thread if it is not ready yet.
    fn query_index(&mut self) -> anyhow::Result<Arc<QueryIndex>> {
        if !self.query_index.is_ready() {
            self.busy("finishing the query index", false);
        }
        self.query_index.get()
    }

    fn query(&mut self, u: u32, v: u32, config: LabelConfig, rules: RuleSet) {
        // With every rule and no labels yet, the query index (far quicker to build) answers alone:
        // its cuts, then a search they guide. A cut decides exactly as it would with labels; a
        // search the labels would prune, so they are built after the answer, and the query is
        // asked again with them.
        if rules == RuleSet::All && self.session.labels().is_none() {
            let index = match self.query_index() {
                Ok(index) => index,
                Err(e) => return self.send(Msg::Error(format!("query index: {e:#}"))),
            };
            let ws = &self.ws;
            let method = rules.default_method();
            let component = &ws.condensation.component;
            if let Some(decided) = decide_before_labels(ws.dag(), component, &index, (u, v), method, TRACE_NODE_LIMIT) {
                let searched = decided.answer.rule == Rule::Search;
                let result = self.query_result(u, v, decided, None, Some(&index));
                self.send(Msg::QueryDone(Box::new(result)));
                if searched {
                    self.session.ensure_labels(&self.ws, config, &self.cancel);
                }
                return;
            }
        }
        let Some(labels) = self.session.ensure_labels(&self.ws, config, &self.cancel) else { return };
        let query_index = match rules {
            RuleSet::All => match self.query_index() {
                Ok(index) => Some(index),
                Err(e) => return self.send(Msg::Error(format!("query index: {e:#}"))),
            },
            RuleSet::Grail => None,
        };
        self.busy("answering the query", false);
        let index = Index::from_parts(Arc::clone(&self.ws), labels, query_index);
        let decided = index.decide(u, v, rules.default_method(), TRACE_NODE_LIMIT);
        let result = self.query_result(u, v, decided, Some(index.labels()), index.query_index());
        self.send(Msg::QueryDone(Box::new(result)));
    }

    /// What the Query tab shows of `decided`, with the intervals of its ends where there are labels.
    fn query_result(
        &mut self,
        u: u32,
        v: u32,
        decided: Decided,
        labels: Option<&Labels>,
        index: Option<&QueryIndex>,
    ) -> QueryResult {
        let Decided { answer, decision, trace } = decided;
        let ws = &self.ws;
        let (cu, cv) = decision.ends;
        let vertex_path = answer.path.as_ref().and_then(|p| ws.vertex_path(u, v, p));
        // Reachability is decided without weights; the weighted distance is a line of its own.
        let weighted = self.weights.answer(ws, u, v, answer.reachable);
        let intervals = |c: u32| labels.map_or_else(Vec::new, |labels| labels.of(c).to_vec());
        // The labels' levels are the DAG's Kahn levels, which the query index was built on.
        let level = |c: u32| topo::kahn(ws.dag()).map_or(0, |k| k.level[c as usize]);
        QueryResult {
            u,
            v,
            cu,
            cv,
            answer,
            vertex_path,
            trace,
            intervals_u: intervals(cu),
            intervals_v: intervals(cv),
            labels_ready: labels.is_some(),
            level_u: level(cu),
            level_v: level(cv),
            topo: index.map(|index| (*index.topo(cu), *index.topo(cv))),
            dag_vertices: ws.dag().num_vertices(),
            decision,
            weighted,
        }
    }

    fn batch(&mut self, spec: BatchSpec, config: LabelConfig) {
        let Some(labels) = self.session.ensure_labels(&self.ws, config, &self.cancel) else { return };
        let out = self.out.clone();
        let progress = move |f: f64| {
            let _ = out.send(AppEvent::Worker(Msg::Progress(f)));
        };
        let query_index = match spec.rules {
            RuleSet::All => match self.query_index() {
                Ok(index) => Some(index),
                Err(e) => return self.send(Msg::Error(format!("query index: {e:#}"))),
            },
            RuleSet::Grail => None,
        };
        self.busy("running the batch", true);
        if !self.batch_index.as_ref().is_some_and(|kept| kept.shares(&labels, query_index.as_ref())) {
            // The old index goes first: two copies of a large graph may not fit the GPU.
            self.batch_index = None;
            self.batch_index = Some(Index::from_parts(Arc::clone(&self.ws), labels, query_index));
        }
        let index = self.batch_index.as_ref().expect("kept above");
        match batch::run(index, &spec, self.threads, &self.cancel, &progress) {
            Ok(result) => self.send(Msg::BatchDone(Arc::new(result))),
            // The user's own cancel is no failure; what the table still shows is not this batch.
            Err(_) if self.cancel.load(Ordering::Relaxed) => {
                self.send(Msg::Info("batch cancelled: any results shown are an earlier batch's".into()))
            }
            Err(e) => self.send(Msg::Error(format!("batch: {e:#}"))),
        }
    }

    fn picture(&mut self, request: PictureRequest, config: LabelConfig) {
        let (labels, snapshot) = match request.labels {
            PictureLabels::Exception { dims, seed } => match self.exception_labels(dims, seed) {
                Ok(labels) => (Some(labels), None),
                Err(e) => return self.send(Msg::Error(format!("picture: {e:#}"))),
            },
            PictureLabels::Session => {
                if matches!(request.focus, Focus::Query { .. })
                    && self.session.ensure_labels(&self.ws, config, &self.cancel).is_none()
                {
                    return;
                }
                (self.session.labels(), self.session.snapshot(request.dim))
            }
        };
        // A query drawn with the Labels tab's labels runs with the rules chosen; a false positive
        // keeps GRAIL's, under which it was counted.
        let request = match request.labels {
            PictureLabels::Exception { .. } => PictureRequest { rules: RuleSet::Grail, ..request },
            PictureLabels::Session => request,
        };
        let query_index = match (&labels, request.focus, request.rules) {
            (Some(_), Focus::Query { .. }, RuleSet::All) => match self.query_index() {
                Ok(index) => Some(index),
                Err(e) => return self.send(Msg::Error(format!("query index: {e:#}"))),
            },
            _ => None,
        };
        self.busy("drawing the picture", false);
        let members = self.members.get_or_insert_with(|| ComponentMembers::new(&self.ws.condensation));
        // A component's shortest cycle, the one the Graph tab lists: found once, kept while the
        // picture is redrawn around it.
        let cycle = match request.focus {
            Focus::Cycle(c) if (c as usize) < self.ws.condensation.num_components() => {
                if self.cycle.as_ref().is_none_or(|(of, _, _)| *of != c) {
                    let all = members.first(c, usize::MAX);
                    let (graph, component) = (&self.ws.loaded.graph, &self.ws.condensation.component);
                    let (cycle, shortest) =
                        cycles::shortest_cycle_of(graph, component, &all, cycles::CYCLE_SEARCH_BUDGET);
                    self.cycle = Some((c, cycle, shortest));
                }
                self.cycle.as_ref().map(|(_, cycle, shortest)| (cycle.as_slice(), *shortest))
            }
            _ => None,
        };
        let index = labels.map(|labels| Index::from_parts(Arc::clone(&self.ws), labels, query_index));
        match picture::build(&self.ws, members, index.as_ref(), snapshot.as_ref(), cycle, request) {
            Ok(result) => self.send(Msg::PictureReady(Box::new(result))),
            Err(e) => self.send(Msg::Error(format!("picture: {e:#}"))),
        }
    }

    /// The labels an exception was counted with: the first `dims` dimensions of the Exceptions
    /// tab's random-order labeling from `seed` (dimension `i` depends only on the seed and `i`, so
    /// labeling `dims` dimensions gives exactly those). Kept while the same pair's labels are drawn.
    fn exception_labels(&mut self, dims: usize, seed: u64) -> anyhow::Result<Arc<Labels>> {
        if let Some((of, labels)) = &self.exception_labels
            && *of == (dims, seed)
        {
            return Ok(Arc::clone(labels));
        }
        self.busy(format!("labeling d = {dims}, seed {seed} (the exception's labels)"), false);
        let labels = Arc::new(crate::index::dfs::label(self.ws.dag(), dims, crate::index::Order::Random { seed })?);
        self.exception_labels = Some(((dims, seed), Arc::clone(&labels)));
        Ok(labels)
    }

    fn exceptions(&mut self, seed: u64, gpu: bool) {
        let dag = Arc::clone(self.ws.dag());
        let plan = ExceptionPlan::choose(dag.num_vertices(), gpu);
        self.busy(plan.describe(), true);
        let clock = Instant::now();
        let labels = match crate::index::dfs::label(&dag, EXCEPTION_DIMS, crate::index::Order::Random { seed }) {
            Ok(l) => l,
            Err(e) => return self.send(Msg::Error(format!("{e:#}"))),
        };
        let out = Mutex::new(self.out.clone());
        let progress = move |f: f64| {
            if let Ok(tx) = out.lock() {
                let _ = tx.send(AppEvent::Worker(Msg::Progress(f)));
            }
        };
        let cpu = |plan: ExceptionPlan| {
            match plan {
                ExceptionPlan::Sampled => {
                    exceptions::sampled(&dag, &labels, exceptions::SAMPLES, seed, &self.cancel, &progress)
                }
                _ => exceptions::exact(&dag, &labels, &self.cancel, &progress),
            }
            .map_err(anyhow::Error::from)
        };
        let counts = match plan {
            ExceptionPlan::Gpu => {
                match crate::exact_run::exceptions_on_gpu(&dag, &labels, &self.cancel, &progress) {
                    Err(e) if !self.cancel.load(Ordering::Relaxed) => {
                        // Said, never silent: the CPU's count (or estimate) follows.
                        let fallback = ExceptionPlan::choose(dag.num_vertices(), false);
                        self.send(Msg::Info(format!("exceptions on the GPU failed ({e:#}); {}", fallback.describe())));
                        cpu(fallback)
                    }
                    other => other,
                }
            }
            cpu_plan => cpu(cpu_plan),
        };
        match counts {
            Ok(counts) => {
                let seconds = clock.elapsed().as_secs_f64();
                self.send(Msg::ExceptionsDone(ExceptionResult { counts, seed, seconds }))
            }
            Err(e) => self.send(Msg::Info(format!("exceptions: {e:#}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The worker's messages up to its next `Idle`.
    fn until_idle(events: &Receiver<AppEvent<Msg>>) -> Vec<Msg> {
        let mut msgs = Vec::new();
        loop {
            match events.recv_timeout(Duration::from_secs(60)).expect("the worker answers") {
                AppEvent::Worker(Msg::Idle) => return msgs,
                AppEvent::Worker(msg) => msgs.push(msg),
                _ => {}
            }
        }
    }

    #[test]
    fn a_panic_on_a_pool_thread_is_the_jobs_error_and_the_worker_goes_on() {
        let graph = crate::graph::generators::chain(10).unwrap();
        let (tx, events) = channel();
        let worker = Worker::spawn(Arc::new(Workspace::of_graph(graph, "chain")), tx, 2);
        worker.send(Job::PanicOnPool);
        let errors: Vec<String> = until_idle(&events)
            .into_iter()
            .filter_map(|m| if let Msg::Error(e) = m { Some(e) } else { None })
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("the test job failed: internal error in the worker: "), "{errors:?}");
        assert!(errors[0].contains("injected panic on a pool thread"), "{errors:?}");
        let lesson = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/lesson.gra");
        worker.send(Job::Load(lesson));
        let loaded = until_idle(&events).into_iter().any(|m| matches!(m, Msg::Loaded(..)));
        assert!(loaded, "the worker still runs jobs");
    }
}
