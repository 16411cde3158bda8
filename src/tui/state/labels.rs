//! The Labels tab: the settings, and everything folded from the labeler's telemetry (phase table,
//! frontier per level, memory, event log).

use super::prompt::{Prompt, PromptKind};
use super::{Effect, step};
use crate::format::{bytes, duration, plural};
use crate::index::labeler::Status;
use crate::index::pipeline::ParentMethod;
use crate::index::{Order, PhaseTable};
use crate::telemetry::{Backend, Event, Phase, QueueSizes};
use crate::tui::action::Action;
use crate::tui::worker::LabelStatus;
use crate::tui::worker::labeling::DEFAULT_CONFIG;
use crate::tui::worker::{Job, LabelCmd, LabelConfig};
use std::collections::{BTreeMap, VecDeque};

/// The settings rows, in screen order.
pub const FIELDS: [&str; 6] = ["back end", "dimensions", "order", "seed", "parent method", "dims at once"];
const MAX_DIMS: usize = 16;
const LOG_LINES: usize = 500;
/// Levels kept per phase for the frontier chart (a chain has millions).
const MAX_LEVELS: usize = 20_000;

/// One dimension's current phase and its frontier per level.
#[derive(Clone, Debug, PartialEq)]
pub struct Frontier {
    pub phase: Phase,
    pub levels: Vec<QueueSizes>,
    /// Levels not kept (beyond [`MAX_LEVELS`]).
    pub dropped: usize,
    /// Kept levels that were reported together in a span and are drawn at the span's average.
    pub averaged: usize,
    pub done: bool,
}

pub struct LabelsState {
    pub backend: Backend,
    pub dims: usize,
    pub random: bool,
    pub seed: u64,
    pub parent_method: ParentMethod,
    pub all_dims_at_once: bool,
    pub selected: usize,
    pub status: Option<LabelStatus>,
    pub phases: PhaseTable,
    /// Per dimension, its latest phase.
    pub frontier: BTreeMap<usize, Frontier>,
    pub log: VecDeque<String>,
    pub resident: Option<u64>,
    pub structures: Vec<(String, u64)>,
    /// Bytes of the finished labels.
    pub label_bytes: Option<u64>,
    pub run_seconds: Option<f64>,
    /// The last command was a single step: log every level.
    stepping: bool,
    /// The GPU back end is offered (the machine has a GPU).
    gpu: bool,
}

impl LabelsState {
    /// The dimensions of the labels the last run builds (`None` before any run): the settings may
    /// have changed since, without a new run.
    pub fn built_dims(&self) -> Option<usize> {
        self.status.as_ref().map(|s| s.config.dims)
    }

    /// The explorer's default settings; `gpu`: whether the GPU back end is offered.
    pub fn new(gpu: bool) -> Self {
        let config = DEFAULT_CONFIG;
        LabelsState {
            backend: config.backend,
            dims: config.dims,
            random: matches!(config.order, Order::Random { .. }),
            seed: match config.order {
                Order::Random { seed } => seed,
                Order::Lex => 1,
            },
            parent_method: config.parent_method,
            all_dims_at_once: config.all_dims_at_once,
            selected: 0,
            status: None,
            phases: PhaseTable::default(),
            frontier: BTreeMap::new(),
            log: VecDeque::new(),
            resident: None,
            structures: Vec::new(),
            label_bytes: None,
            run_seconds: None,
            stepping: false,
            gpu,
        }
    }

    pub fn config(&self) -> LabelConfig {
        LabelConfig {
            backend: self.backend,
            dims: self.dims,
            order: if self.random { Order::Random { seed: self.seed } } else { Order::Lex },
            parent_method: self.parent_method,
            all_dims_at_once: self.all_dims_at_once,
        }
    }

    /// The value shown for settings row `i`.
    pub fn field_value(&self, i: usize) -> String {
        match i {
            0 => self.backend.title().into(),
            1 => self.dims.to_string(),
            2 => if self.random { "random" } else { "lex" }.into(),
            3 if self.random => self.seed.to_string(),
            3 => "(lex needs none)".into(),
            4 => match self.parent_method {
                ParentMethod::Exact => "exact (LCA)".into(),
                ParentMethod::Weights => "weights (thesis)".into(),
            },
            5 => if self.all_dims_at_once { "yes" } else { "no" }.into(),
            _ => String::new(),
        }
    }

    pub fn handle(&mut self, action: Action) -> Option<Effect> {
        let config = self.config();
        let command = |cmd| Some(Effect::Job(Job::Label(cmd, config)));
        match action {
            Action::Up => self.selected = step(self.selected, -1, FIELDS.len()),
            Action::Down => self.selected = step(self.selected, 1, FIELDS.len()),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = FIELDS.len() - 1,
            Action::Left => self.adjust(-1),
            Action::Right => self.adjust(1),
            Action::Enter => {
                return match self.selected {
                    1 | 3 => Some(Effect::Prompt(Prompt::new(
                        PromptKind::LabelField(self.selected),
                        FIELDS[self.selected],
                        self.field_value(self.selected),
                    ))),
                    _ => {
                        self.adjust(1);
                        None
                    }
                };
            }
            Action::StepLevel => {
                self.stepping = true;
                return command(LabelCmd::Step);
            }
            Action::FinishPhase => {
                self.stepping = false;
                return command(LabelCmd::FinishPhase);
            }
            Action::RunToEnd => {
                self.stepping = false;
                return command(LabelCmd::RunToEnd);
            }
            Action::Reset => return command(LabelCmd::Reset),
            Action::StepBack => {
                // The replay's levels are not logged one by one: the log says where it landed.
                self.stepping = false;
                return command(LabelCmd::StepBack);
            }
            _ => {}
        }
        None
    }

