//! Horizontal bars with a label and a value: `2-3   ████████   1,234`.

use crate::format::thousands;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

pub struct HBars<'a> {
    pub rows: &'a [(String, u64)],
    pub style: Style,
}

impl Widget for HBars<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let label_w = self.rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0).min(12);
        let value_w = self.rows.iter().map(|(_, v)| thousands(*v).len()).max().unwrap_or(1);
        let bar_w = (area.width as usize).saturating_sub(label_w + value_w + 2);
        let max = self.rows.iter().map(|(_, v)| *v).max().unwrap_or(0).max(1);
        for (i, (label, value)) in self.rows.iter().take(area.height as usize).enumerate() {
            let y = area.y + i as u16;
            let label: String = label.chars().take(label_w).collect();
            buf.set_stringn(area.x, y, format!("{label:<label_w$}"), label_w, Style::default());
            let len = if *value == 0 { 0 } else { ((*value as f64 / max as f64) * bar_w as f64).ceil() as usize };
            buf.set_stringn(
                area.x + label_w as u16 + 1,
                y,
                "█".repeat(len.max(usize::from(*value > 0))),
                bar_w,
                self.style,
            );
            let text = format!("{:>value_w$}", thousands(*value));
            buf.set_stringn(area.x + (label_w + 2 + bar_w) as u16, y, text, value_w, Style::default());
        }
    }
}
