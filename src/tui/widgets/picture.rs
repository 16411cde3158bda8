//! A [`Picture`] in the terminal: boxes drawn with box-drawing characters (a double border for a
//! strongly connected component), edges as Braille lines on ratatui's canvas (tree and path edges
//! as doubled lines, so they stand out without colour too), "+N more" markers and a legend line.
//! States show by colour and by the glyph in the box; with `no_color` the glyphs alone carry them.
//!
//! The picture is laid out in content cells at a zoom level ([`grid`]) and shown through a
//! viewport (`scroll`, which may be negative to centre a small picture); it never panics, whatever
//! the area (zero-sized included), the offset or the picture.

pub mod grid;
mod markers;

use crate::draw::style::Colour;
use crate::draw::{EdgeKind, NodeState, Picture};
use grid::{BOXED_ZOOM, CellRect, Grid};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::{Canvas, Line as CanvasLine};

pub struct PictureView<'a> {
    picture: &'a Picture,
    no_color: bool,
    /// Content cell shown at the area's top-left corner.
    scroll: (i64, i64),
    /// The zoom level ([`grid::ZOOM_LEVELS`]); unset, bordered boxes when the layers fit the
    /// height, else one-line ones.
    zoom: Option<usize>,
    /// A node index to highlight (the cursor).
    selected: Option<usize>,
    legend: bool,
}

impl<'a> PictureView<'a> {
    pub fn new(picture: &'a Picture) -> PictureView<'a> {
        PictureView { picture, no_color: false, scroll: (0, 0), zoom: None, selected: None, legend: true }
    }

    /// Colours off: only glyphs, borders and line thickness tell things apart (`NO_COLOR`).
    pub fn no_color(mut self, no_color: bool) -> Self {
        self.no_color = no_color;
        self
    }

    pub fn scroll(mut self, x: i64, y: i64) -> Self {
        self.scroll = (x, y);
        self
    }

    pub fn zoom(mut self, zoom: usize) -> Self {
        self.zoom = Some(zoom);
        self
    }

    pub fn selected(mut self, node: Option<usize>) -> Self {
        self.selected = node;
        self
    }

    /// Whether the bottom line shows the legend (on by default).
    #[cfg(test)]
    pub fn legend(mut self, legend: bool) -> Self {
        self.legend = legend;
        self
    }

    /// The content's size in cells when drawn into `area` (to bound scrolling).
    pub fn content_size(&self, area: Rect) -> (i64, i64) {
        let grid = self.grid(area);
        (grid.width, grid.height)
    }

    /// Where node `index`'s box lies, in content cells.
    pub fn node_rect(&self, area: Rect, index: usize) -> Option<CellRect> {
        self.grid(area).node_rect(self.picture, index)
    }

    /// The rows the picture gets in `area`: all but the legend's.
    pub fn body_height(&self, area: Rect) -> u16 {
        self.body(area).height
    }

    fn grid(&self, area: Rect) -> Grid {
        let zoom = self.zoom.unwrap_or_else(|| {
            let boxed = Grid::new(self.picture, BOXED_ZOOM);
            if boxed.height <= i64::from(self.body(area).height) { BOXED_ZOOM } else { BOXED_ZOOM - 1 }
        });
        Grid::new(self.picture, zoom)
    }

    /// The part of `area` the picture itself gets (the rest holds the legend).
    fn body(&self, area: Rect) -> Rect {
        let legend_rows = if self.legend && area.height >= 4 { 1 } else { 0 };
        Rect { height: area.height - legend_rows, ..area }
    }

    fn colour(&self, colour: Option<Colour>) -> Style {
        match colour {
            Some(c) if !self.no_color => Style::default().fg(terminal_colour(c)),
            _ => Style::default(),
        }
    }
}

impl Widget for PictureView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let body = self.body(area);
        let grid = self.grid(area);
        let view = Viewport { area: body, scroll: self.scroll };
        if !body.is_empty() {
            self.edges(&grid, &view, buf);
            self.boxes(&grid, &view, buf);
            self.cuts(&grid, &view, buf);
        }
        if body.height < area.height {
            let legend_area = Rect { y: area.bottom() - 1, height: 1, ..area };
            self.legend_line(legend_area, grid.boxed, buf);
        }
    }
}