    /// Changes the selected setting by one step (cycling for choices).
    fn adjust(&mut self, delta: i64) {
        match self.selected {
            0 => {
                // The GPU joins the cycle only when this machine has one.
                self.backend = match self.backend {
                    Backend::Dfs => Backend::Cpu,
                    Backend::Cpu if self.gpu => Backend::Gpu,
                    _ => Backend::Dfs,
                }
            }
            1 => self.dims = (self.dims as i64 + delta).clamp(1, MAX_DIMS as i64) as usize,
            2 => self.random = !self.random,
            3 => self.seed = self.seed.saturating_add_signed(delta),
            4 => {
                self.parent_method = match self.parent_method {
                    ParentMethod::Exact => ParentMethod::Weights,
                    ParentMethod::Weights => ParentMethod::Exact,
                }
            }
            5 => self.all_dims_at_once = !self.all_dims_at_once,
            _ => {}
        }
    }

    /// A typed value for row `field`.
    pub fn set_field(&mut self, field: usize, text: &str) -> Option<Effect> {
        let text = text.trim();
        match field {
            1 => match text.parse::<usize>() {
                Ok(d) if (1..=MAX_DIMS).contains(&d) => self.dims = d,
                _ => return Some(Effect::Error(format!("dimensions must be 1 to {MAX_DIMS}, not '{text}'"))),
            },
            3 => match text.parse::<u64>() {
                Ok(s) => {
                    self.seed = s;
                    self.random = true;
                }
                Err(_) => return Some(Effect::Error(format!("'{text}' is not a seed (a whole number ≥ 0)"))),
            },
            _ => {}
        }
        None
    }

    /// A new graph or a reset: forget the run.
    pub fn clear_run(&mut self) {
        self.status = None;
        self.phases = PhaseTable::default();
        self.frontier.clear();
        self.structures.clear();
        self.label_bytes = None;
        self.run_seconds = None;
    }

