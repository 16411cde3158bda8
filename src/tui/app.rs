//! The application state: which tab, the overlays (help, prompt), the busy line, and one state per
//! tab. Input becomes [`Action`]s through the keymap; actions and worker messages change the state;
//! jobs for the worker collect in `outbox`, which the UI loop sends (tests read it instead).

use super::action::{Action, Tab};
use super::gpu_offer::GpuOffer;
use super::hitmap::{Hit, Hitmap};
use super::keymap;
use super::state::batch::BatchState;
use super::state::exceptions::ExceptionsState;
use super::state::graph::{GraphFacts, GraphState};
use super::state::labels::LabelsState;
use super::state::picture::PictureState;
use super::state::prompt::{Prompt, PromptKind, user_path};
use super::state::query::QueryState;
use super::state::{Effect, labels};
use super::theme::Theme;
use super::worker::{Job, Msg};
use crate::index::Labels;
use crate::query::RuleSet;
use crate::workspace::Workspace;
use crossterm::event::{
    Event as TermEvent, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use std::sync::Arc;
use std::time::Instant;

/// The running job, as the status line shows it.
#[derive(Clone, Debug)]
pub struct Busy {
    pub what: String,
    pub cancellable: bool,
    pub progress: Option<f64>,
    pub since: Instant,
}

/// What `c` says while a job that cannot stop runs.
const NOT_CANCELLABLE: &str = "this job cannot be cancelled; it is short";

/// The last message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    Info(String),
    Error(String),
}

pub struct App {
    pub theme: Theme,
    pub tab: Tab,
    pub help: bool,
    pub help_scroll: u16,
    /// The furthest the help scrolled at its last drawing (it depends on the terminal's height);
    /// scrolling up starts from what is shown, not from past the end.
    pub help_max_scroll: std::cell::Cell<u16>,
    pub mouse: bool,
    /// Set when `mouse` changed and the terminal must be told.
    pub mouse_changed: bool,
    pub prompt: Option<Prompt>,
    pub note: Option<Note>,
    pub busy: Option<Busy>,
    pub quit: bool,
    pub ws: Arc<Workspace>,
    pub graph: GraphState,
    pub labels: LabelsState,
    pub query: QueryState,
    pub batch: BatchState,
    pub exceptions: ExceptionsState,
    pub picture: PictureState,
    /// The finished labels the worker holds too.
    pub ready: Option<Arc<Labels>>,
    /// First original vertex of every component (to show DAG ids as file ids).
    pub representative: Vec<u32>,
    /// Jobs to send to the worker.
    pub outbox: Vec<Job>,
    /// The user asked to cancel the running job.
    pub cancel_requested: bool,
    /// Where the last frame put clickable things.
    pub hits: Hitmap,
    /// Total memory of the machine, for the memory gauge.
    pub total_memory: Option<u64>,
    /// The GPU offered for labeling and batches, decided at start-up.
    pub gpu: GpuOffer,
    /// The offered GPU opening in the background (none in tests unless they set one).
    pub gpu_start: super::gpu_start::GpuStart,
}

impl App {
    /// The explorer on `ws`; `gpu` is what the Labels and Batch tabs offer ([`GpuOffer::probe`] in
    /// the program, a fixed one in tests).
    pub fn new(ws: Arc<Workspace>, theme: Theme, mouse: bool, gpu: GpuOffer) -> App {
        let facts = GraphFacts::compute(&ws);
        App {
            theme,
            tab: Tab::Graph,
            help: false,
            help_scroll: 0,
            help_max_scroll: std::cell::Cell::new(u16::MAX),
            mouse,
            mouse_changed: false,
            prompt: None,
            note: None,
            busy: None,
            quit: false,
            graph: GraphState::new(&ws, facts),
            representative: ws.condensation.representatives(),
            ws,
            labels: LabelsState::new(gpu.is_present()),
            query: QueryState::default(),
            batch: BatchState::new(gpu.is_present()),
            exceptions: ExceptionsState::new(gpu.is_present()),
            picture: PictureState::default(),
            ready: None,
            outbox: Vec::new(),
            cancel_requested: false,
            hits: Hitmap::default(),
            total_memory: crate::system::physical_memory_bytes(),
            gpu,
            gpu_start: super::gpu_start::GpuStart::none(),
        }
    }

