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
        if a == b {
            buf.set_string(area.x + 2 + a, y, "◆", style);
        } else {
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