    pub fn log_line(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Folds one telemetry event in.
    pub fn apply(&mut self, event: &Event) {
        self.phases.apply(event);
        match event {
            Event::Fallback { requested, ran, reason } => self.log_line(format!(
                "{} unavailable ({reason}): running the {} instead",
                requested.title(),
                ran.title()
            )),
            Event::RunStarted { backend, dims, order, vertices, edges } => {
                self.frontier.clear();
                self.run_seconds = None;
                let name = backend.title();
                self.log_line(format!(
                    "run started: {name}, d={dims}, {order}, {}, {}",
                    plural(*vertices, "vertex", "vertices"),
                    plural(*edges, "edge", "edges")
                ));
            }
            &Event::PhaseStarted { dim, phase } => {
                self.frontier.insert(dim, Frontier { phase, levels: Vec::new(), dropped: 0, averaged: 0, done: false });
                self.log_line(format!("dim {dim}: {phase} started"));
            }
            &Event::LevelDone { dim, phase, level, span, queues, edges_scanned, .. } => {
                if let Some(f) = self.frontier.get_mut(&dim).filter(|f| f.phase == phase) {
                    // Tiny levels come in spans (see `index/pipeline/level_clock.rs`): the chart
                    // draws each of them at the span's average, so its x axis stays the level, and
                    // says how many levels it drew so.
                    let each = |total: u64, i: u64| total / span as u64 + u64::from(i < total % span as u64);
                    for i in 0..span as u64 {
                        if f.levels.len() < MAX_LEVELS {
                            let (small, medium, large) =
                                (each(queues.small, i), each(queues.medium, i), each(queues.large, i));
                            f.levels.push(QueueSizes { small, medium, large });
                            f.averaged += usize::from(span > 1);
                        } else {
                            f.dropped += 1;
                        }
                    }
                }
                if self.stepping {
                    let levels = if span > 1 {
                        format!("levels {level}-{}", level + span - 1)
                    } else {
                        format!("level {level}")
                    };
                    self.log_line(format!(
                        "dim {dim}: {phase} {levels}: {} small, {} medium, {} large, {}",
                        queues.small,
                        queues.medium,
                        queues.large,
                        plural(edges_scanned, "edge", "edges")
                    ));
                }
            }
            &Event::PhaseDone { dim, phase, levels, seconds, .. } => {
                if let Some(f) = self.frontier.get_mut(&dim).filter(|f| f.phase == phase) {
                    f.done = true;
                }
                let levels = plural(levels as u64, "level", "levels");
                self.log_line(format!("dim {dim}: {phase} done, {levels} in {}", duration(seconds)));
            }
            Event::Memory { resident_bytes, structures } => {
                if resident_bytes.is_some() {
                    self.resident = *resident_bytes;
                }
                self.structures.clone_from(structures);
            }
            &Event::RunDone { seconds } => {
                self.run_seconds = Some(seconds);
                self.log_line(format!("run done in {}", duration(seconds)));
            }
            Event::Cancelled => self.log_line("run cancelled".into()),
        }
    }

    /// The frontier the chart shows: the lowest dimension still in a phase, else the last one.
    pub fn focused_frontier(&self) -> Option<(usize, &Frontier)> {
        self.frontier.iter().find(|(_, f)| !f.done).or_else(|| self.frontier.iter().next_back()).map(|(d, f)| (*d, f))
    }

    /// Index structures' bytes as last reported (the GPU back end's are device allocations).
    pub fn index_bytes(&self) -> u64 {
        self.label_bytes
            .unwrap_or_else(|| self.structures.iter().filter(|(name, _)| !is_device_total(name)).map(|(_, b)| b).sum())
    }

    /// The whole GPU's used and total bytes, when the GPU back end reported them.
    pub fn gpu_memory(&self) -> Option<(u64, u64)> {
        let find = |wanted: &str| self.structures.iter().find(|(name, _)| name == wanted).map(|(_, b)| *b);
        Some((find(crate::gpu::pipeline::DEVICE_USED)?, find(crate::gpu::pipeline::DEVICE_TOTAL)?))
    }

    /// A one-line state for the settings panel: `running: dim 0 parent selection, level 3`,
    /// `paused: dim 1 post order, next level 4`, `labels ready (1.2 MiB) 45 ms`.
    pub fn summary(&self) -> String {
        if let Some(b) = self.label_bytes {
            let time = self.run_seconds.map(duration).unwrap_or_default();
            return format!("labels ready ({}) {time}", bytes(b));
        }
        let Some(status) = &self.status else { return "not started: s steps a level, r runs to the end".into() };
        let at = |word: &str| where_run_stands(status, word).map(|at| format!(": {at}")).unwrap_or_default();
        if status.in_progress && status.status == Status::NotStarted {
            return "starting: opening the run".into();
        }
        if status.in_progress {
            return format!("running{}", at(""));
        }
        match &status.status {
            Status::NotStarted => "not started: s steps a level, r runs to the end".into(),
            Status::Running => format!("paused{}", at("next ")),
            Status::Finished => "finished".into(),
            Status::Cancelled => "cancelled: x resets".into(),
            Status::Failed(m) => format!("failed: {m} (x resets)"),
        }
    }

    /// Where a run that waits between commands stands (`dim 1 post order, next level 4`); `None`
    /// when no run waits: none started, one running, or one over.
    pub fn paused_at(&self) -> Option<String> {
        let status = self.status.as_ref().filter(|s| !s.in_progress && s.status == Status::Running)?;
        Some(where_run_stands(status, "next ").unwrap_or_else(|| "a level boundary".into()))
    }

    /// Where the running labeling command stands (`dim 0 parent selection, level 3`); `None` when
    /// no command runs or the run has no levels to tell.
    pub fn running_at(&self) -> Option<String> {
        self.status.as_ref().filter(|s| s.in_progress).and_then(|s| where_run_stands(s, ""))
    }

    /// Whatever runs is over (the worker went idle): a run left unfinished waits for a command.
    pub fn command_over(&mut self) {
        if let Some(status) = self.status.as_mut() {
            status.in_progress = false;
        }
    }
}

/// `dim 1 post order, {level_word}level 4`: the first unfinished dimension (the others wait for it,
/// or, all at once, move with it); `None` without positions (the DFS has none).
fn where_run_stands(status: &LabelStatus, level_word: &str) -> Option<String> {
    let first = status.positions.first()?;
    Some(format!("dim {} {}, {level_word}level {}", first.dim, first.phase, first.level))
}

/// The GPU's whole-device figures in a memory sample, as opposed to the run's own allocations.
fn is_device_total(name: &str) -> bool {
    name == crate::gpu::pipeline::DEVICE_USED || name == crate::gpu::pipeline::DEVICE_TOTAL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_reported_in_a_span_are_counted_as_averaged() {
        let mut state = LabelsState::new(false);
        let (dim, phase) = (0, Phase::PostOrder);
        state.apply(&Event::PhaseStarted { dim, phase });
        let queues = QueueSizes { small: 7, medium: 0, large: 0 };
        let level = |level, span| Event::LevelDone { dim, phase, level, span, queues, edges_scanned: 7, seconds: 0.0 };
        state.apply(&level(0, 1));
        state.apply(&level(1, 3));
        let f = &state.frontier[&dim];
        assert_eq!(f.levels.len(), 4);
        assert_eq!(f.averaged, 3, "the one level reported alone is not averaged");
        let smalls: Vec<u64> = f.levels.iter().map(|q| q.small).collect();
        assert_eq!(smalls, [7, 3, 2, 2], "a span's 7 spread over its 3 levels, the total kept");
    }
}
