//! Where a [`Picture`]'s boxes, edges and "+N more" markers go in content cells, at one of a few
//! zoom levels: from one-row boxes with only the ids, packed tight, to bordered boxes with their
//! intervals and room between them.
//!
//! Every column is at least as wide as the longest "+N more" marker in it and columns are at
//! least one cell apart, so markers (centred on their column) never overlap one another; parent
//! and child markers get rows of their own (see [`Grid::marker_row`]).

use crate::draw::{CutMarker, Direction, Picture};

/// The longest box text; longer ones end in `…`.
const MAX_LABEL: usize = 24;
/// A state's glyph and the space after it, before a box's name.
const GLYPH_ROOM: usize = 2;

/// How a zoom level draws: box style, what the box says, and the room between boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    /// Bordered 3-row boxes, else one-row `[label]`.
    boxed: bool,
    /// The interval (or the stepper's values) after the id, else the id and state only.
    detail: bool,
    /// Columns between two columns of boxes.
    gap: i64,
    /// Rows for edges between two layers.
    edge_rows: i64,
    name: &'static str,
}

/// Zoom levels, smallest first.
const LEVELS: [Level; 6] = [
    Level { boxed: false, detail: false, gap: 1, edge_rows: 1, name: "vertices only" },
    Level { boxed: false, detail: true, gap: 2, edge_rows: 2, name: "one-line boxes" },
    Level { boxed: true, detail: true, gap: 2, edge_rows: 2, name: "boxes" },
    Level { boxed: true, detail: true, gap: 4, edge_rows: 3, name: "boxes, spaced" },
    Level { boxed: true, detail: true, gap: 6, edge_rows: 4, name: "boxes, wide" },
    Level { boxed: true, detail: true, gap: 10, edge_rows: 6, name: "boxes, widest" },
];

/// How many zoom levels there are; level `ZOOM_LEVELS - 1` is the largest.
pub const ZOOM_LEVELS: usize = LEVELS.len();
/// The first level that draws bordered boxes.
pub const BOXED_ZOOM: usize = 2;

/// What zoom level `zoom` draws, in a few words (for the side panel).
pub fn zoom_name(zoom: usize) -> &'static str {
    LEVELS[zoom.min(ZOOM_LEVELS - 1)].name
}

/// Whether zoom level `zoom` writes a box's interval (or the stepper's values) after its id.
pub fn shows_detail(zoom: usize) -> bool {
    LEVELS[zoom.min(ZOOM_LEVELS - 1)].detail
}

/// A box's place in content cells: left, top, width and height (borders included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRect {
    pub x: i64,
    pub y: i64,
    pub width: i64,
    pub height: i64,
}

impl CellRect {
    /// The smallest rectangle holding both.
    pub fn union(self, other: CellRect) -> CellRect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        let right = (self.x + self.width).max(other.x + other.width);
        let bottom = (self.y + self.height).max(other.y + other.height);
        CellRect { x, y, width: right - x, height: bottom - y }
    }
}

/// The picture's cells at one zoom level: column widths from the labels and markers in them, rows
/// per layer.
pub struct Grid {
    pub labels: Vec<String>,
    left: Vec<i64>,
    widths: Vec<i64>,
    pub boxed: bool,
    /// Rows of one box: 3 with borders, else 1.
    pub box_rows: i64,
    edge_rows: i64,
    /// Rows above the first layer and below the last: one each for "+N more" markers where the
    /// picture has any, else none, so that a small graph fits one row shorter.
    margin: i64,
    /// The short marker text (`+12↑`) at the smallest level, else `+12 more ↑`.
    short_markers: bool,
    pub width: i64,
    pub height: i64,
}

impl Grid {
    pub fn new(picture: &Picture, zoom: usize) -> Grid {
        let level = LEVELS[zoom.min(ZOOM_LEVELS - 1)];
        let short_markers = zoom == 0;
        let labels: Vec<String> =
            picture.nodes.iter().map(|n| fit_label(n.title(), if level.detail { n.detail() } else { None })).collect();
        let mut widths = vec![1i64; picture.columns as usize];
        // While labels can still be built, columns keep room for what a box can come to show: a
        // frontier glyph before its name and, where the level writes them, the widest interval
        // after it; so boxes filling in level by level do not move the layout (or change the
        // fitted zoom).
        let room = |n: &crate::draw::PictureNode| match picture.label_room > 0 {
            true => {
                let title = n.title().chars().count().max(GLYPH_ROOM + n.name().chars().count());
                let detail = if level.detail { 1 + picture.label_room } else { 0 };
                (title + detail).min(MAX_LABEL)
            }
            false => 0,
        };
        for (node, label) in picture.nodes.iter().zip(&labels) {
            if let Some(w) = widths.get_mut(node.column as usize) {
                *w = (*w).max(label.chars().count().max(room(node)) as i64 + 2);
            }
        }
        for cut in &picture.cuts {
            let Some(node) = picture.nodes.get(cut.node) else { continue };
            if let Some(w) = widths.get_mut(node.column as usize) {
                *w = (*w).max(marker_text(cut, short_markers).chars().count() as i64);
            }
        }
        let mut left = Vec::with_capacity(widths.len());
        let mut x = 0;
        for w in &widths {
            left.push(x);
            x += w + level.gap;
        }
        let box_rows = if level.boxed { 3 } else { 1 };
        // With a single edge row, a parent marker and a child marker of the column above would share
        // it: pictures with markers keep two rows.
        let edge_rows = if picture.cuts.is_empty() { level.edge_rows } else { level.edge_rows.max(2) };
        let layers = i64::from(picture.layers);
        let margin = i64::from(!picture.cuts.is_empty());
        let height = layers * (box_rows + edge_rows) - edge_rows + 2 * margin;
        Grid {
            labels,
            left,
            widths,
            boxed: level.boxed,
            box_rows,
            edge_rows,
            margin,
            short_markers,
            width: (x - level.gap).max(0),
            height: height.max(0),
        }
    }