impl PictureView<'_> {
    fn edges(&self, grid: &Grid, view: &Viewport, buf: &mut Buffer) {
        let picture = self.picture;
        // Each edge as a list of content points (x, y) in Braille dots: 2 per column, 4 per row.
        let mut lines: Vec<EdgeLine> = Vec::new();
        for edge in &picture.edges {
            let (Some(from), Some(to)) = (picture.nodes.get(edge.from), picture.nodes.get(edge.to)) else {
                continue;
            };
            let dot_x = |column: u32| 2.0 * grid.centre(column) as f64;
            let mut points = vec![(dot_x(from.column), 4.0 * (grid.layer_top(from.layer) + grid.box_rows) as f64)];
            for &(layer, column) in &edge.route {
                let top = grid.layer_top(layer) as f64 * 4.0;
                points.push((dot_x(column), top));
                points.push((dot_x(column), top + 4.0 * grid.box_rows as f64 - 1.0));
            }
            points.push((dot_x(to.column), 4.0 * grid.layer_top(to.layer) as f64 - 1.0));
            lines.push((edge.kind, edge.dim, points));
        }
        let (w, h) = (f64::from(view.area.width), f64::from(view.area.height));
        let (sx, sy) = (view.scroll.0 as f64 * 2.0, view.scroll.1 as f64 * 4.0);
        let no_color = self.no_color;
        let colour = move |kind: EdgeKind, dim: bool| -> Color {
            match (no_color, kind, dim) {
                (true, _, _) => Color::Reset,
                (false, EdgeKind::Other, true) => Color::DarkGray,
                (false, EdgeKind::Other, false) => Color::Gray,
                (false, kind, _) => terminal_colour(kind.style().colour),
            }
        };
        let canvas = Canvas::default()
            .marker(Marker::Braille)
            .x_bounds([sx, sx + 2.0 * w - 1.0])
            // Canvas y grows upwards: content dot row `y` is drawn at `-y`.
            .y_bounds([-(sy + 4.0 * h - 1.0), -sy])
            .paint(|ctx| {
                // Faint edges first so the emphasised ones are drawn over them.
                for pass in [EdgeKind::Other, EdgeKind::Tree, EdgeKind::Path] {
                    for (kind, dim, points) in lines.iter().filter(|l| l.0 == pass) {
                        let color = colour(*kind, *dim);
                        // Tree edges are dashed, so they differ from the path's by shape, not
                        // only by colour (and without colour at all).
                        let dashed = *kind == EdgeKind::Tree;
                        for pair in points.windows(2) {
                            for ((x1, y1), (x2, y2)) in pieces(pair[0], pair[1], dashed) {
                                ctx.draw(&CanvasLine { x1, y1: -y1, x2, y2: -y2, color });
                                if kind.is_bold() {
                                    let (x1, x2) = (x1 + 1.0, x2 + 1.0);
                                    ctx.draw(&CanvasLine { x1, y1: -y1, x2, y2: -y2, color });
                                }
                            }
                        }
                    }
                    ctx.layer();
                }
            });
        canvas.render(view.area, buf);
    }

    fn boxes(&self, grid: &Grid, view: &Viewport, buf: &mut Buffer) {
        for (i, node) in self.picture.nodes.iter().enumerate() {
            let label = grid.labels.get(i).map(String::as_str).unwrap_or_default();
            let width = grid.label_width(i);
            let (x, y) = grid.node_origin(node.column, node.layer, width);
            let style = node.state.style();
            let mut look = self.colour(style.colour);
            if node.state != NodeState::Plain {
                look = look.add_modifier(Modifier::BOLD);
            }
            let mut text_look = look;
            if self.selected == Some(i) {
                text_look = text_look.add_modifier(Modifier::REVERSED);
            }
            let component = node.member_count > 1;
            if grid.boxed {
                let [tl, tr, bl, br, h, v] = if component {
                    ["╔", "╗", "╚", "╝", "═", "║"]
                } else {
                    ["┌", "┐", "└", "┘", "─", "│"]
                };
                let bar = h.repeat(width);
                view.put(buf, x, y, &format!("{tl}{bar}{tr}"), look);
                view.put(buf, x, y + 1, v, look);
                view.put(buf, x + 1, y + 1, label, text_look);
                view.put(buf, x + 1 + width as i64, y + 1, v, look);
                view.put(buf, x, y + 2, &format!("{bl}{bar}{br}"), look);
            } else {
                let (open, close) = if component { ("⟦", "⟧") } else { ("[", "]") };
                view.put(buf, x, y, open, look);
                view.put(buf, x + 1, y, label, text_look);
                view.put(buf, x + 1 + width as i64, y, close, look);
            }
        }
    }

    /// The "+N more" markers, each whole inside the view on cells nothing else was drawn on, near
    /// the middle of its box (the short form where the long one finds no room; over edge lines,
    /// cut back by a blank cell each side, where the edges fill the row; see [`markers`]).
    fn cuts(&self, grid: &Grid, view: &Viewport, buf: &mut Buffer) {
        let dim = if self.no_color { Style::default() } else { Style::default().fg(Color::DarkGray) };
        for cut in &self.picture.cuts {
            let Some((text, x, y)) = grid.marker(self.picture, cut) else { continue };
            let (column, row) = view.to_screen(x, y);
            let Ok(row) = u16::try_from(row) else { continue };
            let centre = column + text.chars().count() as i64 / 2;
            let short = grid.short_marker(cut);
            let texts = [text.as_str(), short.as_str()];
            let forms = texts.map(|t| {
                let len = t.chars().count();
                markers::Form { natural: centre - len as i64 / 2, len }
            });
            let Some((i, at)) = markers::place(buf, view.area, row, &forms) else { continue };
            let end = at + forms[i].len as u16;
            for x in [at.checked_sub(1), Some(end)].into_iter().flatten() {
                if view.area.x <= x && x < view.area.right() && markers::Kind::of(buf, x, row) == markers::Kind::Line {
                    buf[(x, row)].set_char(' ');
                }
            }
            buf.set_string(at, row, texts[i], dim);
        }
    }

    /// The legend's entries, each a glyph and its words; whole entries only, and `…` when the
    /// rest does not fit (an entry is never cut).
    fn legend_line(&self, area: Rect, boxed: bool, buf: &mut Buffer) {
        let legend = self.picture.legend();
        let mut entries: Vec<Vec<(String, Style)>> = Vec::new();
        for state in &legend.states {
            let style = state.style();
            let glyph = (style.glyph.to_string(), self.colour(style.colour).add_modifier(Modifier::BOLD));
            entries.push(vec![glyph, (format!(" {}", style.short), Style::default())]);
        }
        for kind in legend.edges.iter().filter(|k| k.is_bold()) {
            let colour = if self.no_color {
                Style::default()
            } else {
                Style::default().fg(terminal_colour(kind.style().colour))
            };
            let name = match kind {
                EdgeKind::Tree => format!(" tree d{}", self.picture.dim),
                _ => " path edge".to_string(),
            };
            entries.push(vec![(edge_sample(*kind == EdgeKind::Tree), colour), (name, Style::default())]);
        }
        if legend.components {
            // The glyph the boxes drawn at this zoom use for a component.
            let glyph = if boxed { "╔╗ component" } else { "⟦⟧ component" };
            entries.push(vec![(glyph.to_string(), Style::default())]);
        }
        if legend.cuts {
            entries.push(vec![("+N more: not drawn".to_string(), Style::default())]);
        }
        let width = |entry: &[(String, Style)]| entry.iter().map(|(t, _)| t.chars().count()).sum::<usize>();
        let (mut x, right) = (area.x as usize, area.right() as usize);
        for (i, entry) in entries.iter().enumerate() {
            let last = i + 1 == entries.len();
            // Room for this entry, and for the `…` that says more follow unless it is the last.
            if x + width(entry) + if last { 0 } else { 3 } > right {
                if x < right {
                    buf[(x as u16, area.y)].set_char('…');
                }
                return;
            }
            for (text, style) in entry {
                for c in text.chars() {
                    buf[(x as u16, area.y)].set_char(c).set_style(*style);
                    x += 1;
                }
            }
            x += 2;
        }
    }
}

