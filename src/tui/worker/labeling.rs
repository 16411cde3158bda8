//! The labeling session the worker keeps between commands: the stepped CPU or GPU pipeline (or the
//! DFS, which runs to the end in one call), its labels once finished, and the telemetry it forwards.
//!
//! Cancelling pauses a run at the next level boundary: the labeler stays where it was, so `s`, `f`
//! or `r` carry on and `x` starts over. A step back (`b`) replays the run from the start to the
//! level before the last one: the labelers are deterministic, so the replay ends where the run
//! stood one level earlier.

use super::msg::{LabelStatus, Msg};
use crate::backend::{self, LabelSpec, Opened};
use crate::index::labeler::{Driven, Position, Snapshot, Status, Until, drive};
use crate::index::pipeline::ParentMethod;
use crate::index::{Labeler, Labels, Order};
use crate::telemetry::{Backend, Event, Sink};
use crate::tui::event::AppEvent;
use crate::workspace::Workspace;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How often a long run sends its state.
const STATE_EVERY: Duration = Duration::from_millis(100);

/// What to build: the same request the command line makes.
pub type LabelConfig = LabelSpec;

/// The explorer's starting settings: the command line's dimensions, order and seed, but the CPU
/// pipeline (the command line's default is the classic DFS), whose levels can be stepped.
pub const DEFAULT_CONFIG: LabelConfig = LabelSpec {
    backend: Backend::Cpu,
    dims: crate::backend::DEFAULT_DIMS,
    order: Order::Random { seed: 1 },
    parent_method: ParentMethod::Exact,
    all_dims_at_once: false,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelCmd {
    Step,
    FinishPhase,
    RunToEnd,
    Reset,
    /// One level back: replayed from the start.
    StepBack,
}

impl LabelCmd {
    fn until(self) -> Until {
        match self {
            LabelCmd::Step => Until::Level,
            LabelCmd::FinishPhase => Until::Phase,
            LabelCmd::RunToEnd | LabelCmd::Reset | LabelCmd::StepBack => Until::End,
        }
    }

    pub fn describe(&self, config: &LabelConfig) -> String {
        let what = match self {
            LabelCmd::Step => "stepping one level",
            LabelCmd::FinishPhase => "finishing the phase",
            LabelCmd::RunToEnd => "labeling to the end",
            LabelCmd::Reset => "resetting",
            LabelCmd::StepBack => "stepping one level back (replaying from the start)",
        };
        format!("{what} ({})", config.describe())
    }
}

/// Forwards telemetry to the UI.
struct Forward(Sender<AppEvent<Msg>>);

impl Sink for Forward {
    fn emit(&mut self, event: Event) {
        let _ = self.0.send(AppEvent::Worker(Msg::Telemetry(event)));
    }
}

pub(super) struct Session {
    out: Sender<AppEvent<Msg>>,
    config: Option<LabelConfig>,
    /// The run in progress, of whichever back end, and why it is not the one asked for.
    labeler: Option<(Box<dyn Labeler>, Option<String>)>,
    labels: Option<Arc<Labels>>,
}

impl Session {
    pub fn new(out: Sender<AppEvent<Msg>>) -> Session {
        Session { out, config: None, labeler: None, labels: None }
    }

    fn send(&self, msg: Msg) {
        let _ = self.out.send(AppEvent::Worker(msg));
    }

    /// Forgets everything (a new graph).
    pub fn clear(&mut self) {
        self.config = None;
        self.labeler = None;
        self.labels = None;
    }

    /// The finished labels, if any.
    pub fn labels(&self) -> Option<Arc<Labels>> {
        self.labels.clone()
    }

    /// What the run in progress knows of dimension `dim` (small graphs only).
    pub fn snapshot(&self, dim: usize) -> Option<Snapshot> {
        self.labeler.as_ref().and_then(|(labeler, _)| labeler.snapshot(dim))
    }

    /// The labels, building them to the end with `config` if there are none yet. `None` if that
    /// failed or was cancelled (already reported).
    pub fn ensure_labels(&mut self, ws: &Workspace, config: LabelConfig, cancel: &AtomicBool) -> Option<Arc<Labels>> {
        if let Some(labels) = &self.labels {
            return Some(Arc::clone(labels));
        }
        let _ = self.out.send(AppEvent::Worker(Msg::Busy {
            what: format!("building labels ({})", config.describe()),
            cancellable: true,
        }));
        self.command(ws, LabelCmd::RunToEnd, config, cancel);
        self.labels.clone()
    }

    /// Runs `cmd` on the session's labeler (opened on first use), whatever its back end. Cancelling
    /// pauses at the next level boundary: `s`, `f` or `r` carry on, `x` starts over.
    pub fn command(&mut self, ws: &Workspace, cmd: LabelCmd, config: LabelConfig, cancel: &AtomicBool) {
        if self.config != Some(config) || cmd == LabelCmd::Reset {
            let had = self.labels.is_some() || self.labeler.is_some();
            self.clear();
            self.config = Some(config);
            if had {
                self.send(Msg::LabelsCleared);
            }
        }
        if cmd == LabelCmd::Reset {
            self.send(Msg::Info("reset: nothing labeled yet".into()));
            return;
        }
        if cmd == LabelCmd::StepBack {
            return self.step_back(cancel);
        }
        if self.labels.is_some() {
            self.send(Msg::Info("the labels are complete; x resets, a new setting starts over".into()));
            return;
        }
        let mut sink = Forward(self.out.clone());
        if self.labeler.is_none() {
            // Opening a run on a large graph takes a while: the UI shows it as starting meanwhile.
            let starting = LabelStatus {
                config,
                backend: config.backend,
                fallback: None,
                status: crate::index::labeler::Status::NotStarted,
                positions: Vec::new(),
                seconds: 0.0,
                in_progress: true,
            };
            self.send(Msg::LabelState(Box::new(starting)));
            match backend::open(ws.dag(), &config) {
                Ok(Opened { labeler, fallback }) => {
                    if let Some(reason) = &fallback {
                        let (requested, ran) = (config.backend, labeler.backend());
                        sink.emit(Event::Fallback { requested, ran, reason: reason.clone() });
                    }
                    self.labeler = Some((labeler, fallback));
                }
                Err(e) => return self.send(Msg::Error(format!("cannot start labeling: {e:#}"))),
            }
        }
        let Some((labeler, fallback)) = self.labeler.as_mut() else { return };
        let out = self.out.clone();
        let state =
            |labeler: &dyn Labeler, in_progress: bool| status_of(config, labeler, fallback.as_deref(), in_progress);
        // The UI learns at once that the run moves, not only at the first tick.
        let _ = out.send(AppEvent::Worker(Msg::LabelState(Box::new(state(labeler.as_ref(), true)))));
        let mut last_state = Instant::now();
        let mut tick = |labeler: &dyn Labeler| {
            if last_state.elapsed() >= STATE_EVERY {
                last_state = Instant::now();
                let _ = out.send(AppEvent::Worker(Msg::LabelState(Box::new(state(labeler, true)))));
            }
        };
        let outcome = drive(labeler.as_mut(), cmd.until(), &mut sink, cancel, &mut tick);
        let status = state(labeler.as_ref(), false);
        let backend = labeler.backend();
        self.send(Msg::LabelState(Box::new(status)));
        match outcome {
            Ok(Driven::Finished(labels)) => {
                if backend == Backend::Dfs {
                    self.send(Msg::Info("the DFS back end has no levels: it ran to the end in one step".into()));
                }
                let labels = Arc::new(labels);
                self.labels = Some(Arc::clone(&labels));
                self.send(Msg::LabelsReady(labels));
            }
            Ok(Driven::Paused) => {
                let how = "s, f or r on the Labels or Picture tab carry on, x there resets";
                self.send(Msg::Info(format!("labeling paused at a level boundary: {how}")))
            }
            Ok(Driven::Reached) => {}
            Err(e) if backend == Backend::Gpu && !e.is_cancelled() => {
                self.fall_back_to_cpu(ws, cmd, config, cancel, e.into());
            }
            Err(e) => self.send(Msg::Error(format!("{} labeling failed: {e:#}", backend.title()))),
        }
    }

    /// Takes the run one level back: counts the levels from the start to where it stands, then
    /// replays one fewer (telemetry forwarded, so the Labels tab's tables are rebuilt as they were).
    fn step_back(&mut self, cancel: &AtomicBool) {
        let finished = self.labels.is_some();
        let Some((labeler, _)) = self.labeler.as_mut() else {
            return self.send(Msg::Info("nothing to step back: no level has run yet".into()));
        };
        if !finished && labeler.status() != Status::Running {
            let why = match labeler.status() {
                Status::NotStarted => "no level has run yet".to_string(),
                Status::Cancelled => "the run was cancelled; x resets".to_string(),
                Status::Failed(message) => format!("the run failed ({message}); x resets"),
                Status::Running | Status::Finished => "the run has no levels to go back to; x resets".to_string(),
            };
            return self.send(Msg::Info(format!("nothing to step back: {why}")));
        }
        let target = labeler.positions();
        // Dimensions run at once stand at one level together after every single step; a run to the
        // end paused with more dimensions than threads may not, and no replay of steps meets it.
        let together = target.windows(2).all(|w| (w[0].phase, w[0].level) == (w[1].phase, w[1].level));
        if !together && self.config.is_some_and(|c| c.all_dims_at_once) {
            return self.send(Msg::Info(
                "cannot step back here: the dimensions run at once stand at different levels; x resets".into(),
            ));
        }
        let counted = replay(labeler.as_mut(), usize::MAX, &target, finished, &mut NoSink, cancel);
        // From here the run is a replay: the labels it had, and the Labels tab's tables, are gone.
        self.labels = None;
        self.send(Msg::LabelsCleared);
        let levels = match counted {
            Ok(Replayed::Met(levels)) => levels,
            Ok(Replayed::Stopped) => return self.stepped_back_cancelled(),
            Err(e) => return self.send(Msg::Error(format!("stepping back failed: {e:#}"))),
        };
        let Some((labeler, _)) = self.labeler.as_mut() else { return };
        let mut sink = Forward(self.out.clone());
        let outcome = replay(labeler.as_mut(), levels.saturating_sub(1), &[], false, &mut sink, cancel);
        match outcome {
            Ok(Replayed::Met(0)) => {
                self.send_status();
                self.send(Msg::Info("stepped back to the start: no level has run".into()))
            }
            Ok(Replayed::Met(run)) => {
                self.send_status();
                let at = self.where_it_stands();
                let levels = crate::format::plural(run as u64, "level", "levels");
                self.send(Msg::Info(format!("stepped back one level ({levels} run): {at}")))
            }
            Ok(Replayed::Stopped) => self.stepped_back_cancelled(),
            Err(e) => self.send(Msg::Error(format!("stepping back failed: {e:#}"))),
        }
    }

    fn stepped_back_cancelled(&self) {
        self.send_status();
        let at = self.where_it_stands();
        self.send(Msg::Info(format!("stepping back cancelled mid-replay: {at}; s, f or r carry on, x resets")));
    }

    /// Sends the run's state, between commands, to the Labels tab.
    fn send_status(&self) {
        let (Some(config), Some((labeler, fallback))) = (self.config, self.labeler.as_ref()) else { return };
        self.send(Msg::LabelState(Box::new(status_of(config, labeler.as_ref(), fallback.as_deref(), false))));
    }

    /// Where the run stands, in words: `dim 0 parent selection, next level 2`.
    fn where_it_stands(&self) -> String {
        let positions = self.labeler.as_ref().map(|(l, _)| l.positions()).unwrap_or_default();
        match positions.first() {
            Some(p) if self.labeler.as_ref().is_some_and(|(l, _)| l.status() == Status::NotStarted) => {
                format!("no level has run (next: dim {} {}, level {})", p.dim, p.phase, p.level)
            }
            Some(p) => format!("dim {} {}, next level {}", p.dim, p.phase, p.level),
            None => "every level has run".into(),
        }
    }

    /// A GPU run that failed on the way (the device lost, out of memory) starts over on the CPU
    /// pipeline and carries out `cmd` there, as `grail label` does: the fallback and its reason
    /// are an event and stay in the status line, never a silent switch.
    fn fall_back_to_cpu(
        &mut self,
        ws: &Workspace,
        cmd: LabelCmd,
        config: LabelConfig,
        cancel: &AtomicBool,
        error: anyhow::Error,
    ) {
        match backend::after_gpu_failure(ws.dag(), &config, error, &mut Forward(self.out.clone())) {
            Ok(Opened { labeler, fallback }) => {
                let reason = fallback.clone().unwrap_or_default();
                self.send(Msg::Info(format!("{reason}; starting over on the CPU pipeline")));
                self.labeler = Some((labeler, fallback));
                self.command(ws, cmd, config, cancel);
            }
            Err(e) => self.send(Msg::Error(format!("{e:#}"))),
        }
    }
}

/// How a [`replay`] ended.
enum Replayed {
    /// It ran this many single levels and met its goal.
    Met(usize),
    /// Cancelled on the way.
    Stopped,
}

/// Telemetry nobody reads (counting the levels of a run).
struct NoSink;

impl Sink for NoSink {
    fn emit(&mut self, _: Event) {}
}

/// Resets `labeler` and runs it one level at a time until `levels` have run, it stands at `target`
/// (when not empty), or, with `to_end`, it has finished. Returns the levels run.
fn replay(
    labeler: &mut dyn Labeler,
    levels: usize,
    target: &[Position],
    to_end: bool,
    sink: &mut dyn Sink,
    cancel: &AtomicBool,
) -> anyhow::Result<Replayed> {
    labeler.reset();
    let mut run = 0;
    while run < levels {
        if !target.is_empty() && labeler.status() == Status::Running && labeler.positions() == target {
            return Ok(Replayed::Met(run));
        }
        if cancel.load(Ordering::Relaxed) {
            return Ok(Replayed::Stopped);
        }
        let advance = labeler.advance(Until::Level, sink)?;
        run += 1;
        if advance.finished {
            // The labels of a finished replay are the run's own: nothing keeps them but the count.
            let _ = labeler.take_labels();
            if to_end || levels != usize::MAX {
                return Ok(Replayed::Met(run));
            }
            anyhow::bail!("the replay finished without meeting the level the run stood at");
        }
    }
    Ok(Replayed::Met(run))
}

/// What the Labels tab is told of a run: `in_progress` while a command drives it.
fn status_of(config: LabelConfig, labeler: &dyn Labeler, fallback: Option<&str>, in_progress: bool) -> LabelStatus {
    LabelStatus {
        config,
        backend: labeler.backend(),
        fallback: fallback.or_else(|| labeler.handed_over()).map(str::to_string),
        status: labeler.status(),
        positions: labeler.positions(),
        seconds: labeler.seconds(),
        in_progress,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::dfs;
    use crate::index::labeler::{Advance, Position, Status};
    use crate::telemetry::Phase;
    use std::sync::mpsc;

    /// A GPU run whose device fails at its first step.
    struct FailingGpu(Arc<AtomicBool>);

    impl Labeler for FailingGpu {
        fn backend(&self) -> Backend {
            Backend::Gpu
        }
        fn advance(&mut self, _: Until, _: &mut dyn Sink) -> grail_engine::Result<Advance> {
            Err(grail_engine::Error::other(anyhow::anyhow!("device lost")))
        }
        fn positions(&self) -> Vec<Position> {
            vec![Position { dim: 0, phase: Phase::ParentSelection, level: 0 }]
        }
        fn status(&self) -> Status {
            Status::Running
        }
        fn seconds(&self) -> f64 {
            0.0
        }
        fn take_labels(&mut self) -> Option<Labels> {
            None
        }
        fn cancel_token(&self) -> Arc<AtomicBool> {
            Arc::clone(&self.0)
        }
        fn reset(&mut self) {}
    }

    fn lesson() -> Workspace {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/lesson.gra");
        Workspace::open(&path, None).unwrap()
    }

    /// A session on `ws` after `cmds`, with the messages it sent.
    fn after(ws: &Workspace, config: LabelConfig, cmds: &[LabelCmd]) -> (Session, Vec<Msg>) {
        let (out, received) = mpsc::channel();
        let mut session = Session::new(out);
        for &cmd in cmds {
            session.command(ws, cmd, config, &AtomicBool::new(false));
        }
        let messages = received
            .try_iter()
            .filter_map(|e| match e {
                AppEvent::Worker(msg) => Some(msg),
                _ => None,
            })
            .collect();
        (session, messages)
    }

    fn last_info(messages: &[Msg]) -> String {
        messages
            .iter()
            .rev()
            .find_map(|m| if let Msg::Info(t) = m { Some(t.clone()) } else { None })
            .unwrap_or_default()
    }

    #[test]
    fn a_step_back_stands_where_one_step_fewer_stood() {
        use LabelCmd::{Step, StepBack};
        let ws = lesson();
        let config = LabelSpec { dims: 2, ..DEFAULT_CONFIG };
        let (two, _) = after(&ws, config, &[Step, Step]);
        let (back, messages) = after(&ws, config, &[Step, Step, Step, StepBack]);
        for dim in 0..2 {
            assert_eq!(back.snapshot(dim), two.snapshot(dim), "dimension {dim}");
        }
        let positions = |s: &Session| s.labeler.as_ref().map(|(l, _)| l.positions());
        assert_eq!(positions(&back), positions(&two));
        let info = last_info(&messages);
        assert!(info.contains("stepped back one level (2 levels run)"), "{info}");
        assert!(info.contains("dim 0 parent selection, next level 2"), "{info}");
        // Stepping on after a step back carries on from there.
        let (three, _) = after(&ws, config, &[Step, Step, Step]);
        let (again, _) = after(&ws, config, &[Step, Step, Step, StepBack, Step]);
        assert_eq!(again.snapshot(0), three.snapshot(0));
    }

    #[test]
    fn a_step_back_from_finished_labels_clears_them_and_stands_before_the_last_level() {
        use LabelCmd::{FinishPhase, RunToEnd, Step, StepBack};
        let ws = lesson();
        let config = LabelSpec { dims: 1, ..DEFAULT_CONFIG };
        let (back, messages) = after(&ws, config, &[RunToEnd, StepBack]);
        assert!(back.labels().is_none());
        assert!(messages.iter().any(|m| matches!(m, Msg::LabelsCleared)));
        // One level short of the end, then one step finishes the labels again.
        let (mut back, _) = after(&ws, config, &[RunToEnd, StepBack]);
        back.command(&ws, Step, config, &AtomicBool::new(false));
        let digest = back.labels().expect("one step finishes them").digest();
        assert_eq!(digest, dfs::label(ws.dag(), 1, config.order).unwrap().digest());
        // After phases finished with f, a step back lands inside the last phase run.
        let (phase, _) = after(&ws, config, &[FinishPhase, FinishPhase, StepBack]);
        let stepped: Vec<LabelCmd> = std::iter::repeat_n(Step, 6 + 7 - 1).collect();
        let (steps, _) = after(&ws, config, &stepped);
        assert_eq!(phase.snapshot(0), steps.snapshot(0));
    }

    #[test]
    fn a_step_back_with_nothing_run_says_so() {
        let ws = lesson();
        let (session, messages) = after(&ws, DEFAULT_CONFIG, &[LabelCmd::StepBack]);
        assert!(session.labels().is_none());
        assert_eq!(last_info(&messages), "nothing to step back: no level has run yet");
        let (_, messages) = after(&ws, DEFAULT_CONFIG, &[LabelCmd::Step, LabelCmd::StepBack]);
        assert_eq!(last_info(&messages), "stepped back to the start: no level has run");
        assert!(!messages.iter().any(|m| matches!(m, Msg::Error(_))));
    }

    #[test]
    fn a_gpu_run_that_fails_starts_over_on_the_cpu_and_says_why() {
        let graph = crate::graph::generators::random_digraph(300, 1.5, 2).unwrap();
        let ws = Workspace::of_graph(graph, "digraph");
        let (out, received) = mpsc::channel();
        let mut session = Session::new(out);
        let config = LabelSpec { backend: Backend::Gpu, dims: 2, ..DEFAULT_CONFIG };
        session.config = Some(config);
        session.labeler = Some((Box::new(FailingGpu(Arc::default())), None));
        session.command(&ws, LabelCmd::RunToEnd, config, &AtomicBool::new(false));

        let messages: Vec<Msg> = received
            .try_iter()
            .filter_map(|e| match e {
                AppEvent::Worker(msg) => Some(msg),
                _ => None,
            })
            .collect();
        let fallback = messages.iter().find_map(|m| match m {
            Msg::Telemetry(Event::Fallback { requested, ran, reason }) => Some((*requested, *ran, reason.clone())),
            _ => None,
        });
        let (requested, ran, reason) = fallback.expect("the fallback is an event");
        assert_eq!((requested, ran), (Backend::Gpu, Backend::Cpu));
        assert!(reason.contains("GPU labeling failed") && reason.contains("device lost"), "{reason}");
        let status = messages.iter().rev().find_map(|m| match m {
            Msg::LabelState(s) => Some(s.clone()),
            _ => None,
        });
        let status = status.expect("a state after the run");
        assert_eq!(status.backend, Backend::Cpu);
        assert!(status.fallback.as_deref().is_some_and(|r| r.contains("device lost")));
        // The CPU pipeline finished the command: the same labels as the DFS.
        let labels = session.labels().expect("labels after the fallback");
        assert_eq!(labels.digest(), dfs::label(ws.dag(), 2, DEFAULT_CONFIG.order).unwrap().digest());
        assert!(!messages.iter().any(|m| matches!(m, Msg::Error(_))), "{messages:?}");
    }
}
