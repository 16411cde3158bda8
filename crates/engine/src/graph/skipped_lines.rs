//! The blank and comment lines a reader skipped, in memory that follows the data lines, not the
//! skipped ones: a count and the first few of each kind, and the runs of consecutive skipped
//! lines (a run ends at a data or header line, so there are never more runs than those lines, and
//! a million blank lines in a row are one run).

use super::firsts::{FIRST, Firsts};

/// What was skipped, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkippedLines {
    /// Blank lines: how many, and the first few.
    pub blank: Firsts,
    /// Comment lines: how many, and the first few.
    pub comment: Firsts,
    /// Runs of consecutive skipped lines of either kind, as (first line, lines), ascending.
    runs: Vec<(u64, u64)>,
}

impl SkippedLines {
    /// Notes that `line` (after every line noted so far) was skipped.
    pub fn note(&mut self, line: u64, comment: bool) {
        if comment {
            self.comment.note(line)
        } else {
            self.blank.note(line)
        }
        self.extend_runs(line, 1);
    }

    /// Notes `lines` blank lines in a row from `first` (after every line noted so far).
    pub fn note_blank_lines(&mut self, first: u64, lines: u64) {
        if lines == 0 {
            return;
        }
        self.blank.count += lines;
        let room = FIRST.saturating_sub(self.blank.first.len()) as u64;
        self.blank.first.extend(first..first + lines.min(room));
        self.extend_runs(first, lines);
    }

    /// Notes `lines` skipped lines in a row from `first`, `comments` of them comments, where none
    /// of them can be among the first few of its kind (those were noted before).
    pub fn note_counted(&mut self, first: u64, lines: u64, comments: u64) {
        if lines == 0 {
            return;
        }
        self.comment.count += comments;
        self.blank.count += lines - comments;
        self.extend_runs(first, lines);
    }

    fn extend_runs(&mut self, first: u64, lines: u64) {
        match self.runs.last_mut() {
            Some((start, len)) if *start + *len == first => *len += lines,
            _ => self.runs.push((first, lines)),
        }
    }

    /// Appends `later`'s lines (numbered from 0 at line `shift`), which all come after these.
    pub fn append_shifted(&mut self, later: &SkippedLines, shift: u64) {
        for (mine, theirs) in [(&mut self.blank, &later.blank), (&mut self.comment, &later.comment)] {
            mine.count += theirs.count;
            let room = FIRST.saturating_sub(mine.first.len());
            mine.first.extend(theirs.first.iter().take(room).map(|line| line + shift));
        }
        for &(first, lines) in &later.runs {
            self.extend_runs(first + shift, lines);
        }
    }

    /// The line of data line `index` (0-based) of a body that starts on line `body_start`.
    pub fn data_line_number(&self, index: u64, body_start: u64) -> u64 {
        let mut line = body_start + index;
        for &(first, lines) in &self.runs {
            let end = first + lines;
            if end <= body_start {
                continue;
            }
            let first = first.max(body_start);
            if first > line {
                break;
            }
            // Every line of the run comes before the data line pushed past it.
            line += end - first;
        }
        line
    }

    /// The runs, for tests.
    #[cfg(test)]
    pub fn runs(&self) -> &[(u64, u64)] {
        &self.runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noted(lines: &[(u64, bool)]) -> SkippedLines {
        let mut s = SkippedLines::default();
        for &(line, comment) in lines {
            s.note(line, comment);
        }
        s
    }

    #[test]
    fn data_lines_skip_blank_and_comment_lines() {
        let skipped = noted(&[(1, true), (3, false), (4, true)]);
        assert_eq!(skipped.data_line_number(0, 2), 2);
        assert_eq!(skipped.data_line_number(1, 2), 5);
        assert_eq!(skipped.data_line_number(0, 1), 2);
        assert_eq!(skipped.data_line_number(2, 1), 6);
    }

    #[test]
    fn consecutive_lines_are_one_run_and_firsts_stay_bounded() {
        let mut s = SkippedLines::default();
        for line in 2..1_000_002 {
            s.note(line, line % 2 == 0);
        }
        assert_eq!(s.runs(), [(2, 1_000_000)]);
        assert_eq!((s.blank.count, s.comment.count), (500_000, 500_000));
        assert_eq!(s.comment.first, [2, 4, 6, 8, 10]);
        assert_eq!(s.data_line_number(0, 1), 1);
        assert_eq!(s.data_line_number(1, 1), 1_000_002);
    }

    #[test]
    fn appending_shifts_and_joins_runs() {
        let mut head = noted(&[(1, false), (2, true)]);
        let chunk = noted(&[(0, false), (1, false), (5, true)]);
        head.append_shifted(&chunk, 3);
        assert_eq!(head.runs(), [(1, 4), (8, 1)]);
        assert_eq!(head.blank.first, [1, 3, 4]);
        assert_eq!(head.comment.first, [2, 8]);
        assert_eq!((head.blank.count, head.comment.count), (3, 2));
    }
}