/// Cells of the legend's edge samples.
const SAMPLE_CELLS: usize = 4;

/// A bold edge as the picture draws it, run across [`SAMPLE_CELLS`] cells in Braille: two dots
/// thick (a plain edge is one), solid, or dashed as [`pieces`] cuts it (`⠶⠶⠀⠶`), so that the legend
/// shows what the edges look like, colours or not.
fn edge_sample(dashed: bool) -> String {
    let dots = 2 * SAMPLE_CELLS;
    let mut on = vec![false; dots + 1];
    for ((x1, _), (x2, _)) in pieces((0.0, 0.0), ((dots - 1) as f64, 0.0), dashed) {
        // Bold edges are drawn twice, the second one dot to the right.
        on[x1.round() as usize..=(x2.round() as usize + 1).min(dots)].fill(true);
    }
    // The two middle rows of a cell: dots 2 and 3 on its left, 5 and 6 on its right.
    (0..SAMPLE_CELLS)
        .map(|c| {
            let bits = u32::from(on[2 * c]) * 0x06 + u32::from(on[2 * c + 1]) * 0x30;
            char::from_u32(0x2800 + bits).unwrap_or(' ')
        })
        .collect()
}

/// The stretch from `a` to `b` whole, or cut into dashes of 3 dots with gaps of 3.
fn pieces(a: (f64, f64), b: (f64, f64), dashed: bool) -> Vec<((f64, f64), (f64, f64))> {
    const DASH: f64 = 3.0;
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    if !dashed || length <= DASH {
        return vec![(a, b)];
    }
    let at = |t: f64| (a.0 + (b.0 - a.0) * t / length, a.1 + (b.1 - a.1) * t / length);
    let starts = (0..).map(|k| f64::from(k) * 2.0 * DASH).take_while(|&t| t < length);
    starts.map(|t| (at(t), at((t + DASH - 1.0).min(length)))).collect()
}

