//! The body shared by the formats whose header announces the vertex and edge counts (plain header,
//! weighted, Matrix Market): `src dst [weight columns]` lines on ids `base..base + n`, exactly as
//! many as announced. Reachability reads `src dst` alone ([`CountedBody::read_graph`]) and notes
//! lines with more fields than the format's columns; the weighted commands also read the weight
//! column and refuse such lines ([`CountedBody::for_each_line`], from `weights.rs`).

use super::scan::{Ctx, Lines, Tokens};
use crate::Result;
use crate::graph::Graph;
use crate::graph::load_report::{Reading, graph_noting_repeats};

/// What the header announced, and how to read the body.
pub struct CountedBody<'h> {
    pub n: usize,
    pub count: u64,
    /// 0 for 0-based ids, 1 for Matrix Market.
    pub base: u64,
    /// Undirected or symmetric: each line adds both directions.
    pub both_directions: bool,
    /// Bytes that start a comment line (blank and comment lines are skipped anywhere).
    pub comment_markers: &'h [u8],
    /// What one line and several lines are called in messages (`("edge", "edges")`).
    pub noun: (&'h str, &'h str),
    /// The header's line, so a count mismatch can point back at it.
    pub header_line: usize,
    /// What the column after `src dst` holds: only the weighted commands read it.
    pub weights: WeightColumn,
    /// The line that says what the weight column holds (the banner of a Matrix Market file).
    pub weights_line: usize,
    /// The weights are whole numbers (an `integer` Matrix Market matrix).
    pub whole_weights: bool,
}

/// What a counted format's third column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightColumn {
    /// No weights: a plain header file, a Matrix Market `pattern`.
    Absent,
    /// One number per line, the same both ways on a mirrored line (weighted files, Matrix Market
    /// `real`, `double` and `integer` matrices that are general, symmetric or hermitian).
    Value,
    /// One number, the mirrored entry's being its negation (a `skew-symmetric` Matrix Market matrix).
    Negated,
    /// Two numbers per line (a `complex` Matrix Market matrix): not a weight.
    Complex,
}

impl CountedBody<'static> {
    /// The body of the formats with an `n m ...` header and `src dst` lines on 0-based ids, `#` and
    /// `%` comments (plain header, weighted).
    pub fn edges(n: usize, count: u64, both_directions: bool, header_line: usize) -> Self {
        CountedBody {
            n,
            count,
            base: 0,
            both_directions,
            comment_markers: b"#%",
            noun: ("edge", "edges"),
            header_line,
            weights: WeightColumn::Absent,
            weights_line: header_line,
            whole_weights: false,
        }
    }

    /// The same body, its third column holding `weights`.
    pub fn with_weights(self, weights: WeightColumn) -> Self {
        CountedBody { weights, ..self }
    }
}

impl CountedBody<'_> {
    /// The columns a line holds after `src dst`: its weight's numbers.
    pub fn columns_after_ids(&self) -> usize {
        match self.weights {
            WeightColumn::Absent => 0,
            WeightColumn::Value | WeightColumn::Negated => 1,
            WeightColumn::Complex => 2,
        }
    }

    /// `1 edge`, `2 edges`.
    fn lines(&self, count: u64) -> String {
        crate::format::plural(count, self.noun.0, self.noun.1)
    }

    /// Reads the rest of `lines` into the graph, with the reader's notes.
    pub fn read_graph(&self, lines: &mut Lines, ctx: Ctx) -> Result<(Graph, Reading)> {
        let mut reading = Reading { declared: Some(self.n as u64), ..Reading::default() };
        let edges = self.read(lines, ctx, &mut reading)?;
        let per_line = if self.both_directions { 2 } else { 1 };
        reading.lines = lines.read_so_far();
        reading.skipped = lines.take_skipped();
        reading.data_lines = self.count;
        reading.nonloop_pairs = (self.count - reading.self_loops.count) * per_line;
        let graph = graph_noting_repeats(self.n, &edges, &mut reading, per_line, self.header_line as u64 + 1)?;
        Ok((graph, reading))
    }

    /// Reads the rest of `lines` into dense edges.
    fn read(&self, lines: &mut Lines, ctx: Ctx, reading: &mut Reading) -> Result<Vec<(u32, u32)>> {
        let per_line = if self.both_directions { 2 } else { 1 };
        // The announced count is only a hint for the allocation: a lying header must not make us
        // reserve gigabytes before the body proves it.
        let mut edges = Vec::with_capacity((self.count as usize).min(1 << 24) * per_line);
        let columns_after_ids = self.columns_after_ids();
        self.for_each_line(lines, ctx, |number, src, dst, mut rest| {
            // Reachability reads no weight; what lies beyond the format's columns is reported.
            if rest.nth(columns_after_ids).is_some() {
                reading.extra_field_lines.note(number as u64);
            }
            if src == dst {
                reading.self_loop(number as u64, u64::from(src) + self.base);
            }
            edges.push((src, dst));
            if self.both_directions {
                edges.push((dst, src));
            }
            Ok(())
        })?;
        Ok(edges)
    }

    /// Calls `each(line number, src, dst, the line's remaining tokens)` on every data line of the
    /// body (dense ids), checking the ids and that there are exactly as many lines as announced.
    pub fn for_each_line<'a>(
        &self,
        lines: &mut Lines<'a>,
        ctx: Ctx,
        mut each: impl FnMut(usize, u32, u32, Tokens<'a>) -> Result<()>,
    ) -> Result<()> {
        let mut seen = 0u64;
        while let Some(line) = lines.next_data(self.comment_markers) {
            if seen == self.count {
                let found = format!("found more {} than the {} announced", self.noun.1, self.count);
                return Err(ctx.err(
                    line.number,
                    found,
                    format!("{} (header on line {})", self.lines(self.count), self.header_line),
                ));
            }
            let mut tokens = line.tokens();
            let src = ctx.vertex(line.number, tokens.next(), self.base, self.n)?;
            let dst = ctx.vertex(line.number, tokens.next(), self.base, self.n)?;
            each(line.number, src, dst, tokens)?;
            seen += 1;
        }
        if seen != self.count {
            let found = format!("found only {} before the file ends here", self.lines(seen));
            return Err(ctx.err(
                lines.last_line(),
                found,
                format!("{} (header on line {})", self.count, self.header_line),
            ));
        }
        Ok(())
    }
}
