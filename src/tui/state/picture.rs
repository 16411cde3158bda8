//! The Picture tab: which part of the graph is drawn, in which dimension, the drawing the worker
//! made, the cursor on it, and which part of it is in view ([`viewport`]).

pub mod svg_export;
pub mod viewport;

use super::Effect;
use super::prompt::{Prompt, PromptKind};
use crate::draw::MAX_CAP;
use crate::query::RuleSet;
use crate::tui::action::Action;
use crate::tui::widgets::picture::grid::ZOOM_LEVELS;
use crate::tui::worker::{Focus, Job, LabelCmd, LabelConfig, PictureLabels, PictureRequest, PictureResult};
use crate::workspace::Workspace;
use ratatui::layout::Rect;
use std::cell::Cell;
use std::path::Path;
use viewport::{Scene, View, Viewport};

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
    /// The user moved the cursor (j/k, `g`) since the drawing's focus was set: a zoom then keeps
    /// the cursor's vertex in view, else the targets.
    cursor_moved: bool,
    /// What the drawing shows changed (labels, a query): draw again when the tab is shown.
    pub stale: bool,
    /// The rules a query's search is drawn with (the explorer's one choice, `R`).
    pub rules: RuleSet,
    pub viewport: Viewport,
    /// Nodes the fitted view keeps in view: the query's u and v, or the vertex drawn around.
    pub targets: Vec<usize>,
    /// The side panel is shown.
    pub side_panel: bool,
    /// The area the drawing was last drawn into: panning and zooming start from the view there.
    pub shown_area: Cell<Rect>,
    /// The DAG vertex `g` asked for, to put the cursor on once the drawing around it arrives.
    goto: Option<u32>,
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
            cursor_moved: false,
            stale: true,
            rules: RuleSet::All,
            viewport: Viewport::Fit,
            targets: Vec::new(),
            side_panel: true,
            shown_area: Cell::new(Rect::default()),
            goto: None,
        }
    }
}

impl PictureState {
    /// The job that draws the current settings.
    pub fn request(&mut self, config: LabelConfig) -> Effect {
        self.stale = false;
        let request = PictureRequest {
            focus: self.focus,
            labels: self.labels,
            dim: self.dim,
            depth: self.depth,
            cap: self.cap,
            rules: self.rules,
        };
        Effect::Job(Job::Picture(request, config))
    }

    /// How many dimensions the drawn labels have: those of the Labels tab's run (`built`, its
    /// settings where none ran yet), or the exception's.
    pub fn dims(&self, config: LabelConfig, built: Option<usize>) -> usize {
        match self.labels {
            PictureLabels::Session => built.unwrap_or(config.dims).max(1),
            PictureLabels::Exception { dims, .. } => dims.max(1),
        }
    }

