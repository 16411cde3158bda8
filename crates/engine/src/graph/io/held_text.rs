//! Text held in memory without most of its blank and comment lines, so that reading a file costs
//! memory for the lines that hold data, not for the lines around them.
//!
//! In each run of consecutive blank and comment lines, the first line of each kind (blank, `#`
//! comment, `%` comment) is kept as written; the others are counted in a [`Hole`] where they were
//! (a few short ones are kept as written, which costs less than a hole). [`super::scan::Lines`]
//! crosses a hole as the lines it stands for, numbered and noted as skipped.
//!
//! Why every reader reads the held text as it would the whole one: a reader skips blank lines and
//! its comment lines wherever it skips any (noting them), or stops at such a line with an error,
//! or takes it as the line that opens the file (a Matrix Market banner, the edge-list writer's
//! comment, the line a format is guessed from). The line that opens the file is the first of its
//! kind, so it is kept; after a kept line of a kind, the reader skips the others of that kind in
//! the same run, or never reaches them because it stopped at the kept one. And a skipped line's
//! words are never read, only its kind.

use crate::graph::firsts::FIRST;
use crate::graph::skipped_lines::SkippedLines;

/// A blank line, as a bit of a set of kinds.
const BLANK: u8 = 1;
/// A line whose first non-blank byte is `#`.
const HASH: u8 = 2;
/// A line whose first non-blank byte is `%`.
const PERCENT: u8 = 4;

/// Bytes of elided lines kept as written rather than as a hole: a hole costs about this much.
const SMALL_HOLE: u64 = 64;

/// The kind of a line (its line end may be included): one of the bits above, or 0 for a line that
/// holds something else.
fn kind(line: &[u8]) -> u8 {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        None => BLANK,
        Some(b'#') => HASH,
        Some(b'%') => PERCENT,
        Some(_) => 0,
    }
}

/// Lines of `bytes` (the last one may lack its line end).
pub fn line_count(bytes: &[u8]) -> u64 {
    let ends = memchr::memchr_iter(b'\n', bytes).count() as u64;
    ends + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// Blank and comment lines left out of the held text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    /// Where they were: a line start in the held text.
    pub at: usize,
    /// How many lines.
    pub lines: u64,
    /// Their bytes, line ends included.
    pub bytes: u64,
    /// Of the lines, the comments (the others are blank).
    pub comments: u64,
    /// The kinds of line among them (bits).
    kinds: u8,
    /// Which lines were blank and which comments, numbered from 0, while some may still be among
    /// the first few the loader reports; past those, the counts say all there is to say.
    firsts: Option<Box<SkippedLines>>,
}

impl Hole {
    fn new(at: usize, early: bool) -> Hole {
        Hole { at, lines: 0, bytes: 0, comments: 0, kinds: 0, firsts: early.then(Box::default) }
    }

    /// Notes the hole's lines in `skipped`, its first line being line `first`.
    pub fn note_in(&self, skipped: &mut SkippedLines, first: u64) {
        match &self.firsts {
            Some(firsts) => skipped.append_shifted(firsts, first),
            None => skipped.note_counted(first, self.lines, self.comments),
        }
    }

    /// One line of each kind the hole holds: text a parser accepts exactly when it would skip all
    /// of the hole's lines.
    pub fn sample(&self) -> Vec<u8> {
        let mut sample = Vec::new();
        for (bit, line) in [(BLANK, &b"\n"[..]), (HASH, b"#\n"), (PERCENT, b"%\n")] {
            if self.kinds & bit != 0 {
                sample.extend_from_slice(line);
            }
        }
        sample
    }

    /// Adds `lines` lines of one `kind`, `bytes` bytes in all, after the lines the hole holds.
    fn add(&mut self, kind: u8, lines: u64, bytes: u64) {
        let index = self.lines;
        let comment = kind != BLANK;
        if let Some(firsts) = &mut self.firsts {
            if comment {
                (0..lines).for_each(|i| firsts.note(index + i, true));
            } else {
                firsts.note_blank_lines(index, lines);
            }
        }
        self.lines += lines;
        self.bytes += bytes;
        self.comments += if comment { lines } else { 0 };
        self.kinds |= kind;
    }
}

/// A view of held text: its bytes, its holes in order, and the size of the text it stands for.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    pub bytes: &'a [u8],
    pub holes: &'a [Hole],
    /// The bytes of the text with its holes' lines.
    pub size: u64,
    /// Whether this is the whole text, not the first part of a longer one.
    pub whole: bool,
}

