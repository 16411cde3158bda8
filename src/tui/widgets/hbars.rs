//! Horizontal bars with a label and a value: `2-3   ████████   1,234`.
//!
//! Where not every row fits, the empty rows go first (the labels are ranges, so the gap shows),
//! and if that is not enough the last row says how many more there are: a row is never dropped
//! without a word.

use crate::format::{plural, thousands};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

pub struct HBars<'a> {
    pub rows: &'a [(String, u64)],
    pub style: Style,
}

/// The rows shown in `height` lines, and how many non-empty rows are left out.
fn shown(rows: &[(String, u64)], height: usize) -> (Vec<&(String, u64)>, usize) {
    let mut kept: Vec<&(String, u64)> = rows.iter().collect();
    if kept.len() > height {
        kept.retain(|(_, v)| *v > 0);
    }
    if kept.len() > height {
        let room = height.saturating_sub(1);
        let more = kept.len() - room;
        kept.truncate(room);
        return (kept, more);
    }
    (kept, 0)
}

impl Widget for HBars<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.is_empty() {
            return;
        }
        let (rows, more) = shown(self.rows, area.height as usize);
        // Labels are ranges such as `1,048,576-2,097,151`: whole, unless they would take more than
        // half the width from the bars.
        let label_w = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0).min(area.width as usize / 2);
        let value_w = rows.iter().map(|(_, v)| thousands(*v).len()).max().unwrap_or(1);
        let bar_w = (area.width as usize).saturating_sub(label_w + value_w + 2);
        let max = rows.iter().map(|(_, v)| *v).max().unwrap_or(0).max(1);
        for (i, (label, value)) in rows.iter().enumerate() {
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
        if more > 0 {
            let text = format!("… {}", plural(more as u64, "more row", "more rows"));
            buf.set_stringn(area.x, area.y + rows.len() as u16, text, area.width as usize, Style::default());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(values: &[u64]) -> Vec<(String, u64)> {
        values.iter().enumerate().map(|(i, &v)| (format!("r{i}"), v)).collect()
    }

    #[test]
    fn empty_rows_give_way_before_any_row_is_left_out() {
        let all = rows(&[5, 0, 0, 3, 0, 1]);
        let (kept, more) = shown(&all, 6);
        assert_eq!((kept.len(), more), (6, 0), "everything fits: the empty rows stay");
        let (kept, more) = shown(&all, 3);
        assert_eq!(kept.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["r0", "r3", "r5"]);
        assert_eq!(more, 0);
        let (kept, more) = shown(&all, 2);
        assert_eq!((kept.len(), more), (1, 2), "one row and the line saying two more");
    }

    #[test]
    fn the_last_line_counts_the_rows_left_out() {
        let all = rows(&[1, 2, 3, 4]);
        let area = Rect::new(0, 0, 40, 3);
        let mut buf = Buffer::empty(area);
        HBars { rows: &all, style: Style::default() }.render(area, &mut buf);
        let last: String = (0..40).map(|x| buf[(x, 2)].symbol().to_string()).collect();
        assert_eq!(last.trim_end(), "… 2 more rows");
    }

    #[test]
    fn no_row_is_drawn_outside_an_area_without_room() {
        // A panel squeezed to its borders leaves an inner area of height 0: the line counting the
        // rows left out must not land on whatever lies below it.
        let all = rows(&[1, 2]);
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 2));
        HBars { rows: &all, style: Style::default() }.render(Rect::new(0, 0, 40, 0), &mut buf);
        assert!(buf.content().iter().all(|c| c.symbol() == " "));
    }

    #[test]
    fn a_range_label_is_kept_whole_where_the_width_allows() {
        let all = vec![("1,048,576-2,097,151".to_string(), 3)];
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 1));
        HBars { rows: &all, style: Style::default() }.render(Rect::new(0, 0, 60, 1), &mut buf);
        let line: String = (0..60).map(|x| buf[(x, 0)].symbol().to_string()).collect();
        assert!(line.starts_with("1,048,576-2,097,151 "), "{line}");
    }
}