    /// Answers an action; stepping goes to the labeler (with the Labels tab's settings) and is
    /// followed by a new drawing, with the Labels tab's labels again.
    pub fn handle(&mut self, action: Action, config: LabelConfig, built: Option<usize>) -> Vec<Effect> {
        let nodes = self.result.as_ref().map_or(0, |r| r.picture.nodes.len());
        let dims = self.dims(config, built);
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
            Action::Up | Action::PageUp if nodes > 0 => {
                self.step_cursor(-1);
                Vec::new()
            }
            Action::Down | Action::PageDown if nodes > 0 => {
                self.step_cursor(1);
                Vec::new()
            }
            Action::Top => {
                self.select(self.screen_order().first().copied());
                Vec::new()
            }
            Action::Bottom => {
                self.select(self.screen_order().last().copied());
                Vec::new()
            }
            Action::Enter => match (self.selected_component(), self.result.as_ref().is_some_and(|r| r.whole)) {
                (Some(c), true) => {
                    self.viewport = Viewport::Centre { vertex: c, zoom: self.view().map_or(0, |v| v.zoom) };
                    Vec::new()
                }
                (Some(c), false) => {
                    self.focus = Focus::Component(c);
                    self.viewport = Viewport::Fit;
                    redraw(self, Vec::new())
                }
                (None, _) => vec![Effect::Info("select a vertex first (j/k move the cursor)".into())],
            },
            Action::PanLeft => self.pan(-1, 0),
            Action::PanRight => self.pan(1, 0),
            Action::PanUp => self.pan(0, -1),
            Action::PanDown => self.pan(0, 1),
            Action::ZoomIn => self.zoom_by(1),
            Action::ZoomOut => self.zoom_by(-1),
            Action::FitView => {
                self.viewport = Viewport::Fit;
                Vec::new()
            }
            Action::ToggleSidePanel => {
                self.side_panel = !self.side_panel;
                Vec::new()
            }
            Action::GoToVertex => {
                vec![Effect::Prompt(Prompt::new(PromptKind::PictureVertex, "go to vertex (file id)", ""))]
            }
            Action::ExportSvg => match &self.result {
                Some(_) => vec![Effect::Prompt(Prompt::new(PromptKind::PictureSvg, "write SVG to", "picture.svg"))],
                None => vec![Effect::Info("nothing drawn yet to write".into())],
            },
            Action::Deeper | Action::Shallower if self.result.as_ref().is_some_and(|r| r.whole) => {
                vec![Effect::Info("the whole graph is drawn: < and > size the neighbourhoods of large graphs".into())]
            }
            Action::Deeper | Action::Shallower => {
                let (depth, cap) = if action == Action::Deeper {
                    ((self.depth + 1).min(MAX_DEPTH), (self.cap + self.cap / 2).min(MAX_CAP))
                } else {
                    (self.depth.saturating_sub(1).max(1), (self.cap * 2 / 3).max(DEFAULT_CAP / 2))
                };
                if (depth, cap) == (self.depth, self.cap) {
                    let end = if action == Action::Deeper { "largest" } else { "smallest" };
                    // Worded as the picture's title words it: `around 7 (depth 2, at most 40 vertices)`.
                    let cap = crate::format::plural(cap as u64, "vertex", "vertices");
                    return vec![Effect::Info(format!(
                        "already the {end} neighbourhood: depth {depth}, at most {cap}"
                    ))];
                }
                (self.depth, self.cap) = (depth, cap);
                redraw(self, Vec::new())
            }
            _ => Vec::new(),
        }
    }

    /// The DAG vertex (component) under the cursor.
    pub fn selected_component(&self) -> Option<u32> {
        Some(self.result.as_ref()?.picture.nodes.get(self.selected?)?.vertex)
    }

    /// A new drawing arrived: keep the cursor on the same vertex if it is still drawn (or put it on
    /// the vertex `g` asked for), and fit the view again when the drawing has a new focus.
    /// `component` maps original vertices to DAG vertices.
    pub fn set_result(&mut self, result: Box<PictureResult>, component: &[u32]) {
        let before = self.selected.and_then(|i| self.result.as_ref()?.picture.nodes.get(i).map(|n| n.vertex));
        let picture = &result.picture;
        self.selected = self.goto.take().or(before).and_then(|v| picture.node_of(v));
        let refocused = self.result.as_ref().is_none_or(|r| r.request.focus != result.request.focus);
        if refocused {
            self.viewport = Viewport::Fit;
            self.cursor_moved = false;
        }
        let dag = |v: u32| component.get(v as usize).copied();
        let focus_vertices = match result.request.focus {
            Focus::Whole => vec![0],
            Focus::Component(c) | Focus::Cycle(c) => vec![c],
            Focus::Query { u, v } => [dag(u), dag(v)].into_iter().flatten().collect(),
        };
        let mut targets: Vec<usize> = focus_vertices.iter().filter_map(|&c| picture.node_of(c)).collect();
        targets.dedup();
        if result.whole && result.request.focus == Focus::Whole {
            targets.clear();
        }
        // A neighbourhood starts with the cursor on the vertex it is drawn around, so that the side
        // panel names that vertex's neighbours out of view.
        if self.selected.is_none() && !result.whole && !matches!(result.request.focus, Focus::Query { .. }) {
            self.selected = targets.first().copied();
        }
        self.targets = targets;
        self.dim = result.request.dim;
        self.result = Some(result);
    }

    /// The scene the view is fitted to, in the area last drawn.
    pub fn scene(&self) -> Option<Scene<'_>> {
        let result = self.result.as_ref()?;
        Some(Scene {
            picture: &result.picture,
            whole: result.whole,
            targets: &self.targets,
            area: self.shown_area.get(),
        })
    }

    /// The view shown now.
    pub fn view(&self) -> Option<View> {
        Some(self.scene()?.resolve(self.viewport))
    }

    fn pan(&mut self, dx: i64, dy: i64) -> Vec<Effect> {
        if let (Some(scene), Some(view)) = (self.scene(), self.view()) {
            self.viewport = Viewport::Manual(scene.pan(view, dx, dy));
        }
        Vec::new()
    }

    fn zoom_by(&mut self, delta: isize) -> Vec<Effect> {
        let (Some(scene), Some(view)) = (self.scene(), self.view()) else { return Vec::new() };
        let zoom = view.zoom.saturating_add_signed(delta).min(ZOOM_LEVELS - 1);
        if zoom == view.zoom {
            let end = if delta > 0 { "the largest" } else { "the smallest" };
            return vec![Effect::Info(format!("already at {end} zoom level"))];
        }
        // A zoom keeps what is looked at in the middle: the cursor's vertex once the user moved it,
        // else the targets (u and v, or the vertex drawn around), else the cursor's vertex, else the
        // point at the centre.
        let cursor = self.selected.and_then(|i| scene.picture.nodes.get(i));
        self.viewport = match cursor {
            Some(node) if self.cursor_moved || scene.targets.is_empty() => {
                Viewport::Centre { vertex: node.vertex, zoom }
            }
            _ if !scene.targets.is_empty() => Viewport::Targets { zoom },
            _ => Viewport::Manual(scene.zoom(view, zoom)),
        };
        Vec::new()
    }

    /// The drawn boxes in the order a reader meets them: layer by layer from the top, each layer
    /// from the left.
    pub fn screen_order(&self) -> Vec<usize> {
        let Some(result) = &self.result else { return Vec::new() };
        let nodes = &result.picture.nodes;
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&i| (nodes[i].layer, nodes[i].column));
        order
    }

    /// Moves the cursor `by` boxes along [`Self::screen_order`], stopping at either end; without a
    /// cursor, onto the first box.
    fn step_cursor(&mut self, by: isize) {
        let order = self.screen_order();
        let at = self.selected.and_then(|s| order.iter().position(|&i| i == s));
        let next = match at {
            Some(at) => at.saturating_add_signed(by).min(order.len().saturating_sub(1)),
            None => 0,
        };
        self.select(order.get(next).copied());
    }

    /// Moves the cursor; when its box leaves the view, the view centres on it.
    fn select(&mut self, selected: Option<usize>) {
        self.selected = selected;
        self.cursor_moved = true;
        let (Some(scene), Some(view), Some(i)) = (self.scene(), self.view(), selected) else { return };
        if !scene.shows(view, i)
            && let Some(node) = scene.picture.nodes.get(i)
        {
            self.viewport = Viewport::Centre { vertex: node.vertex, zoom: view.zoom };
        }
    }

    /// `g`: the vertex with file id (or name) `text` under the cursor and centred; drawn around
    /// first when a large graph's drawing does not hold it.
    pub fn go_to(&mut self, text: &str, ws: &Workspace, config: LabelConfig) -> Vec<Effect> {
        let fields = crate::graph::io::split_fields(text);
        let typed = fields.first().map_or("", String::as_str);
        if ws.loaded.names.table().is_none() && typed.parse::<u64>().is_err() {
            return vec![Effect::Error(format!("'{typed}' is not a vertex id (a whole number)"))];
        }
        let vertex = match ws.vertex(typed) {
            Ok(v) => v,
            Err(e) => return vec![Effect::Error(format!("{e:#}"))],
        };
        let Some(&c) = ws.condensation.component.get(vertex as usize) else {
            return vec![Effect::Error(format!("vertex {typed} is not in the graph"))];
        };
        let id = ws.loaded.names.label(vertex);
        let zoom = self.view().map_or(0, |v| v.zoom);
        match self.result.as_ref().and_then(|r| r.picture.node_of(c)) {
            Some(i) => {
                self.selected = Some(i);
                self.cursor_moved = true;
                self.viewport = Viewport::Centre { vertex: c, zoom };
                vec![Effect::Info(format!("vertex {id} centred, under the cursor"))]
            }
            None => {
                self.focus = Focus::Component(c);
                self.goto = Some(c);
                vec![Effect::Info(format!("drawing around vertex {id}")), self.request(config)]
            }
        }
    }

    /// Writes the drawing to `text` (a path) as SVG and says where.
    pub fn export_svg(&self, path: &Path) -> Effect {
        let Some(result) = &self.result else { return Effect::Info("nothing drawn yet to write".into()) };
        match svg_export::write_svg(&result.picture, path) {
            // The picture's own title (the file's heading too) says what was drawn, and in which
            // dimension where labels are drawn.
            Ok(()) => Effect::Info(format!("wrote {}: {}", path.display(), result.picture.title)),
            Err(e) => Effect::Error(format!("{e:#}")),
        }
    }

    /// Draw `u ⇝ v`'s search next, with the Labels tab's labels (a query was answered).
    pub fn focus_on_query(&mut self, u: u32, v: u32) {
        self.focus = Focus::Query { u, v };
        self.labels = PictureLabels::Session;
        self.stale = true;
    }

    /// Draw cyclic component `c` (a DAG vertex) next, its shortest cycle marked and the cursor on
    /// its box, with the Labels tab's labels.
    pub fn focus_on_cycle(&mut self, c: u32) {
        self.focus = Focus::Cycle(c);
        self.labels = PictureLabels::Session;
        self.goto = Some(c);
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

    /// A new graph: start over (keeping the rules chosen).
    pub fn clear(&mut self) {
        *self = PictureState { rules: self.rules, ..PictureState::default() };
    }
}
