//! The labeling session the worker keeps between commands: the stepped CPU or GPU pipeline (or the
//! DFS, which runs to the end in one call), its labels once finished, and the telemetry it forwards.
//!
//! Cancelling pauses a run at the next level boundary: the labeler stays where it was, so `s`, `f`
//! or `r` carry on and `x` starts over.

use super::msg::{LabelStatus, Msg};
use crate::backend::{self, LabelSpec, Opened};
use crate::index::labeler::{Driven, Snapshot, Until, drive};
use crate::index::pipeline::ParentMethod;
use crate::index::{Labeler, Labels, Order};
use crate::telemetry::{Backend, Event, Sink};
use crate::tui::event::AppEvent;
use crate::workspace::Workspace;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
}

impl LabelCmd {
    fn until(self) -> Until {
        match self {
            LabelCmd::Step => Until::Level,
            LabelCmd::FinishPhase => Until::Phase,
            LabelCmd::RunToEnd | LabelCmd::Reset => Until::End,
        }
    }

    pub fn describe(&self, config: &LabelConfig) -> String {
        let what = match self {
            LabelCmd::Step => "stepping one level",
            LabelCmd::FinishPhase => "finishing the phase",
            LabelCmd::RunToEnd => "labeling to the end",
            LabelCmd::Reset => "resetting",
        };
        format!("{what} ({})", config.describe())
    }
}

/// Forwards telemetry to the UI.
struct Forward(Sender<AppEvent>);

impl Sink for Forward {
    fn emit(&mut self, event: Event) {
        let _ = self.0.send(AppEvent::Worker(Msg::Telemetry(event)));
    }
}

pub(super) struct Session {
    out: Sender<AppEvent>,
    config: Option<LabelConfig>,
    /// The run in progress, of whichever back end, and why it is not the one asked for.
    labeler: Option<(Box<dyn Labeler>, Option<String>)>,
    labels: Option<Arc<Labels>>,
}

impl Session {
    pub fn new(out: Sender<AppEvent>) -> Session {
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
            what: format!("building labels first ({})", config.describe()),
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
        if self.labels.is_some() {
            self.send(Msg::Info("the labels are complete; x resets, a new setting starts over".into()));
            return;
        }
        let mut sink = Forward(self.out.clone());
        if self.labeler.is_none() {
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
        let status_of = |labeler: &dyn Labeler| LabelStatus {
            config,
            backend: labeler.backend(),
            fallback: fallback.clone().or_else(|| labeler.handed_over().map(str::to_string)),
            status: labeler.status(),
            positions: labeler.positions(),
            seconds: labeler.seconds(),
        };
        let mut last_state = Instant::now();
        let mut tick = |labeler: &dyn Labeler| {
            if last_state.elapsed() >= STATE_EVERY {
                last_state = Instant::now();
                let _ = out.send(AppEvent::Worker(Msg::LabelState(Box::new(status_of(labeler)))));
            }
        };
        let outcome = drive(labeler.as_mut(), cmd.until(), &mut sink, cancel, &mut tick);
        let status = status_of(labeler.as_ref());
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
                self.send(Msg::Info("paused at a level boundary: s, f or r carry on, x resets".into()))
            }
            Ok(Driven::Reached) => {}
            Err(e) => self.send(Msg::Error(format!("{} labeling failed: {e:#}", backend.title()))),
        }
    }
}
