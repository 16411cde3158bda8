//! Column charts that use their panel: columns as wide as the panel allows, a y axis from 0 to the
//! peak, and an x axis naming as many columns as fit. The Graph tab's levels, the Labels tab's
//! frontier and the Exceptions tab's dimensions are drawn with it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// The top cell of a bar, by eighths of a cell (index 1..=7; a full cell is `█`).
const EIGHTHS: [&str; 8] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇"];

/// Cells a label takes (labels are numbers, commas, `~` and `d=`: one cell per character).
fn width(text: &str) -> u16 {
    text.chars().count() as u16
}

/// Where the columns of a chart go, from the left edge of its plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnLayout {
    /// Cells a column's bar fills; a gap of at least one cell follows once there is room for it.
    pub bar: u16,
    /// Columns that fit (the first ones; one cell each when there are more columns than cells).
    pub shown: usize,
    /// Cells the columns are spread over.
    width: u16,
}

impl ColumnLayout {
    /// `count` columns spread over `width` cells: with two or more cells per column, bars of equal
    /// width with gaps, spread over the whole width; with fewer, one cell each, side by side.
    pub fn fit(count: usize, width: u16) -> ColumnLayout {
        let shown = count.min(width as usize);
        let per = (width as usize).checked_div(shown).unwrap_or(1) as u16;
        ColumnLayout { bar: per.saturating_sub(1).max(1), shown, width }
    }

    /// Cells from one column's start to the next, at least.
    pub fn step(&self) -> u16 {
        (self.width as usize).checked_div(self.shown).unwrap_or(1).max(1) as u16
    }

    /// Offset of column `i` from the plot's left edge.
    pub fn x(&self, i: usize) -> u16 {
        if self.step() < 2 { i as u16 } else { (i * self.width as usize / self.shown) as u16 }
    }
}

/// A chart's area cut into the y axis (left, wide enough for `peak_label` and its tick), the plot,
/// and the x axis row under the plot (empty when the area has a single row).
pub fn split(area: Rect, peak_label: &str) -> (Rect, Rect, Rect) {
    let axis_width = (width(peak_label) + 1).min(area.width);
    let axis_rows = u16::from(area.height >= 2);
    let plot_height = area.height - axis_rows;
    let y_axis = Rect::new(area.x, area.y, axis_width, plot_height);
    let plot = Rect::new(area.x + axis_width, area.y, area.width - axis_width, plot_height);
    let x_axis = Rect::new(plot.x, area.y + plot_height, plot.width, axis_rows);
    (y_axis, plot, x_axis)
}

/// The y axis: `peak┤` on the top row, `bottom┤` on the bottom one, `│` between. The bottom label
/// is what a bar filling only the bottom row stands for: `0` under bars drawn in eighths of a cell,
/// `1` under bars of whole cells, where any non-empty bar fills the bottom cell.
pub struct YAxis<'a> {
    pub peak_label: &'a str,
    pub bottom_label: &'a str,
    pub style: Style,
}

impl Widget for YAxis<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let tick_x = area.right() - 1;
        let label_width = area.width as usize - 1;
        for y in area.top()..area.bottom() {
            let (label, tick) = if y == area.top() {
                (self.peak_label, "┤")
            } else if y == area.bottom() - 1 {
                (self.bottom_label, "┤")
            } else {
                ("", "│")
            };
            buf.set_stringn(area.x, y, format!("{label:>label_width$}"), label_width, self.style);
            buf.set_string(tick_x, y, tick, self.style);
        }
    }
}

/// The x axis: column `i` stands for the value `first + i * per`, written `prefix` + value under its
/// column. Only values that are multiples of a round interval are written, the smallest interval
/// whose labels do not touch.
pub struct XAxis<'a> {
    pub layout: ColumnLayout,
    pub first: u64,
    pub per: u64,
    pub prefix: &'a str,
    pub style: Style,
}

impl XAxis<'_> {
    fn label(&self, i: usize) -> String {
        format!("{}{}", self.prefix, self.first + i as u64 * self.per.max(1))
    }

    /// The interval between written values: 1, 2, 5, 10, 20, 50, ... whose columns lie far enough
    /// apart for the widest label and a space.
    fn interval(&self) -> u64 {
        let shown = self.layout.shown;
        let widest = (0..shown).map(|i| width(&self.label(i))).max().unwrap_or(1) as u64;
        let (per, step) = (self.per.max(1), self.layout.step() as u64);
        (0u32..)
            .map(|k| [1u64, 2, 5][k as usize % 3].saturating_mul(10u64.saturating_pow(k / 3)))
            .find(|&interval| {
                // Columns between two values that are multiples of `interval`.
                let columns = interval / gcd(interval, per);
                columns.saturating_mul(step) > widest || columns >= shown as u64 || interval == u64::MAX
            })
            .unwrap_or(1)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Widget for XAxis<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || self.layout.shown == 0 {
            return;
        }
        let interval = self.interval();
        for i in 0..self.layout.shown {
            let value = self.first + i as u64 * self.per.max(1);
            if !value.is_multiple_of(interval) {
                continue;
            }
            let text = self.label(i);
            let cells = width(&text);
            // Centred under bars wide enough, else starting at the column.
            let x = area.x + self.layout.x(i) + self.layout.bar.saturating_sub(cells) / 2;
            if x + cells <= area.right() {
                buf.set_string(x, area.y, text, self.style);
            }
        }
    }
}