/// An edge to draw: its kind, whether it is dimmed, its points in Braille dots.
type EdgeLine = (EdgeKind, bool, Vec<(f64, f64)>);

/// Content cells shown through part of the screen.
struct Viewport {
    area: Rect,
    scroll: (i64, i64),
}

impl Viewport {
    /// The screen column and row of content cell `(x, y)` (outside the area where it is not shown).
    fn to_screen(&self, x: i64, y: i64) -> (i64, i64) {
        let column = x.saturating_sub(self.scroll.0).saturating_add(i64::from(self.area.x));
        (column, y.saturating_sub(self.scroll.1).saturating_add(i64::from(self.area.y)))
    }

    /// Writes `text` at content cell `(x, y)`, dropping whatever falls outside the area.
    fn put(&self, buf: &mut Buffer, x: i64, y: i64, text: &str, style: Style) {
        let (first, row) = self.to_screen(x, y);
        if row < i64::from(self.area.y) || row >= i64::from(self.area.bottom()) {
            return;
        }
        if first >= i64::from(self.area.right()) {
            return;
        }
        for (column, c) in (first..).zip(text.chars()) {
            if column >= i64::from(self.area.right()) {
                return;
            }
            if column >= i64::from(self.area.x) {
                buf[(column as u16, row as u16)].set_char(c).set_style(style);
            }
        }
    }
}

/// The explorer's palette (see `crate::tui::theme`).
fn terminal_colour(colour: Colour) -> Color {
    match colour {
        Colour::Blue => Color::Blue,
        Colour::Magenta => Color::Magenta,
        Colour::Red => Color::Red,
        Colour::Green => Color::Green,
        Colour::Cyan => Color::Cyan,
        Colour::Yellow => Color::Yellow,
        Colour::Grey => Color::DarkGray,
    }
}

#[cfg(test)]
mod tests {
    use super::{SAMPLE_CELLS, edge_sample};

    #[test]
    fn the_legend_samples_are_the_edges_as_drawn() {
        assert_eq!(edge_sample(false), "⠶".repeat(SAMPLE_CELLS), "a path edge is solid and thick");
        assert_eq!(edge_sample(true), "⠶⠶⠀⠶", "a tree edge: dashes of 3 dots (4 once doubled), gaps of 3");
    }
}
