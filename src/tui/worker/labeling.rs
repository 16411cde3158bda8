//! The labeling session the worker keeps between commands: the stepped CPU or GPU pipeline (or the
//! DFS, which runs to the end in one call), its labels once finished, and the telemetry it forwards.
//!
//! Cancelling pauses a run at the next level boundary: the labeler stays where it was, so `s`, `f`
//! or `r` carry on and `x` starts over.

use super::Msg;
use crate::gpu::pipeline::GpuLabeler;
use crate::index::pipeline::{Backend, ParentMethod, PipelineConfig, PipelineLabeler, PipelineState, Status};
use crate::index::{Labels, Order, dfs};
use crate::telemetry::{Event, Phase, Sink};
use crate::tui::event::AppEvent;
use crate::workspace::Workspace;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How often a long run sends its state.
const STATE_EVERY: Duration = Duration::from_millis(100);

/// What to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelConfig {
    pub backend: Backend,
    pub dims: usize,
    pub order: Order,
    pub parent_method: ParentMethod,
    /// Pipeline: every step advances all dimensions.
    pub all_dims_at_once: bool,
}

impl Default for LabelConfig {
    fn default() -> Self {
        LabelConfig {
            backend: Backend::Cpu,
            dims: 2,
            order: Order::Random { seed: 1 },
            parent_method: ParentMethod::Exact,
            all_dims_at_once: false,
        }
    }
}

impl LabelConfig {
    fn pipeline(&self) -> PipelineConfig {
        PipelineConfig {
            dims: self.dims,
            order: self.order,
            parent_method: self.parent_method,
            all_dims_at_once: self.all_dims_at_once,
        }
    }