/// One bar per value, scaled so the largest fills the plot (in eighths of a cell, so small
/// differences still show), optionally with each value written above its bar.
pub struct Columns<'a> {
    pub values: &'a [u64],
    pub layout: ColumnLayout,
    pub style: Style,
    /// Written above each bar (centred; left out where wider than the bar).
    pub labels: Option<&'a [String]>,
}

impl Widget for Columns<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        // A row is kept above the tallest bar for its label.
        let rows = area.height.saturating_sub(u16::from(self.labels.is_some())) as u64;
        if rows == 0 {
            return;
        }
        let max = self.values.iter().copied().max().unwrap_or(0).max(1);
        for (i, &value) in self.values.iter().take(self.layout.shown).enumerate() {
            let x = area.x + self.layout.x(i);
            let bar = self.layout.bar.min(area.right().saturating_sub(x));
            if bar == 0 {
                break;
            }
            // Eighths of a cell, rounded up so a non-zero value always shows.
            let eighths = if value == 0 { 0 } else { (value as u128 * rows as u128 * 8).div_ceil(max as u128) as u64 };
            let (full, part) = (eighths / 8, (eighths % 8) as usize);
            let mut y = area.bottom();
            for _ in 0..full {
                y -= 1;
                buf.set_string(x, y, "█".repeat(bar as usize), self.style);
            }
            if part > 0 {
                y -= 1;
                buf.set_string(x, y, EIGHTHS[part].repeat(bar as usize), self.style);
            }
            if let Some(label) = self.labels.and_then(|l| l.get(i))
                && y > area.y
                && width(label) <= bar
            {
                let at = x + bar.saturating_sub(width(label)) / 2;
                buf.set_stringn(at, y - 1, label, area.right().saturating_sub(at) as usize, Style::default());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>().trim_end().to_string()
    }

    #[test]
    fn few_columns_widen_to_the_panel() {
        // kegg's 26 levels on an 80-cell panel: bars of 2 cells spread over all of it.
        let kegg = ColumnLayout::fit(26, 80);
        assert_eq!((kegg.bar, kegg.shown, kegg.step()), (2, 26, 3));
        assert_eq!((kegg.x(0), kegg.x(1), kegg.x(13), kegg.x(25)), (0, 3, 40, 76));
        assert_eq!(ColumnLayout::fit(5, 40).bar, 7);
        // Fewer than two cells a column: one cell each, side by side.
        let packed = ColumnLayout::fit(26, 34);
        assert_eq!((packed.bar, packed.x(25)), (1, 25));
        // More columns than cells: the first ones.
        assert_eq!(ColumnLayout::fit(100, 30).shown, 30);
        assert_eq!(ColumnLayout::fit(0, 30).shown, 0);
    }

    #[test]
    fn bars_fill_the_height_and_label_their_values() {
        let area = Rect::new(0, 0, 6, 4);
        let mut buf = Buffer::empty(area);
        let labels = ["8".to_string(), "2".to_string()];
        let layout = ColumnLayout::fit(2, 6);
        Columns { values: &[8, 2], layout, style: Style::default(), labels: Some(&labels) }.render(area, &mut buf);
        // 3 rows for bars under the label row: 8 fills them, 2 is a quarter (6 eighths of 24).
        assert_eq!(text(&buf, 0), "8");
        assert_eq!(text(&buf, 1), "██");
        assert_eq!(text(&buf, 2), "██ 2");
        assert_eq!(text(&buf, 3), "██ ▆▆");
    }

    #[test]
    fn the_x_axis_writes_round_values_that_do_not_touch() {
        let area = Rect::new(0, 0, 28, 1);
        let mut buf = Buffer::empty(area);
        let layout = ColumnLayout::fit(26, 28);
        XAxis { layout, first: 0, per: 1, prefix: "", style: Style::default() }.render(area, &mut buf);
        // One cell per level: every fifth level fits ("10" and a space need 3 cells).
        assert_eq!(text(&buf, 0), "0    5    10   15   20   25");
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 1));
        let layout = ColumnLayout::fit(5, 40);
        XAxis { layout, first: 1, per: 1, prefix: "d=", style: Style::default() }.render(buf.area, &mut buf);
        assert_eq!(text(&buf, 0), "  d=1     d=2     d=3     d=4     d=5");
    }

    #[test]
    fn the_y_axis_runs_from_zero_to_the_peak() {
        let area = Rect::new(0, 0, 6, 3);
        let mut buf = Buffer::empty(area);
        YAxis { peak_label: "1,514", bottom_label: "0", style: Style::default() }.render(area, &mut buf);
        assert_eq!((text(&buf, 0), text(&buf, 1), text(&buf, 2)), ("1,514┤".into(), "     │".into(), "    0┤".into()));
        let (y, plot, x) = split(Rect::new(10, 5, 40, 8), "1,514");
        assert_eq!((y, plot, x), (Rect::new(10, 5, 6, 7), Rect::new(16, 5, 34, 7), Rect::new(16, 12, 34, 1)));
    }
}
