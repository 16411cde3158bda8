//! Where a "+N more" marker goes on screen: whole inside the canvas, on cells nothing else was
//! drawn on (no edge line, no box, no other marker), as near as can be to the middle of its box;
//! in a row the edges fill, over lines only, which the marker then interrupts with a blank cell on
//! each side (never over a box or another marker).
//!
//! Markers are placed after the edges and boxes are drawn, by reading the buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// How far (in columns) from its natural place a marker may move: beyond that it would sit under
/// another box's column and read as that one's.
pub const MAX_SHIFT: i64 = 12;

/// One form of a marker: its screen column where it naturally goes (which may lie outside the
/// area) and its width.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub natural: i64,
    pub len: usize,
}

/// Where a marker goes on screen row `row` of `area`: the index of the form chosen among `forms`
/// (the long one first) and its left column, whole inside the area, within [`MAX_SHIFT`] of its
/// natural place. Tried in turn: free cells with a blank on each side, free cells, and, in a row
/// the edges fill, cells holding only edge lines (never a box or another marker), nearest first,
/// each with the long form before the short one. None where the natural place lies wholly
/// outside the area, or every cell near it belongs to a box or a marker.
pub fn place(buf: &Buffer, area: Rect, row: u16, forms: &[Form]) -> Option<(usize, u16)> {
    if row < area.y || row >= area.bottom() {
        return None;
    }
    let (left, right) = (i64::from(area.x), i64::from(area.right()));
    let cell = |x: i64| (left <= x && x < right).then(|| Kind::of(buf, x as u16, row));
    let run = |at: i64, len: i64, ok: fn(Kind) -> bool| (at..at + len).all(|x| cell(x).is_some_and(ok));
    let spaced = |at: i64, len: i64| {
        cell(at - 1).is_none_or(|k| k == Kind::Blank) && cell(at + len).is_none_or(|k| k == Kind::Blank)
    };
    type Test<'a> = &'a dyn Fn(i64, i64) -> bool;
    let blank = |at, len| run(at, len, |k| k == Kind::Blank);
    let passes: [Test; 3] = [&|at, len| blank(at, len) && spaced(at, len), &|at, len| blank(at, len), &|at, len| {
        run(at, len, |k| k != Kind::Drawn)
    }];
    let middle = (left + right) / 2;
    for pass in passes {
        for (i, form) in forms.iter().enumerate() {
            let (natural, len) = (form.natural, form.len as i64);
            if natural + len <= left || natural >= right || len > right - left {
                continue;
            }
            // Nearest first; at equal distance the side nearer the area's middle.
            let mut candidates: Vec<i64> =
                (natural - MAX_SHIFT..=natural + MAX_SHIFT).filter(|&at| left <= at && at + len <= right).collect();
            candidates.sort_by_key(|&at| ((at - natural).abs(), (at + len / 2 - middle).abs()));
            if let Some(&at) = candidates.iter().find(|&&at| pass(at, len)) {
                return Some((i, at as u16));
            }
        }
    }
    None
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing: a space, or the empty Braille pattern the canvas leaves.
    Blank,
    /// Part of an edge line (a Braille pattern).
    Line,
    /// A box, a label or a marker.
    Drawn,
}

impl Kind {
    pub fn of(buf: &Buffer, x: u16, y: u16) -> Kind {
        match buf[(x, y)].symbol().chars().next() {
            None | Some(' ' | '\u{2800}') => Kind::Blank,
            Some('\u{2801}'..='\u{28FF}') => Kind::Line,
            Some(_) => Kind::Drawn,
        }
    }
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
        let one = |natural, len| place(&buf, area, 0, &[Form { natural, len }]);
        // Naturally over the edge at 0..4: moved right, a blank cell after the edge.
        assert_eq!(one(1, 4), Some((0, 5)));
        // Partly left of the area: pulled in, whole.
        assert_eq!(one(-2, 4), Some((0, 5)));
        // Past the right edge (22 columns): pulled in, whole.
        assert_eq!(one(20, 4), Some((0, 18)));
        // Wholly outside: not drawn.
        assert_eq!(one(24, 4), None);
        assert_eq!(one(-4, 4), None);
        // Off the rows of the area.
        assert_eq!(place(&buf, area, 1, &[Form { natural: 4, len: 2 }]), None);
        // No free run of 12 cells: the short form, where there is one.
        assert_eq!(place(&buf, area, 0, &[Form { natural: 4, len: 12 }, Form { natural: 8, len: 4 }]), Some((1, 8)));
    }

    #[test]
    fn in_a_row_full_of_lines_a_marker_goes_over_lines_never_over_a_box() {
        let buf = row("⠿⠿⠿⠿┌──┐⠿⠿⠿⠿⠿⠿");
        let area = buf.area;
        assert_eq!(place(&buf, area, 0, &[Form { natural: 3, len: 4 }]), Some((0, 0)));
        assert_eq!(place(&buf, area, 0, &[Form { natural: 5, len: 5 }]), Some((0, 8)));
        assert_eq!(place(&buf, area, 0, &[Form { natural: 0, len: 7 }]), None);
    }
}