impl<'a> Text<'a> {
    /// A whole text held as it is.
    pub fn whole(bytes: &'a [u8]) -> Text<'a> {
        Text { bytes, holes: &[], size: bytes.len() as u64, whole: true }
    }
}

/// A hole being filled, with its bytes while they are few enough to keep as written instead.
#[derive(Debug)]
struct Open {
    hole: Hole,
    written: Option<Vec<u8>>,
}

/// Text taken in blocks of whole lines, held without most of its blank and comment lines.
#[derive(Debug, Default)]
pub struct HeldText {
    bytes: Vec<u8>,
    holes: Vec<Hole>,
    /// The kinds of blank and comment line kept since the last line of another kind.
    run: u8,
    /// The hole the last lines went into, while those lines continue.
    open: Option<Open>,
    /// Blank and comment lines met so far, held or not: past a few of each, none of the next
    /// can be among the first ones the loader reports.
    blank_met: u64,
    comments_met: u64,
    /// Bytes of the lines in holes.
    in_holes: u64,
}

impl HeldText {
    /// Takes `block`: whole lines, but for the last block of a text, which may end without a line end.
    pub fn push(&mut self, block: &[u8]) {
        if block.iter().all(u8::is_ascii_whitespace) {
            return self.push_blank(block);
        }
        let mut copied = 0;
        let mut at = 0;
        let unended = (!block.ends_with(b"\n")).then_some(block.len());
        for end in memchr::memchr_iter(b'\n', block).map(|i| i + 1).chain(unended) {
            let kind = kind(&block[at..end]);
            if kind != 0 && self.run & kind != 0 {
                self.bytes.extend_from_slice(&block[copied..at]);
                copied = end;
                self.elide(kind, 1, &block[at..end]);
            } else {
                // A kept line ends the hole the lines before it went into, if they did.
                self.close();
                self.run = if kind == 0 { 0 } else { self.run | kind };
                self.meet(kind, 1);
            }
            at = end;
        }
        self.bytes.extend_from_slice(&block[copied..]);
    }

    /// [`HeldText::push`] for a block of blank lines only, without looking at its lines one by one.
    fn push_blank(&mut self, mut block: &[u8]) {
        if block.is_empty() {
            return;
        }
        if self.run & BLANK == 0 {
            let end = memchr::memchr(b'\n', block).map_or(block.len(), |i| i + 1);
            self.close();
            self.bytes.extend_from_slice(&block[..end]);
            self.run |= BLANK;
            self.meet(BLANK, 1);
            block = &block[end..];
        }
        if !block.is_empty() {
            self.elide(BLANK, line_count(block), block);
        }
    }

    fn meet(&mut self, kind: u8, lines: u64) {
        match kind {
            0 => {}
            BLANK => self.blank_met += lines,
            _ => self.comments_met += lines,
        }
    }

    /// Leaves out `lines` lines of one `kind`, written as `bytes`.
    fn elide(&mut self, kind: u8, lines: u64, bytes: &[u8]) {
        let at = self.bytes.len();
        // The loader reports the first few of each kind; one line that opens the file may be taken
        // as a header rather than skipped, hence the one more.
        let early = self.blank_met <= FIRST as u64 || self.comments_met <= FIRST as u64;
        let open = self.open.get_or_insert_with(|| Open { hole: Hole::new(at, early), written: Some(Vec::new()) });
        open.hole.add(kind, lines, bytes.len() as u64);
        match &mut open.written {
            Some(written) if open.hole.bytes <= SMALL_HOLE => written.extend_from_slice(bytes),
            written => *written = None,
        }
        self.meet(kind, lines);
    }

    /// Ends the open hole: kept as written when it is small, else as a hole.
    fn close(&mut self) {
        if let Some(open) = self.open.take() {
            match open.written {
                Some(written) => self.bytes.extend_from_slice(&written),
                None => {
                    self.in_holes += open.hole.bytes;
                    self.holes.push(open.hole);
                }
            }
        }
    }

    /// The text held so far; `whole` when no more will come.
    pub fn text(&mut self, whole: bool) -> Text<'_> {
        self.close();
        Text { bytes: &self.bytes, holes: &self.holes, size: self.bytes.len() as u64 + self.in_holes, whole }
    }

    /// Bytes held (not counting what the holes stand for).
    pub fn held_len(&self) -> usize {
        self.bytes.len() + self.open.as_ref().and_then(|o| o.written.as_ref()).map_or(0, Vec::len)
    }

