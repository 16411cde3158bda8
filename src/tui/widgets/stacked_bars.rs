//! The frontier of each BFS level as a stacked column: small (bottom), medium, large (top) queues.
//! Each queue has its own symbol as well as its own colour, so the chart reads without colour.

use super::columns::ColumnLayout;
use crate::telemetry::QueueSizes;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

pub const SMALL_SYMBOL: &str = "█";
pub const MEDIUM_SYMBOL: &str = "▓";
pub const LARGE_SYMBOL: &str = "░";

pub struct StackedBars<'a> {
    /// One entry per column, left to right.
    pub columns: &'a [QueueSizes],
    pub styles: [Style; 3],
}

impl Widget for StackedBars<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let height = area.height as u64;
        if height == 0 {
            return;
        }
        let max = self.columns.iter().map(QueueSizes::total).max().unwrap_or(0).max(1);
        // Few levels get columns as wide as the panel allows (with a gap), many get one cell each.
        let layout = ColumnLayout::fit(self.columns.len(), area.width);
        let bar = layout.bar as usize;
        for (i, q) in self.columns.iter().take(layout.shown).enumerate() {
            // Cells per segment, rounded up so a non-empty queue always shows.
            let cells = |n: u64| if n == 0 { 0 } else { (n * height).div_ceil(max) };
            let segments =
                [(cells(q.small), SMALL_SYMBOL), (cells(q.medium), MEDIUM_SYMBOL), (cells(q.large), LARGE_SYMBOL)];
            let mut y = area.bottom();
            for (k, (n, symbol)) in segments.into_iter().enumerate() {
                for _ in 0..n {
                    if y <= area.y {
                        break;
                    }
                    y -= 1;
                    let x = area.x + layout.x(i);
                    buf.set_string(x, y, symbol.repeat(bar), self.styles[k]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_stack_bottom_up() {
        let columns = [QueueSizes { small: 2, medium: 1, large: 1 }, QueueSizes { small: 1, medium: 0, large: 0 }];
        let area = Rect::new(0, 0, 2, 4);
        let mut buf = Buffer::empty(area);
        StackedBars { columns: &columns, styles: [Style::default(); 3] }.render(area, &mut buf);
        let col = |x: u16| (0..4).map(|y| buf[(x, y)].symbol().to_string()).collect::<String>();
        assert_eq!(col(0), "░▓██");
        assert_eq!(col(1), "   █");
    }
}