    /// Any terminal event.
    pub fn on_terminal(&mut self, event: &TermEvent) {
        match event {
            TermEvent::Key(key) if key.kind != KeyEventKind::Release => self.on_key(key),
            TermEvent::Mouse(mouse) if self.mouse => self.on_mouse(mouse),
            TermEvent::Paste(text) => {
                if let Some(p) = self.prompt.as_mut() {
                    text.chars().filter(|c| !c.is_control()).for_each(|c| p.push(c));
                }
            }
            _ => {}
        }
    }

    pub fn on_key(&mut self, key: &KeyEvent) {
        let key = &keymap::as_typed(key);
        let editing = self.prompt.is_some();
        let action =
            if self.help && !editing { keymap::lookup_global(key) } else { keymap::lookup(self.tab, editing, key) };
        if let Some(action) = action {
            self.apply(action);
        } else if let (Some(p), crossterm::event::KeyCode::Char(c)) = (self.prompt.as_mut(), key.code)
            && !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            p.push(c);
        }
    }

    pub fn on_mouse(&mut self, mouse: &MouseEvent) {
        let (x, y) = (mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::ScrollUp => self.apply(Action::Up),
            MouseEventKind::ScrollDown => self.apply(Action::Down),
            MouseEventKind::Down(MouseButton::Left) => {
                if self.prompt.is_some() {
                    return;
                }
                match self.hits.at(x, y) {
                    Some(Hit::Tab(tab)) => self.apply(Action::GoTo(tab)),
                    Some(Hit::LabelField(i)) => {
                        if self.labels.selected == i {
                            self.apply(Action::Right);
                        }
                        self.labels.selected = i.min(labels::FIELDS.len() - 1);
                    }
                    Some(Hit::BatchRow(i)) => {
                        if self.batch.selected == i {
                            self.apply(Action::ToggleRow);
                        }
                        self.batch.selected = i.min(self.batch.rows() - 1);
                    }
                    Some(Hit::CycleRow(i)) => {
                        if self.graph.selected == i {
                            self.apply(Action::ShowOnPicture);
                        }
                        self.graph.selected = i.min(self.graph.components.len().saturating_sub(1));
                    }
                    Some(Hit::TreeRow(i)) => self.query.click(i),
                    None => {}
                }
            }
            _ => {}
        }
    }

    /// Carries out one action. The last message is the answer to the previous one: it goes now,
    /// and whatever this action or its job reports replaces it.
    pub fn apply(&mut self, action: Action) {
        self.note = None;
        if self.prompt.is_some() {
            return self.prompt_action(action);
        }
        if self.help {
            let shown = self.help_scroll.min(self.help_max_scroll.get());
            match action {
                Action::Help | Action::Cancel | Action::Quit => self.help = false,
                Action::Up => self.help_scroll = shown.saturating_sub(1),
                Action::Down => self.help_scroll = shown.saturating_add(1),
                Action::PageUp => self.help_scroll = shown.saturating_sub(10),
                Action::PageDown => self.help_scroll = shown.saturating_add(10),
                Action::Top => self.help_scroll = 0,
                Action::Bottom => self.help_scroll = u16::MAX,
                _ => {}
            }
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Help => {
                self.help = true;
                self.help_scroll = 0;
            }
            Action::NextTab => self.show(self.tab.cycle(false)),
            Action::PrevTab => self.show(self.tab.cycle(true)),
            Action::GoTo(tab) => self.show(tab),
            Action::ToggleMouse => {
                self.mouse = !self.mouse;
                self.mouse_changed = true;
                self.info(if self.mouse { "mouse on" } else { "mouse off (the terminal selects text again)" });
            }
            Action::OpenFile => {
                self.prompt =
                    Some(Prompt::new(PromptKind::OpenGraph, "open graph (Tab completes)", self.graph_folder()));
            }
            Action::Cancel => {
                if self.busy.as_ref().is_some_and(|b| b.cancellable) {
                    self.cancel_requested = true;
                    self.info("cancelling at the next safe point…");
                } else if self.busy.is_some() {
                    self.info(NOT_CANCELLABLE);
                }
            }
            Action::ToggleRules => self.toggle_rules(),
            Action::ShowOnPicture if self.tab == Tab::Graph => match self.graph.chosen() {
                Some(c) => {
                    self.picture.focus_on_cycle(c);
                    self.show(Tab::Picture);
                }
                None => self.info("no cycles to draw: every component is one vertex"),
            },
            Action::ShowOnPicture => {
                let rep = |c: u32| self.representative.get(c as usize).copied();
                let chosen = self.exceptions.chosen().and_then(|(cu, cv, dims)| Some((rep(cu)?, rep(cv)?, dims)));
                match (chosen, self.exceptions.result.as_ref()) {
                    (Some((u, v, dims)), Some(result)) => {
                        // With the labels the pair was counted with: nested in its `dims` dimensions.
                        let seed = result.seed;
                        self.picture.focus_on_exception(u, v, dims, seed);
                        self.show(Tab::Picture);
                    }
                    _ => self.info("no false-positive pair to show: r counts them first"),
                }
            }
            other => {
                let effect = match self.tab {
                    Tab::Graph => {
                        self.graph.handle(other);
                        None
                    }
                    Tab::Labels => self.labels.handle(other),
                    Tab::Query => self.query.handle(other),
                    Tab::Batch => self.batch.handle(other, self.labels.config()),
                    Tab::Exceptions => self.exceptions.handle(other),
                    Tab::Picture => {
                        let effects = self.picture.handle(other, self.labels.config(), self.labels.built_dims());
                        effects.into_iter().for_each(|e| self.effect(Some(e)));
                        None
                    }
                };
                self.effect(effect);
            }
        }
    }

    /// `R`: one rule set for every view. The query on screen is answered again at once and the
    /// picture redrawn, so no view keeps showing an answer of the other set.
    fn toggle_rules(&mut self) {
        let rules = self.query.rules.toggled();
        self.query.rules = rules;
        self.batch.rules = rules;
        self.picture.rules = rules;
        self.picture.stale = true;
        // The pair last asked (it may still be on its way), else the one shown.
        let pair = self.query.asked.or(self.query.result.as_ref().map(|r| (r.u, r.v)));
        if let Some((u, v)) = pair {
            self.effect(Some(Effect::Job(Job::Query { u, v, config: self.labels.config(), rules })));
        }
        if self.tab == Tab::Picture {
            self.show(Tab::Picture);
        }
        let set = match rules {
            RuleSet::All => "every rule (GRAIL's and the query index's cuts)",
            RuleSet::Grail => "GRAIL's rules only (component, label, level, tree cuts)",
        };
        // A pair from tab 5 is a false positive of the labels: its picture keeps GRAIL's rules.
        self.info(format!("rules: {set}, in every tab (a pair from tab 5 stays with GRAIL's)"));
    }

    /// Switches to `tab`; the picture is drawn again if what it shows has changed.
    fn show(&mut self, tab: Tab) {
        self.tab = tab;
        if tab == Tab::Picture && (self.picture.stale || self.picture.result.is_none()) {
            let request = self.picture.request(self.labels.config());
            self.effect(Some(request));
        }
    }

    fn prompt_action(&mut self, action: Action) {
        let Some(prompt) = self.prompt.as_mut() else { return };
        match action {
            Action::Dismiss => self.prompt = None,
            Action::Complete => prompt.complete(&self.ws.loaded.names),
            Action::Backspace => prompt.backspace(),
            Action::ClearLine => prompt.clear(),
            Action::Submit => {
                if let Some(prompt) = self.prompt.take() {
                    self.submit(prompt);
                }
            }
            _ => {}
        }
    }

    fn submit(&mut self, prompt: Prompt) {
        let text = prompt.text.trim().to_string();
        let effect = match prompt.kind {
            PromptKind::OpenGraph if text.is_empty() => None,
            PromptKind::OpenGraph => Some(Effect::Job(Job::Load(user_path(&text)))),
            PromptKind::Query => Some(self.query.submit(&text, &self.ws, self.labels.config())),
            PromptKind::LabelField(i) => self.labels.set_field(i, &text),
            PromptKind::BatchField(i) => self.batch.set_field(i, &text),
            PromptKind::QueryFile if text.is_empty() => None,
            PromptKind::QueryFile => {
                self.batch.set_file(user_path(&text));
                None
            }
            PromptKind::ExportPath if text.is_empty() => None,
            PromptKind::ExportPath => self.batch.export_to(user_path(&text)),
            PromptKind::ExceptionSeed => self.exceptions.set_seed(&text),
            PromptKind::PictureVertex => {
                let effects = self.picture.go_to(&text, &self.ws, self.labels.config());
                effects.into_iter().for_each(|e| self.effect(Some(e)));
                None
            }
            PromptKind::PictureSvg if text.is_empty() => None,
            PromptKind::PictureSvg => Some(self.picture.export_svg(&user_path(&text))),
        };
        self.effect(effect);
    }

    fn effect(&mut self, effect: Option<Effect>) {
        match effect {
            None => {}
            Some(Effect::Job(job)) => {
                match job {
                    Job::Label(..) => self.labels.log_line(format!("> {}", describe_job(&job))),
                    Job::Query { u, v, .. } => self.query.asked = Some((u, v)),
                    _ => {}
                }
                self.outbox.push(job);
            }
            // A query file is looked for beside the graph, as `o` looks for graphs, until one is chosen.
            Some(Effect::Prompt(p)) if p.kind == PromptKind::QueryFile && p.text.is_empty() => {
                self.prompt = Some(Prompt::new(p.kind, p.title, self.graph_folder()));
            }
            Some(Effect::Prompt(mut p)) => {
                if let Some(title) = p.kind.named_title().filter(|_| self.ws.loaded.names.table().is_some()) {
                    p.title = title.to_string();
                }
                self.prompt = Some(p);
            }
            Some(Effect::Info(text)) => self.info(text),
            Some(Effect::Error(text)) => self.note = Some(Note::Error(text)),
        }
    }

    /// The current graph's folder with a trailing `/` (empty for a file in the working folder):
    /// where path prompts start. A folder that is not there (the bundled graph is read from the
    /// program itself, named as in the source tree) gives the working folder instead.
    fn graph_folder(&self) -> String {
        std::path::Path::new(&self.graph.file)
            .parent()
            .filter(|p| !p.as_os_str().is_empty() && p.is_dir())
            .map(|p| format!("{}/", p.display()))
            .unwrap_or_default()
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.note = Some(Note::Info(text.into()));
    }

    /// A message from the worker.
    pub fn on_worker(&mut self, msg: Msg) {
        match msg {
            Msg::Busy { what, cancellable } => {
                self.busy = Some(Busy { what, cancellable, progress: None, since: Instant::now() });
            }
            Msg::Progress(f) => {
                if let Some(b) = self.busy.as_mut() {
                    b.progress = Some(f.clamp(0.0, 1.0));
                }
            }
            Msg::Doing(what) => {
                if let Some(b) = self.busy.as_mut() {
                    b.what = what;
                }
            }
            Msg::Idle => {
                self.busy = None;
                self.cancel_requested = false;
                self.labels.command_over();
                // A refusal to cancel is about the job just ended: it says nothing any more.
                if matches!(&self.note, Some(Note::Info(text)) if text == NOT_CANCELLABLE) {
                    self.note = None;
                }
            }
            Msg::Loaded(ws, facts) => self.loaded(ws, *facts),
            Msg::LoadFailed(e) => self.note = Some(Note::Error(format!("{e} (kept {})", self.graph.file))),
            Msg::Telemetry(event) => self.labels.apply(&event),
            Msg::LabelState(status) => self.labels.status = Some(*status),
            Msg::LabelsReady(labels) => {
                self.labels.label_bytes = Some(labels.heap_bytes() as u64);
                self.graph.false_positives.labels_ready(&labels);
                self.ready = Some(labels);
                self.picture.stale = true;
                // The query on screen was answered with other labels, or before there were any:
                // answer it with these, so that it shows their part.
                if let Some((u, v)) = self.query.wants_labels() {
                    self.outbox.push(Job::Query { u, v, config: self.labels.config(), rules: self.query.rules });
                    self.query.asking_again = Some((u, v));
                }
            }
            Msg::LabelsCleared => {
                self.ready = None;
                self.graph.false_positives.labels_cleared();
                self.labels.clear_run();
                self.picture.stale = true;
                self.query.labels_changed = true;
            }
            // An answer of a pair asked before the one last asked is not shown over it.
            Msg::QueryDone(result) if !self.query.wanted(result.u, result.v) => {}
            Msg::QueryDone(result) => {
                self.picture.focus_on_query(result.u, result.v);
                self.query.set_result(result);
                if self.tab == Tab::Picture {
                    self.show(Tab::Picture);
                }
            }
            Msg::PictureReady(result) => self.picture.set_result(result, &self.ws.condensation.component),
            Msg::BatchDone(result) => {
                self.batch.result = Some(result);
                if self.tab == Tab::Batch {
                    self.info("batch done: x exports CSV and JSON");
                } else {
                    self.info("batch done: 4 shows it, x there exports CSV and JSON");
                }
            }
            Msg::ExceptionsDone(result) => self.exceptions.result = Some(result),
            Msg::FalsePositives(labels, result) => {
                // A count of labels that changed since is dropped.
                self.graph.false_positives.counted(labels, result);
            }
            Msg::Info(text) => {
                self.labels.log_line(text.clone());
                self.info(text);
            }
            Msg::Error(text) => {
                self.labels.log_line(format!("error: {text}"));
                self.note = Some(Note::Error(text));
            }
        }
    }

    fn loaded(&mut self, ws: Arc<Workspace>, facts: GraphFacts) {
        self.graph = GraphState::new(&ws, facts);
        self.representative = ws.condensation.representatives();
        self.ws = ws;
        self.query = QueryState { rules: self.query.rules, ..QueryState::default() };
        self.batch.result = None;
        self.batch.selected = self.batch.selected.min(self.batch.rows() - 1);
        self.exceptions.result = None;
        self.picture.clear();
        self.labels.clear_run();
        self.ready = None;
        self.info(format!("opened {}", self.graph.file));
        // The picture on screen is the old graph's: draw the new one in its place.
        if self.tab == Tab::Picture {
            self.show(Tab::Picture);
        }
    }

    /// Samples the process's memory (on ticks).
    pub fn tick(&mut self) {
        if let Some(r) = crate::system::resident_bytes() {
            self.labels.resident = Some(r);
        }
    }

    /// A component shown by a file id (or name): its first vertex, `+k` when it holds more.
    pub fn component_name(&self, c: u32) -> String {
        let Some(&v) = self.representative.get(c as usize) else { return format!("c{c}") };
        let id = self.ws.loaded.names.label(v);
        let size = self.ws.condensation.sizes.get(c as usize).copied().unwrap_or(1);
        crate::query::explain::component_label(id, size)
    }

    /// How vertex `v` is shown: its file id, or its name in a named graph.
    pub fn label(&self, v: u32) -> String {
        self.ws.loaded.names.label(v)
    }
}

fn describe_job(job: &Job) -> String {
    match job {
        Job::Label(cmd, config) => cmd.describe(config),
        other => format!("{other:?}"),
    }
}
