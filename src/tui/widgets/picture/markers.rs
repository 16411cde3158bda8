//! Where a "+N more" marker goes on screen: whole inside the canvas, on cells nothing else was
//! drawn on (no edge line, no box, no other marker), as near as can be to the middle of its box.
//!
//! Markers are placed after the edges and boxes are drawn, by reading the buffer: a blank cell (a
//! space, or the empty Braille pattern the canvas leaves) is free.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// How far (in columns) from its natural place a marker may move: beyond that it would sit under
/// another box's column and read as that one's.
pub const MAX_SHIFT: i64 = 12;

/// The left column for a marker `len` cells wide on screen row `row` of `area`, naturally at
/// column `natural` (which may lie outside the area): the free run of cells nearest to it, with a
/// blank cell on each side where there is one, within [`MAX_SHIFT`]; None where the marker's
/// natural place is wholly outside the area or no free run is near.
pub fn place(buf: &Buffer, area: Rect, row: u16, natural: i64, len: usize) -> Option<u16> {
    let len = len as i64;
    let (left, right) = (i64::from(area.x), i64::from(area.right()));
    if row < area.y || row >= area.bottom() || natural + len <= left || natural >= right || len > right - left {
        return None;
    }
    let free = |x: i64| x < left || x >= right || is_blank(buf, x as u16, row);
    let run_free = |at: i64| (at..at + len).all(|x| left <= x && x < right && is_blank(buf, x as u16, row));
    let spaced = |at: i64| run_free(at) && free(at - 1) && free(at + len);
    // Nearest first; at equal distance the side nearer the area's middle.
    let mut candidates: Vec<i64> =
        (natural - MAX_SHIFT..=natural + MAX_SHIFT).filter(|&at| left <= at && at + len <= right).collect();
    let middle = (left + right) / 2;
    candidates.sort_by_key(|&at| ((at - natural).abs(), (at + len / 2 - middle).abs()));
    let found = candidates.iter().find(|&&at| spaced(at)).or_else(|| candidates.iter().find(|&&at| run_free(at)));
    found.map(|&at| at as u16)
}

/// Whether nothing is drawn on cell `(x, y)`.
fn is_blank(buf: &Buffer, x: u16, y: u16) -> bool {
    matches!(buf[(x, y)].symbol(), " " | "\u{2800}" | "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, text.chars().count() as u16, 1));
        for (x, c) in text.chars().enumerate() {
            buf[(x as u16, 0)].set_char(c);
        }
        buf
    }

    #[test]
    fn a_marker_keeps_off_drawn_cells_and_inside_the_area() {
        let buf = row("⠒⠒⠒⠒          ⠿⠿      ");
        let area = buf.area;
        // Naturally over the edge at 0..4: moved right, a blank cell after the edge.
        assert_eq!(place(&buf, area, 0, 1, 4), Some(5));
        // Partly left of the area: pulled in, whole.
        assert_eq!(place(&buf, area, 0, -2, 4), Some(5));
        // Past the right edge (22 columns): pulled in, whole.
        assert_eq!(place(&buf, area, 0, 20, 4), Some(18));
        // Wholly outside: not drawn.
        assert_eq!(place(&buf, area, 0, 24, 4), None);
        assert_eq!(place(&buf, area, 0, -4, 4), None);
        // No free run of 12 cells: none.
        assert_eq!(place(&buf, area, 0, 4, 12), None);
        // Off the rows of the area.
        assert_eq!(place(&buf, area, 1, 4, 2), None);
    }
}