    /// The held bytes and the holes among them.
    pub fn into_parts(mut self) -> (Vec<u8>, Vec<Hole>) {
        self.close();
        (self.bytes, self.holes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::io::scan::Lines;
    use crate::graph::io::{Format, parse_held_in_blocks, parse_sequentially};
    use proptest::prelude::*;

    /// Texts of every format with runs of blank and comment lines of every kind in them.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let line = prop_oneof![
            3 => "[0-9]{1,2} [0-9]{1,2}",
            2 => "[0-9]{1,2}: [0-9]{1,2} #",
            1 => "[0-9]{1,2}",
            1 => "[a-c],[a-c]",
            1 => Just("graph_for_greach".to_string()),
            1 => Just("%%MatrixMarket matrix coordinate pattern general".to_string()),
            1 => Just("# grail-explorer: 9 vertices, 1 edges".to_string()),
            1 => "[0-9] [0-9] (directed|x)",
        ];
        // Runs long enough that some pass the bytes kept as written, so that holes occur.
        let skipped = prop_oneof![
            Just(""),
            Just("  "),
            Just("\r"),
            Just("# a comment of some length"),
            Just(" % d"),
            Just("#: 1"),
            Just("%")
        ];
        let run = prop::collection::vec(skipped, 0..40).prop_map(|lines| lines.join("\n"));
        prop::collection::vec((run, line), 1..8).prop_map(|parts| {
            let lines: Vec<String> = parts.into_iter().flat_map(|(run, line)| [run, line]).collect();
            lines.join("\n").into_bytes()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn held_text_reads_as_the_whole_text(bytes in text(), block in 1usize..40) {
            for format in [None, Some(Format::Gra), Some(Format::EdgeList), Some(Format::MatrixMarket),
                           Some(Format::Weighted), Some(Format::Header), Some(Format::Named)] {
                let whole = parse_sequentially(&bytes, "t", format).map_err(|e| format!("{e:#}"));
                let held = parse_held_in_blocks(&bytes, "t", format, block).map_err(|e| format!("{e:#}"));
                prop_assert_eq!(held, whole, "{:?} {:?}", format, String::from_utf8_lossy(&bytes));
            }
        }
    }

    fn held(text: &[u8], block: usize) -> HeldText {
        let mut held = HeldText::default();
        let mut rest = text;
        while !rest.is_empty() {
            // Blocks of whole lines of about `block` bytes, as files are read.
            let start = block.min(rest.len());
            let cut = memchr::memchr(b'\n', &rest[start..]).map_or(rest.len(), |i| start + i + 1);
            let (head, tail) = rest.split_at(cut);
            held.push(head);
            rest = tail;
        }
        held
    }

    #[test]
    fn the_first_line_of_each_kind_in_a_run_is_kept() {
        let text = [&b"# a\n\n% b\n"[..], &b"# c\n\n% d\n".repeat(40), b"0 1\n# e\n"].concat();
        let mut held = held(&text, 7);
        let view = held.text(true);
        assert_eq!(view.bytes, b"# a\n\n% b\n0 1\n# e\n");
        assert_eq!(view.size, text.len() as u64);
        assert_eq!(view.holes.len(), 1);
        let hole = &view.holes[0];
        assert_eq!((hole.at, hole.lines, hole.comments, hole.sample()), (9, 120, 80, b"\n#\n%\n".to_vec()));
    }

    #[test]
    fn lines_cross_holes_as_the_lines_they_stand_for() {
        let text =
            [&b"%%MatrixMarket x\n"[..], &b"% c\n\n".repeat(1000), b"2 2 1\n", &b"\n".repeat(500), b"1 2"].concat();
        let mut held = held(&text, 64);
        let mut lines = Lines::of(held.text(true));
        let mut plain = Lines::new(&text);
        loop {
            let (a, b) = (lines.next_data(b"%"), plain.next_data(b"%"));
            assert_eq!(a.map(|l| (l.number, l.text)), b.map(|l| (l.number, l.text)));
            if a.is_none() {
                break;
            }
        }
        assert_eq!(lines.take_skipped(), plain.take_skipped());
        assert_eq!(lines.read_so_far(), plain.read_so_far());
    }

    #[test]
    fn a_short_run_is_kept_as_written() {
        let text = b"0 1\n\n\n\n1 2\n# a\n# b\n";
        let mut held = held(text, 1 << 20);
        let view = held.text(true);
        assert_eq!((view.bytes, view.holes.len()), (&text[..], 0));
    }

    #[test]
    fn many_blank_lines_cost_one_hole() {
        let text = [&b"0 1\n"[..], &vec![b'\n'; 1 << 20], b"1 2\n"].concat();
        let mut held = held(&text, 4096);
        let view = held.text(true);
        assert_eq!(view.bytes, b"0 1\n\n1 2\n");
        assert_eq!((view.holes.len(), view.holes[0].lines), (1, (1 << 20) - 1));
    }
}
