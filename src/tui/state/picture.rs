//! The Picture tab: which part of the graph is drawn, in which dimension, the drawing the worker
//! made, and the cursor on it.

use super::Effect;
use super::prompt::{Prompt, PromptKind};
use crate::draw::MAX_CAP;
use crate::tui::action::Action;
use crate::tui::worker::{Focus, Job, LabelCmd, LabelConfig, PictureLabels, PictureRequest, PictureResult};

/// Neighbourhoods start this many edges deep, with at most this many vertices.
const DEFAULT_DEPTH: u32 = 2;
const DEFAULT_CAP: usize = 40;
const MAX_DEPTH: u32 = 8;

pub struct PictureState {
    pub dim: usize,
    pub focus: Focus,
    /// The Labels tab's labels, or those of the false positive chosen in the Exceptions tab.
    pub labels: PictureLabels,
    pub depth: u32,
    pub cap: usize,
    pub result: Option<Box<PictureResult>>,
    /// The cursor: an index into the drawn picture's nodes.
    pub selected: Option<usize>,
    /// What the drawing shows changed (labels, a query): draw again when the tab is shown.
    pub stale: bool,
}

impl Default for PictureState {
    fn default() -> Self {
        PictureState {
            dim: 0,
            focus: Focus::Whole,
            labels: PictureLabels::Session,
            depth: DEFAULT_DEPTH,
            cap: DEFAULT_CAP,
            result: None,
            selected: None,
            stale: true,
        }
    }
}

impl PictureState {
    /// The job that draws the current settings.
    pub fn request(&mut self, config: LabelConfig) -> Effect {
        self.stale = false;
        let request =
            PictureRequest { focus: self.focus, labels: self.labels, dim: self.dim, depth: self.depth, cap: self.cap };
        Effect::Job(Job::Picture(request, config))
    }

    /// How many dimensions the drawn labels have: the Labels tab's, or the exception's.
    pub fn dims(&self, config: LabelConfig) -> usize {
        match self.labels {
            PictureLabels::Session => config.dims.max(1),
            PictureLabels::Exception { dims, .. } => dims.max(1),
        }
    }

    /// Answers an action; stepping goes to the labeler (with the Labels tab's settings) and is
    /// followed by a new drawing, with the Labels tab's labels again.
    pub fn handle(&mut self, action: Action, config: LabelConfig) -> Vec<Effect> {
        let nodes = self.result.as_ref().map_or(0, |r| r.picture.nodes.len());
        let dims = self.dims(config);
        let redraw = |state: &mut PictureState, before: Vec<Effect>| {
            let mut effects = before;
            effects.push(state.request(config));
            effects
        };
        let step = |state: &mut PictureState, cmd: LabelCmd| {
            state.labels = PictureLabels::Session;
            redraw(state, vec![Effect::Job(Job::Label(cmd, config))])
        };
        match action {
            Action::StepLevel => step(self, LabelCmd::Step),
            Action::FinishPhase => step(self, LabelCmd::FinishPhase),
            Action::RunToEnd => step(self, LabelCmd::RunToEnd),
            Action::Reset => step(self, LabelCmd::Reset),
            Action::StepBack => step(self, LabelCmd::StepBack),
            Action::PrevDim => {
                self.dim = (self.dim + dims - 1) % dims;
                redraw(self, Vec::new())
            }
            Action::NextDim => {
                self.dim = (self.dim + 1) % dims;
                redraw(self, Vec::new())
            }
            Action::EditQuery => vec![Effect::Prompt(Prompt::new(PromptKind::Query, "query: u v (file ids)", ""))],
            Action::Up | Action::PageUp => {
                self.selected = Some(self.selected.map_or(0, |s| s.saturating_sub(1)));
                Vec::new()
            }
            Action::Down | Action::PageDown if nodes > 0 => {
                self.selected = Some(self.selected.map_or(0, |s| (s + 1).min(nodes - 1)));
                Vec::new()
            }
            Action::Top => {
                self.selected = (nodes > 0).then_some(0);
                Vec::new()
            }
            Action::Bottom => {
                self.selected = nodes.checked_sub(1);
                Vec::new()
            }
            Action::Enter => match self.selected_component() {
                Some(c) => {
                    self.focus = Focus::Component(c);
                    redraw(self, Vec::new())
                }
                None => vec![Effect::Info("select a vertex first (j/k move the cursor)".into())],
            },
            Action::Deeper => {
                self.depth = (self.depth + 1).min(MAX_DEPTH);
                self.cap = (self.cap + self.cap / 2).min(MAX_CAP);
                redraw(self, Vec::new())
            }
            Action::Shallower => {
                self.depth = self.depth.saturating_sub(1).max(1);
                self.cap = (self.cap * 2 / 3).max(DEFAULT_CAP / 2);
                redraw(self, Vec::new())
            }
            _ => Vec::new(),
        }
    }

    /// The DAG vertex (component) under the cursor.
    pub fn selected_component(&self) -> Option<u32> {
        Some(self.result.as_ref()?.picture.nodes.get(self.selected?)?.vertex)
    }

    /// A new drawing arrived: keep the cursor on the same vertex if it is still drawn.
    pub fn set_result(&mut self, result: Box<PictureResult>) {
        let before = self.selected.and_then(|i| self.result.as_ref()?.picture.nodes.get(i).map(|n| n.vertex));
        self.selected = before.and_then(|v| result.picture.node_of(v));
        self.dim = result.request.dim;
        self.result = Some(result);
    }

    /// Draw `u ⇝ v`'s search next, with the Labels tab's labels (a query was answered).
    pub fn focus_on_query(&mut self, u: u32, v: u32) {
        self.focus = Focus::Query { u, v };
        self.labels = PictureLabels::Session;
        self.stale = true;
    }

    /// Draw the false positive `u ⇝ v` chosen in the Exceptions tab next, with the labels it was
    /// found with (`dims` dimensions, random order from `seed`), in which its intervals are nested
    /// in every dimension: the picture starts on dimension 0.
    pub fn focus_on_exception(&mut self, u: u32, v: u32, dims: usize, seed: u64) {
        self.focus = Focus::Query { u, v };
        self.labels = PictureLabels::Exception { dims: dims.max(1), seed };
        self.dim = 0;
        self.stale = true;
    }

    /// A new graph: start over.
    pub fn clear(&mut self) {
        *self = PictureState::default();
    }
}