    /// `cpu d=2 random(seed 1)`.
    pub fn describe(&self) -> String {
        let backend = crate::tui::state::labels::backend_name(self.backend);
        format!("{backend}, d={}, {}", self.dims, self.order)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelCmd {
    Step,
    FinishPhase,
    RunToEnd,
    Reset,
}

impl LabelCmd {
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

/// Where the session stands, for the Labels tab.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelStatus {
    pub config: LabelConfig,
    pub status: Status,
    /// Per unfinished dimension: phase and next level.
    pub positions: Vec<(usize, Phase, usize)>,
    pub seconds: f64,
}

impl LabelStatus {
    fn from_state(config: LabelConfig, state: PipelineState) -> LabelStatus {
        LabelStatus { config, status: state.status, positions: state.positions, seconds: state.seconds }
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
    labeler: Option<PipelineLabeler>,
    gpu: Option<GpuLabeler>,
    labels: Option<Arc<Labels>>,
}

impl Session {
    pub fn new(out: Sender<AppEvent>) -> Session {
        Session { out, config: None, labeler: None, gpu: None, labels: None }
    }

    fn send(&self, msg: Msg) {
        let _ = self.out.send(AppEvent::Worker(msg));
    }

    /// Forgets everything (a new graph).
    pub fn clear(&mut self) {
        self.config = None;
        self.labeler = None;
        self.gpu = None;
        self.labels = None;
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

    pub fn command(&mut self, ws: &Workspace, cmd: LabelCmd, config: LabelConfig, cancel: &AtomicBool) {
        if self.config != Some(config) || cmd == LabelCmd::Reset {
            let had = self.labels.is_some() || self.labeler.is_some() || self.gpu.is_some();
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
        match config.backend {
            Backend::Dfs => self.run_dfs(ws, config),
            Backend::Cpu => self.run_pipeline(ws, cmd, config, cancel),
            Backend::Gpu => self.run_gpu(ws, cmd, config, cancel),
        }
    }

    fn run_dfs(&mut self, ws: &Workspace, config: LabelConfig) {
        let mut sink = Forward(self.out.clone());
        match dfs::label_with_events(ws.dag(), config.dims, config.order, &mut sink) {
            Ok(labels) => {
                self.send(Msg::Info("the DFS back end has no levels: it ran to the end in one step".into()));
                self.finished(labels);
            }
            Err(e) => self.send(Msg::Error(format!("DFS labeling failed: {e:#}"))),
        }
    }

    fn finished(&mut self, labels: Labels) {
        let labels = Arc::new(labels);
        self.labels = Some(Arc::clone(&labels));
        self.send(Msg::LabelsReady(labels));
    }

    fn run_pipeline(&mut self, ws: &Workspace, cmd: LabelCmd, config: LabelConfig, cancel: &AtomicBool) {
        if self.labeler.is_none() {
            match PipelineLabeler::new(Arc::clone(ws.dag()), config.pipeline()) {
                Ok(l) => self.labeler = Some(l.with_sink(Box::new(Forward(self.out.clone())))),
                Err(e) => return self.send(Msg::Error(format!("cannot start the pipeline: {e:#}"))),
            }
        }
        let Some(labeler) = self.labeler.as_mut() else { return };
        // The dimensions whose current phase `f` finishes.
        let mut pending: Vec<usize> = {
            let positions = labeler.state().positions;
            let dims: Vec<usize> = positions.iter().map(|&(d, _, _)| d).collect();
            if config.all_dims_at_once { dims } else { dims.into_iter().take(1).collect() }
        };
        let mut last_state = Instant::now();
        let mut paused = false;
        let outcome = loop {
            if cmd != LabelCmd::Step && cancel.load(Ordering::Relaxed) {
                paused = true;
                break Ok(false);
            }
            let progress = match labeler.step_level() {
                Ok(p) => p,
                Err(e) => break Err(e),
            };
            if progress.finished {
                break Ok(true);
            }
            let done = match cmd {
                LabelCmd::Step => true,
                LabelCmd::FinishPhase => {
                    for s in &progress.steps {
                        if s.phase_finished {
                            pending.retain(|&d| d != s.dim);
                        }
                    }
                    pending.is_empty()
                }
                _ => false,
            };
            if done {
                break Ok(false);
            }
            if last_state.elapsed() >= STATE_EVERY {
                last_state = Instant::now();
                let status = LabelStatus::from_state(config, labeler.state());
                let _ = self.out.send(AppEvent::Worker(Msg::LabelState(Box::new(status))));
            }
        };
        let status = LabelStatus::from_state(config, labeler.state());
        let labels = if matches!(outcome, Ok(true)) { labeler.take_labels() } else { None };
        self.send(Msg::LabelState(Box::new(status)));
        match outcome {
            Ok(true) => {
                if let Some(labels) = labels {
                    self.finished(labels);
                }
            }
            Ok(false) if paused => {
                self.send(Msg::Info("paused at a level boundary: s, f or r carry on, x resets".into()))
            }
            Ok(false) => {}
            Err(e) => self.send(Msg::Error(format!("labeling failed: {e:#}"))),
        }
    }

    /// The GPU pipeline, stepped like the CPU one (the Labels tab offers it only with a device).
    fn run_gpu(&mut self, ws: &Workspace, cmd: LabelCmd, config: LabelConfig, cancel: &AtomicBool) {
        if self.gpu.is_none() {
            match GpuLabeler::new(ws.dag(), config.dims, config.order) {
                Ok(l) => self.gpu = Some(l),
                Err(e) => return self.send(Msg::Error(format!("cannot start the GPU pipeline: {e:#}"))),
            }
        }
        let Some(labeler) = self.gpu.as_mut() else { return };
        let mut sink = Forward(self.out.clone());
        let start = labeler.position();
        let mut paused = false;
        let outcome = loop {
            if cmd != LabelCmd::Step && cancel.load(Ordering::Relaxed) {
                paused = true;
                break Ok(false);
            }
            match labeler.step_level(&mut sink) {
                Ok(true) => break Ok(true),
                Ok(false) => {}
                Err(e) => break Err(e),
            }
            let now = labeler.position();
            let phase_ended = matches!((start, now), (Some(a), Some(b)) if (a.0, a.1) != (b.0, b.1));
            if cmd == LabelCmd::Step || (cmd == LabelCmd::FinishPhase && phase_ended) {
                break Ok(false);
            }
        };
        let status = match (&outcome, labeler.position()) {
            (Ok(true), _) | (_, None) => Status::Finished,
            (Err(e), _) => Status::Failed(format!("{e:#}")),
            _ => Status::Running,
        };
        let positions = labeler.position().into_iter().collect();
        let seconds = labeler.seconds();
        self.send(Msg::LabelState(Box::new(LabelStatus { config, status, positions, seconds })));
        match outcome {
            Ok(true) => {
                if let Some(labels) = self.gpu.as_mut().and_then(GpuLabeler::take_labels) {
                    self.finished(labels);
                }
            }
            Ok(false) if paused => {
                self.send(Msg::Info("paused at a level boundary: s, f or r carry on, x resets".into()))
            }
            Ok(false) => {}
            Err(e) => self.send(Msg::Error(format!("GPU labeling failed: {e:#}"))),
        }
    }
}
