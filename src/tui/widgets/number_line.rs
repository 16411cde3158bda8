//! Two intervals on one number line `1..=max`: `L(u)` above, `L(v)` below (a point is an interval of
//! one: the Query tab draws topological positions so). In a cutting dimension
//! `L(v)` is drawn with the "no" style and `✗` marks the row; where it is contained, `✓`.

use crate::index::Interval;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

pub struct NumberLine {
    pub max: u32,
    pub u: Interval,
    pub v: Interval,
    /// This dimension proves u cannot reach v.
    pub cut: bool,
    pub base: Style,
    pub u_style: Style,
    pub v_style: Style,
    pub cut_style: Style,
}

impl NumberLine {
    fn x(&self, value: u32, width: u16) -> u16 {
        if width <= 1 || self.max <= 1 {
            return 0;
        }
        let value = value.clamp(1, self.max);
        ((value - 1) as u64 * (width - 1) as u64 / (self.max - 1) as u64) as u16
    }

    /// One row at `area.y`: the name, the line, the interval, the mark.
    fn row(&self, buf: &mut Buffer, area: Rect, (name, mark): (&str, &str), iv: Interval, style: Style) {
        let y = area.y;
        let width = area.width.saturating_sub(4);
        buf.set_string(area.x, y, name, self.base);
        buf.set_string(area.x + 2, y, "─".repeat(width as usize), self.base);
        let (a, b) = (self.x(iv.low, width), self.x(iv.post, width));
        for x in a..=b {
            buf.set_string(area.x + 2 + x, y, "━", style);
        }
        // `◆` is a point only; a range keeps at least one filled cell, and gets its brackets only
        // where a filled cell stays between them (`[]` would read as empty).
        if iv.low == iv.post {
            buf.set_string(area.x + 2 + a, y, "◆", style);
        } else if b >= a + 2 {
            buf.set_string(area.x + 2 + a, y, "[", style);
            buf.set_string(area.x + 2 + b, y, "]", style);
        }
        buf.set_string(area.x + 3 + width, y, mark, style);
    }
}

impl Widget for NumberLine {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height < 2 || area.width < 8 {
            return;
        }
        self.row(buf, area, ("u", " "), self.u, self.u_style);
        let (style, mark) = if self.cut { (self.cut_style, "✗") } else { (self.v_style, "✓") };
        let below = Rect { y: area.y + 1, ..area };
        self.row(buf, below, ("v", mark), self.v, style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `u` row of `u` over `v` on `1..=max`, `width` cells wide.
    fn u_row(max: u32, u: Interval, width: u16) -> String {
        let area = Rect::new(0, 0, width, 2);
        let mut buf = Buffer::empty(area);
        let point = Interval { low: 1, post: 1 };
        let line = NumberLine {
            max,
            u,
            v: point,
            cut: false,
            base: Style::default(),
            u_style: Style::default(),
            v_style: Style::default(),
            cut_style: Style::default(),
        };
        line.render(area, &mut buf);
        (0..width).map(|x| buf[(x, 0)].symbol().to_string()).collect::<String>().trim_end().to_string()
    }

    #[test]
    fn a_short_range_is_filled_and_only_a_point_is_a_diamond() {
        // [1, 2] of 1..=8 on 10 cells: its ends are next to each other, never an empty `[]`.
        assert_eq!(u_row(8, Interval { low: 1, post: 2 }, 14), "u ━━────────");
        // [1, 2] of 1..=16: both ends in one cell, still a filled cell, not the point's diamond.
        assert_eq!(u_row(16, Interval { low: 1, post: 2 }, 14), "u ━─────────");
        assert_eq!(u_row(16, Interval { low: 3, post: 3 }, 14), "u ─◆────────");
        // Room for a filled cell between them: brackets mark the ends.
        assert_eq!(u_row(16, Interval { low: 1, post: 16 }, 14), "u [━━━━━━━━]");
        assert_eq!(u_row(16, Interval { low: 1, post: 6 }, 14), "u [━━]──────");
    }
}