    pub fn label_width(&self, index: usize) -> usize {
        self.labels.get(index).map_or(0, |l| l.chars().count())
    }

    pub fn centre(&self, column: u32) -> i64 {
        let c = column as usize;
        self.left.get(c).copied().unwrap_or(0) + self.widths.get(c).copied().unwrap_or(0) / 2
    }

    pub fn layer_top(&self, layer: u32) -> i64 {
        self.margin + i64::from(layer) * (self.box_rows + self.edge_rows)
    }

    /// Top-left cell of a box whose label is `width` wide.
    pub fn node_origin(&self, column: u32, layer: u32, width: usize) -> (i64, i64) {
        (self.centre(column) - (width as i64 + 2) / 2, self.layer_top(layer))
    }

    /// Node `index`'s box, if the picture has that node.
    pub fn node_rect(&self, picture: &Picture, index: usize) -> Option<CellRect> {
        let node = picture.nodes.get(index)?;
        let width = self.label_width(index);
        let (x, y) = self.node_origin(node.column, node.layer, width);
        Some(CellRect { x, y, width: width as i64 + 2, height: self.box_rows })
    }

    /// The marker's text and its left cell and row.
    pub fn marker(&self, picture: &Picture, cut: &CutMarker) -> Option<(String, i64, i64)> {
        let node = picture.nodes.get(cut.node)?;
        let text = marker_text(cut, self.short_markers);
        let x = self.centre(node.column) - text.chars().count() as i64 / 2;
        Some((text, x, self.marker_row(node.layer, cut.direction)))
    }

    /// Parent markers sit in the row above their box, child markers in the row below it: with at
    /// least two edge rows between layers these are different rows.
    fn marker_row(&self, layer: u32, direction: Direction) -> i64 {
        match direction {
            Direction::Parents => self.layer_top(layer) - 1,
            Direction::Children => self.layer_top(layer) + self.box_rows,
        }
    }

    /// The marker's short text (`+12↑`), for where the one `marker` gives finds no room.
    pub fn short_marker(&self, cut: &CutMarker) -> String {
        marker_text(cut, true)
    }
}

/// `+12 more ↑`, or `+12↑` where room is short.
fn marker_text(cut: &CutMarker, short: bool) -> String {
    if !short {
        return cut.text();
    }
    let arrow = match cut.direction {
        Direction::Parents => '↑',
        Direction::Children => '↓',
    };
    format!("+{}{arrow}", crate::format::thousands(cut.hidden))
}

/// A box's text within [`MAX_LABEL`]: a long title (a component's members) is shortened before
/// the interval after it, which is what the boxes are there to show.
fn fit_label(title: String, detail: Option<String>) -> String {
    let Some(detail) = detail else { return shorten(&title) };
    let room = MAX_LABEL.saturating_sub(detail.chars().count() + 1);
    if room < 4 {
        return shorten(&format!("{title} {detail}"));
    }
    let title = if title.chars().count() <= room { title } else { shorten_to(&title, room) };
    format!("{title} {detail}")
}

fn shorten(text: &str) -> String {
    shorten_to(text, MAX_LABEL)
}

fn shorten_to(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut short: String = text.chars().take(max - 1).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_gives_way_to_the_interval() {
        let members = "↻ {alice, bob, carol}".to_string();
        let fitted = fit_label(members.clone(), Some("[1, 22]".into()));
        assert_eq!(fitted, "↻ {alice, bob, … [1, 22]");
        assert_eq!(fitted.chars().count(), MAX_LABEL);
        assert_eq!(fit_label("7".into(), Some("[1, 5]".into())), "7 [1, 5]");
        assert_eq!(fit_label(members, None), "↻ {alice, bob, carol}");
    }
}
