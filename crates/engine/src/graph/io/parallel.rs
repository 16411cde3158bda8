//! Parallel reading: the file's head (format, header) read on one thread, its body cut into blocks
//! of whole lines and parsed on every core ([`chunk_parse`]), the blocks' results assembled into a
//! graph in file order.
//!
//! A file is read by one producer thread in blocks of about [`BLOCK`] bytes (gunzipping on the way
//! when it is gzip), so inflating overlaps parsing and memory holds a few blocks, never the text.
//! Anything doubtful (a chunk that does not parse, chunks that do not fit together, a read error)
//! returns `None`: the caller then runs the format's sequential reader, which words the error
//! exactly (file and absolute line) or, if the doubt was unfounded, reads the graph itself.

use super::ReadText;
use super::chunk_parse::{self, CountedSpec, GraChunk, Notes, PairsChunk};
use super::held_text::{HeldText, Hole, Text};
use super::numbering::{self, Numbering};
use super::scan::{Ctx, Lines, vertex_limit};
use super::sniff::sniff_prefix;
use super::{Format, counted_body::CountedBody, edge_list, gra, header, matrix_market, weighted};
use crate::graph::load_report::{LoadReport, Reading};
use crate::graph::skipped_lines::SkippedLines;
use crate::graph::{Csr, Graph, VertexNames};
use rayon::prelude::*;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Mutex, PoisonError};

/// Bytes per block: big enough that a block's bookkeeping is noise, small enough that inflating
/// and parsing overlap early and every core gets many blocks.
pub const BLOCK: usize = 1 << 20;

/// What the head of the file said the body is.
#[derive(Clone, Copy, Debug)]
enum Plan {
    Gra { n: u64 },
    Counted { spec: CountedSpec, count: u64, names: Option<u64> },
    EdgeList { declared: Option<u64> },
}

/// One block's parse.
enum Parsed {
    Gra(GraChunk),
    Pairs(PairsChunk),
}

/// What reading the head of a file gave.
enum Head {
    /// The prefix ends before the format or the header is known.
    NeedMore,
    /// The head is wrong: the sequential reader will say how.
    Fail,
    Ready {
        format: Format,
        plan: Plan,
        body_start: usize,
        head: Box<HeadNotes>,
    },
}

/// The head's lines: how many, and which were blank or comments.
#[derive(Debug, Default)]
struct HeadNotes {
    lines: u64,
    skipped: SkippedLines,
}

/// Reads the format and the header from `prefix` (whole lines, held without most of its blank and
/// comment lines).
fn head(prefix: Text, asked: Option<Format>) -> Head {
    let whole = prefix.whole;
    let Some(format) = asked.or_else(|| sniff_prefix(prefix)) else {
        return Head::NeedMore;
    };
    // Messages are never shown from here (the sequential reader words them), so no file name.
    let ctx = Ctx { source: "" };
    let mut lines = Lines::of(prefix);
    let counted = |body: CountedBody<'static>, names| Plan::Counted {
        spec: CountedSpec {
            n: body.n as u64,
            base: body.base,
            both_directions: body.both_directions,
            comment_markers: body.comment_markers,
            columns_after_ids: body.columns_after_ids(),
        },
        count: body.count,
        names,
    };
    let plan = match format {
        Format::Gra => gra::read_vertex_count(&mut lines, ctx).map(|n| Plan::Gra { n: n as u64 }),
        Format::MatrixMarket => matrix_market::read_header(&mut lines, ctx).map(|b| counted(b, Some(1))),
        Format::Weighted => weighted::read_header(&mut lines, ctx).map(|b| counted(b, None)),
        Format::Header => header::read_header(&mut lines, ctx).map(|b| counted(b, None)),
        // Named edge lists are read by their own (sequential) reader.
        Format::Grail | Format::Named => return Head::Fail,
        Format::EdgeList => {
            if !whole && prefix.bytes.iter().all(u8::is_ascii_whitespace) {
                return Head::NeedMore;
            }
            Ok(Plan::EdgeList { declared: edge_list::declared_vertex_count(prefix) })
        }
    };
    match plan {
        Ok(plan) => Head::Ready {
            format,
            plan,
            body_start: lines.position(),
            head: Box::new(HeadNotes { lines: lines.read_so_far(), skipped: lines.take_skipped() }),
        },
        Err(_) if whole => Head::Fail,
        Err(_) => Head::NeedMore,
    }
}

fn parse_block(plan: Plan, bytes: &[u8]) -> Option<Parsed> {
    match plan {
        Plan::Gra { n } => chunk_parse::gra(bytes, n).map(Parsed::Gra),
        Plan::Counted { spec, .. } => chunk_parse::counted(bytes, spec).map(Parsed::Pairs),
        Plan::EdgeList { .. } => chunk_parse::edge_list(bytes).map(Parsed::Pairs),
    }
}

/// Parses in-memory text; `None` when the sequential reader must have its say.
pub fn parse(bytes: &[u8], asked: Option<Format>) -> Option<ReadText> {
    parse_in_blocks(bytes, asked, BLOCK)
}

/// [`parse`] with blocks of about `block` bytes (tests cut tiny texts into many blocks).
fn parse_in_blocks(bytes: &[u8], asked: Option<Format>, block: usize) -> Option<ReadText> {
    let Head::Ready { format, plan, body_start, head } = head(Text::whole(bytes), asked) else {
        return None;
    };
    let parsed: Vec<Parsed> = line_blocks(&bytes[body_start..], block)
        .into_par_iter()
        .map(|b| parse_block(plan, b))
        .collect::<Option<_>>()?;
    if declares_too_many(plan, bytes.len() as u64) {
        return None;
    }
    let (graph, names, report) = assemble(plan, parsed, *head)?;
    Some((graph, names, format, report))
}

/// Whether the head declares more vertices than a text of `text_bytes` may ([`vertex_limit`]): the
/// sequential reader then refuses it, naming the line, before anything is allocated for them.
fn declares_too_many(plan: Plan, text_bytes: u64) -> bool {
    let declared = match plan {
        Plan::Gra { .. } => None,
        Plan::Counted { spec, .. } => Some(spec.n),
        Plan::EdgeList { declared } => declared,
    };
    declared.is_some_and(|n| n > vertex_limit(text_bytes))
}

/// Cuts text into blocks of whole lines of about `block` bytes.
fn line_blocks(mut text: &[u8], block: usize) -> Vec<&[u8]> {
    let mut blocks = Vec::with_capacity(text.len() / block + 1);
    while text.len() > block {
        let cut = memchr::memchr(b'\n', &text[block..]).map_or(text.len(), |i| block + i + 1);
        let (block, rest) = text.split_at(cut);
        blocks.push(block);
        text = rest;
    }
    blocks.push(text);
    blocks
}

/// Parses a stream (a file, or a gunzipping reader over one) while it is read: one producer thread
/// reads blocks, every thread of the rayon pool's size parses them. `None` on any doubt or read
/// error (the caller re-reads the file sequentially, which words the problem).
pub fn parse_stream(source: Box<dyn Read + Send + '_>, asked: Option<Format>) -> Option<ReadText> {
    parse_stream_in_blocks(source, asked, BLOCK)
}

/// [`parse_stream`] in blocks of about `block` bytes (tests and fuzz targets cut small texts into
/// many blocks, so that blocks of blank lines occur).
pub fn parse_stream_in_blocks(
    source: Box<dyn Read + Send + '_>,
    asked: Option<Format>,
    block: usize,
) -> Option<ReadText> {
    let threads = rayon::current_num_threads().max(1);
    std::thread::scope(|scope| {
        let (full_tx, full_rx) = sync_channel::<io::Result<Vec<u8>>>(2 * threads);
        let (free_tx, free_rx) = channel::<Vec<u8>>();
        scope.spawn(move || produce(source, full_tx, free_rx, block));
        // The blank and comment lines met before the head is known are held as counts where they
        // run, so that a file opening with (or holding, before its format is known) gigabytes of
        // them costs no memory for them.
        let mut prefix = HeldText::default();
        let mut whole = false;
        // The head is read again from the start when it needed more; waiting until the held prefix
        // has doubled keeps that linear in the file's size.
        let mut next_try = 0;
        let (format, plan, body_start, head_notes) = loop {
            match full_rx.recv() {
                Ok(Ok(block)) => {
                    prefix.push(&block);
                    let _ = free_tx.send(block);
                }
                Ok(Err(_)) => return None,
                Err(_) => whole = true,
            }
            // A head that needs more than a few blocks is one whose format is only known by counting
            // every line (a header file): wait for the end rather than count again and again.
            let held = prefix.held_len();
            if !whole && (held < next_try || held > 8 * block) {
                continue;
            }
            next_try = 2 * held;
            match head(prefix.text(whole), asked) {
                Head::Ready { format, plan, body_start, head } => break (format, plan, body_start, *head),
                Head::NeedMore if !whole => continue,
                Head::NeedMore | Head::Fail => return None,
            }
        };
        let (mut held, holes) = prefix.into_parts();
        let (head_holes, body_holes): (Vec<Hole>, Vec<Hole>) = holes.into_iter().partition(|h| h.at < body_start);
        let head_bytes = body_start as u64 + head_holes.iter().map(|h| h.bytes).sum::<u64>();
        let body = held.split_off(body_start);
        drop(held);
        let first = pieces(
            &body,
            body_holes.into_iter().map(|mut h| {
                h.at -= body_start;
                h
            }),
            block,
        );
        drop(body);
        let feed = Mutex::new(Feed { first, blocks: Some(full_rx), next: 0 });
        let results = Mutex::new(Vec::new());
        let failed = AtomicBool::new(false);
        let text_bytes = AtomicU64::new(head_bytes);
        let work = || {
            while !failed.load(Relaxed) {
                let Some((index, block)) = feed.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                    return;
                };
                let parsed = match block {
                    Ok(Piece::Text(block)) => parse_block(plan, &block).inspect(|_| {
                        text_bytes.fetch_add(block.len() as u64, Relaxed);
                        let _ = free_tx.send(block);
                    }),
                    Ok(Piece::Elided(hole)) => {
                        text_bytes.fetch_add(hole.bytes, Relaxed);
                        elided_chunk(plan, &hole)
                    }
                    Err(_) => None,
                };
                match parsed {
                    Some(parsed) => results.lock().unwrap_or_else(PoisonError::into_inner).push((index, parsed)),
                    None => {
                        failed.store(true, Relaxed);
                        // Hanging up stops the producer.
                        feed.lock().unwrap_or_else(PoisonError::into_inner).blocks = None;
                    }
                }
            }
        };
        std::thread::scope(|workers| {
            for _ in 1..threads {
                workers.spawn(work);
            }
            work();
        });
        if failed.load(Relaxed) || declares_too_many(plan, text_bytes.into_inner()) {
            return None;
        }
        let mut results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
        results.sort_unstable_by_key(|&(index, _)| index);
        let (graph, names, report) = assemble(plan, results.into_iter().map(|(_, p)| p).collect(), head_notes)?;
        Some((graph, names, format, report))
    })
}

/// A part of the body to parse: text, or blank and comment lines held as counts.
enum Piece {
    Text(Vec<u8>),
    Elided(Hole),
}

/// The body read with the head, cut into blocks of whole lines, with its holes in place.
fn pieces(body: &[u8], holes: impl Iterator<Item = Hole>, size: usize) -> std::collections::VecDeque<Piece> {
    // When sniffing needed many lines (a header file is only known by counting all of them), the
    // head's text is cut up again so every thread gets some.
    fn text(part: &[u8], size: usize, out: &mut std::collections::VecDeque<Piece>) {
        for block in line_blocks(part, size) {
            if !block.is_empty() {
                out.push_back(Piece::Text(block.to_vec()));
            }
        }
    }
    let mut out = std::collections::VecDeque::new();
    let mut from = 0;
    for hole in holes {
        text(&body[from..hole.at], size, &mut out);
        from = hole.at;
        out.push_back(Piece::Elided(hole));
    }
    text(&body[from..], size, &mut out);
    out
}

/// The parse of a hole's lines, as a block of them would give: a block of one line of each of its
/// kinds says whether the format skips them here.
fn elided_chunk(plan: Plan, hole: &Hole) -> Option<Parsed> {
    let mut parsed = parse_block(plan, &hole.sample())?;
    let notes = match &mut parsed {
        Parsed::Gra(chunk) => &mut chunk.notes,
        Parsed::Pairs(chunk) => &mut chunk.notes,
    };
    notes.lines = hole.lines;
    notes.skipped = SkippedLines::default();
    hole.note_in(&mut notes.skipped, 0);
    Some(parsed)
}

/// Where workers take their next block: the rest of the head's block first, then the producer's.
struct Feed {
    first: std::collections::VecDeque<Piece>,
    blocks: Option<Receiver<io::Result<Vec<u8>>>>,
    next: usize,
}

impl Feed {
    /// The next block with its index in file order; None at the end (or after a hang-up).
    fn take(&mut self) -> Option<(usize, io::Result<Piece>)> {
        let block = match self.first.pop_front() {
            Some(first) => Ok(first),
            None => self.blocks.as_ref()?.recv().ok()?.map(Piece::Text),
        };
        self.next += 1;
        Some((self.next - 1, block))
    }
}

/// Reads `source` into blocks that end at a line end (a line longer than a block makes a longer
/// block), reusing the buffers the workers hand back.
fn produce(
    mut source: Box<dyn Read + Send + '_>,
    full: SyncSender<io::Result<Vec<u8>>>,
    free: Receiver<Vec<u8>>,
    size: usize,
) {
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let mut block = free.try_recv().unwrap_or_default();
        block.clear();
        block.append(&mut carry);
        let end = loop {
            match fill(&mut source, &mut block, size) {
                Err(e) => {
                    let _ = full.send(Err(e));
                    return;
                }
                Ok(true) => break None,
                Ok(false) => {
                    if let Some(last) = memchr::memrchr(b'\n', &block) {
                        break Some(last + 1);
                    }
                }
            }
        };
        if let Some(cut) = end {
            carry.extend_from_slice(&block[cut..]);
            block.truncate(cut);
        }
        if !block.is_empty() && full.send(Ok(block)).is_err() {
            return;
        }
        if end.is_none() {
            return;
        }
    }
}

/// Appends up to `want` bytes; returns whether the source ended.
fn fill(source: &mut dyn Read, block: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let start = block.len();
    block.resize(start + want, 0);
    let mut filled = start;
    while filled < start + want {
        match source.read(&mut block[filled..]) {
            Ok(0) => {
                block.truncate(filled);
                return Ok(true);
            }
            Ok(k) => filled += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// Puts the blocks together (checking what no block could check alone), with the loader's report.
fn assemble(plan: Plan, parsed: Vec<Parsed>, head: HeadNotes) -> Option<(Graph, VertexNames, LoadReport)> {
    let (graph, names, reading) = match plan {
        Plan::Gra { n } => {
            let chunks = parsed.into_iter().map(|p| if let Parsed::Gra(c) = p { Some(c) } else { None });
            let mut chunks: Vec<GraChunk> = chunks.collect::<Option<_>>()?;
            let mut reading = read_notes(head, chunks.iter_mut().map(|c| &mut c.notes));
            reading.declared = Some(n);
            reading.data_lines = n;
            (assemble_gra(n, chunks)?, VertexNames::Dense, reading)
        }
        Plan::Counted { spec, count, names } => {
            let mut chunks = pairs(parsed)?;
            if chunks.iter().map(|c| c.lines).sum::<u64>() != count {
                return None;
            }
            let body_start = head.lines + 1;
            let mut reading = read_notes(head, chunks.iter_mut().map(|c| &mut c.notes));
            let per_line = if spec.both_directions { 2 } else { 1 };
            reading.declared = Some(spec.n);
            reading.data_lines = count;
            reading.nonloop_pairs = (count - reading.self_loops.count) * per_line;
            let graph = graph_of_pairs(spec.n as usize, chunks, &mut reading, per_line, body_start)?;
            (graph, names.map_or(VertexNames::Dense, VertexNames::Offset), reading)
        }
        Plan::EdgeList { declared } => assemble_edge_list(declared, pairs(parsed)?, head)?,
    };
    let report = LoadReport::finish(reading, &graph, &names);
    Some((graph, names, report))
}

/// The chunks' notes in file order, their lines made absolute (the body starts after the head).
fn read_notes<'a>(head: HeadNotes, notes: impl Iterator<Item = &'a mut Notes>) -> Reading {
    let mut reading = Reading { skipped: head.skipped, ..Reading::default() };
    let mut start = head.lines + 1;
    for notes in notes {
        reading.skipped.append_shifted(&notes.skipped, start);
        for &line in &notes.first_loops {
            reading.self_loops.note(start + u64::from(line));
        }
        reading.self_loops.count += notes.loops - notes.first_loops.len() as u64;
        reading.loop_vertices.append(&mut notes.loop_vertices);
        for &line in &notes.first_duplicates {
            reading.duplicates.note(start + u64::from(line));
        }
        reading.duplicates.count += notes.duplicates - notes.first_duplicates.len() as u64;
        reading.nonloop_pairs += notes.nonloop_pairs;
        for &line in &notes.first_extra_fields {
            reading.extra_field_lines.note(start + u64::from(line));
        }
        reading.extra_field_lines.count += notes.extra_fields - notes.first_extra_fields.len() as u64;
        start += notes.lines;
    }
    reading.lines = start - 1;
    reading
}

fn pairs(parsed: Vec<Parsed>) -> Option<Vec<PairsChunk>> {
    parsed.into_iter().map(|p| if let Parsed::Pairs(c) = p { Some(c) } else { None }).collect()
}

/// `.gra`: the vertex lines of consecutive chunks must continue each other and number exactly n;
/// the children lists are already clean, so the CSR is their concatenation.
fn assemble_gra(n: u64, chunks: Vec<GraChunk>) -> Option<Graph> {
    let (mut next, mut ended) = (0u64, false);
    for c in &chunks {
        if c.vertices > 0 {
            if ended || c.first != Some(next) {
                return None;
            }
            next += c.vertices;
        }
        if c.tail {
            ended = true;
            if next != n {
                return None;
            }
        }
    }
    if next != n {
        return None;
    }
    let mut offsets = Vec::with_capacity(n as usize + 1);
    offsets.push(0u64);
    let mut sum = 0u64;
    for d in chunks.iter().flat_map(|c| &c.degrees) {
        sum += u64::from(*d);
        offsets.push(sum);
    }
    let mut targets = vec![0u32; sum as usize];
    let mut pieces = Vec::with_capacity(chunks.len());
    let mut rest = &mut targets[..];
    for c in chunks {
        let (head, tail) = rest.split_at_mut(c.targets.len());
        pieces.push((head, c.targets));
        rest = tail;
    }
    pieces.into_par_iter().for_each(|(to, from)| to.copy_from_slice(&from));
    crate::system::return_freed_memory();
    Some(Graph::from_clean_children(Csr::from_trusted(offsets, targets)))
}

/// The graph of the chunks' narrow pairs: children first, then the first repeated pairs are located
/// (only when some pair was merged), then the pairs are freed (and handed back to the OS) before the
/// parents are built, so pairs and parents never coexist.
fn graph_of_pairs(
    n: usize,
    chunks: Vec<PairsChunk>,
    reading: &mut Reading,
    per_line: u64,
    body_start: u64,
) -> Option<Graph> {
    let slices: Vec<&[(u32, u32)]> = chunks.iter().map(|c| &c.narrow[..]).collect();
    let (children, shrunk) = Csr::children_of_edges_noting_repeats(n, &slices).ok()?;
    reading.locate_repeats(&children, &shrunk, slices.iter().copied(), per_line, body_start);
    drop(slices);
    drop(chunks);
    crate::system::return_freed_memory();
    Some(Graph::from_clean_children(children))
}

/// Edge lists: the numbering rule over all chunks, then the CSR from the chunks' pairs.
fn assemble_edge_list(
    declared: Option<u64>,
    mut chunks: Vec<PairsChunk>,
    head: HeadNotes,
) -> Option<(Graph, VertexNames, Reading)> {
    let pairs: u64 = chunks.iter().map(|c| c.lines).sum();
    if pairs == 0 {
        return None;
    }
    let body_start = head.lines + 1;
    let mut reading = read_notes(head, chunks.iter_mut().map(|c| &mut c.notes));
    reading.data_lines = pairs;
    reading.nonloop_pairs = pairs - reading.self_loops.count;
    let max = chunks.iter().map(|c| c.max_id).max().unwrap_or(0);
    match numbering::choose_by(max, pairs as usize, declared, |span| count_distinct(&chunks, span)) {
        Numbering::Dense(n) => {
            reading.declared = declared.filter(|&d| d == n as u64);
            // Dense ids are below n <= u32::MAX, so every chunk kept its narrow pairs.
            Some((graph_of_pairs(n, chunks, &mut reading, 1, body_start)?, VertexNames::Dense, reading))
        }
        Numbering::Remapped => {
            // First appearance is a sequential notion: renumber in file order.
            let all: Vec<(u64, u64)> = chunks
                .iter()
                .flat_map(|c| c.narrow.iter().map(|&(s, d)| (u64::from(s), u64::from(d))).chain(c.wide.iter().copied()))
                .collect();
            drop(chunks);
            let renumbered = numbering::remap(&all, u64::from(u32::MAX)).ok()?;
            drop(all);
            let edges = [&renumbered.edges[..]];
            let (children, shrunk) = Csr::children_of_edges_noting_repeats(renumbered.n, &edges).ok()?;
            reading.locate_repeats(&children, &shrunk, edges, 1, body_start);
            Some((Graph::from_clean_children(children), renumbered.names, reading))
        }
    }
}

/// Distinct ids below `span` over all chunks (a shared bitmap, filled in parallel).
fn count_distinct(chunks: &[PairsChunk], span: usize) -> usize {
    let seen: Vec<AtomicU64> = (0..span.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mark = |id: u64| {
        if let Some(word) = seen.get((id / 64) as usize) {
            word.fetch_or(1 << (id % 64), Relaxed);
        }
    };
    chunks.par_iter().for_each(|c| {
        for &(s, d) in &c.narrow {
            mark(u64::from(s));
            mark(u64::from(d));
        }
        for &(s, d) in &c.wide {
            mark(s);
            mark(d);
        }
    });
    seen.iter().map(|w| w.load(Relaxed).count_ones() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Text made of what the readers care about, in lines of every format.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let token = prop_oneof![
            4 => "[0-9]{1,2}",
            1 => Just("4294967296".to_string()),
            1 => "[:#% \t\r]",
            1 => Just("x".to_string()),
        ];
        let line = prop::collection::vec(token, 0..5).prop_map(|t| t.join(" "));
        let head = prop_oneof![
            Just(String::new()),
            Just("graph_for_greach\n".to_string()),
            "[0-9]{1,2}\n",
            "[0-9]{1,2} [0-9]{1,2}\n",
            "[0-9]{1,2} [0-9]{1,2} (directed|undirected)\n",
            Just("%%MatrixMarket matrix coordinate pattern general\n".to_string()),
        ];
        (head, prop::collection::vec(line, 0..30)).prop_map(|(h, lines)| (h + &lines.join("\n")).into_bytes())
    }

    /// `.gra` text that is mostly valid, so that the parallel path gets past its first line often.
    fn gra_text() -> impl Strategy<Value = Vec<u8>> {
        (1usize..40, prop::collection::vec(prop::collection::vec(0u32..45, 0..6), 0..45), any::<bool>()).prop_map(
            |(n, lists, trailing_blank)| {
                let mut t = format!("graph_for_greach\n{n}\n");
                for (u, list) in lists.iter().enumerate().take(n + 1) {
                    let l: Vec<String> = list.iter().map(u32::to_string).collect();
                    t += &format!("{u}: {} #\n", l.join(" "));
                }
                if trailing_blank {
                    t += "\n  \n";
                }
                t.into_bytes()
            },
        )
    }

    fn same_as_sequential(bytes: &[u8], block: usize) -> Result<(), TestCaseError> {
        for format in [
            None,
            Some(Format::Gra),
            Some(Format::EdgeList),
            Some(Format::MatrixMarket),
            Some(Format::Weighted),
            Some(Format::Header),
        ] {
            let sequential = super::super::parse_sequentially(bytes, "t", format).ok();
            if let Some(parallel) = parse_in_blocks(bytes, format, block) {
                // What the parallel path accepts, the reference accepts, as the same graph.
                prop_assert_eq!(
                    Some(&parallel),
                    sequential.as_ref(),
                    "{:?} {:?}",
                    format,
                    String::from_utf8_lossy(bytes)
                );
            }
        }
        Ok(())
    }

    /// Text with runs of blank and comment lines between, before and after its lines, so that
    /// small blocks are often all blank, and the head is often held with holes in it.
    fn blank_text() -> impl Strategy<Value = Vec<u8>> {
        let line =
            prop_oneof![Just("\n"), Just(" \n"), Just("\r\n"), Just("# a comment of some length\n"), Just("%\n")];
        let blanks = prop::collection::vec(line, 0..30).prop_map(|b| b.concat());
        (prop_oneof![text(), gra_text()], prop::collection::vec(blanks, 1..8)).prop_map(|(text, blanks)| {
            let text = String::from_utf8(text).unwrap();
            let mut lines = text.split_inclusive('\n');
            let mut out = String::new();
            for run in &blanks {
                out += run;
                out.extend(lines.by_ref().take(3));
            }
            out.extend(lines);
            out.into_bytes()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn streaming_in_small_blocks_reads_blank_lines_as_the_sequential_readers(bytes in blank_text(), block in 1usize..24) {
            for format in [None, Some(Format::Gra), Some(Format::EdgeList), Some(Format::Header), Some(Format::MatrixMarket)] {
                if let Some(streamed) = parse_stream_in_blocks(Box::new(&bytes[..]), format, block) {
                    let sequential = super::super::parse_sequentially(&bytes, "t", format).ok();
                    prop_assert_eq!(Some(&streamed), sequential.as_ref(), "{:?} {:?}", format, String::from_utf8_lossy(&bytes));
                }
            }
        }

        #[test]
        fn parallel_parsing_accepts_only_what_the_sequential_readers_accept(bytes in text(), block in 1usize..40) {
            same_as_sequential(&bytes, block)?;
        }

        #[test]
        fn parallel_gra_parsing_agrees_across_block_sizes(bytes in gra_text(), block in 1usize..60) {
            same_as_sequential(&bytes, block)?;
            let whole = super::super::parse_sequentially(&bytes, "t", None).ok();
            if whole.is_some() {
                prop_assert!(parse_in_blocks(&bytes, None, block).is_some(), "a valid file must not need the fallback");
            }
        }
    }

    #[test]
    fn line_blocks_cut_after_newlines_only() {
        let text: Vec<u8> = (0..300_000u32).flat_map(|i| format!("{i} {}\n", i + 1).into_bytes()).collect();
        let blocks = line_blocks(&text, BLOCK);
        assert!(blocks.len() > 1);
        assert_eq!(blocks.concat(), text);
        assert!(blocks.iter().all(|b| b.ends_with(b"\n")));
    }

    #[test]
    fn a_stream_reads_as_the_same_graph_as_memory() {
        let text: Vec<u8> = (0..200_000u32).flat_map(|i| format!("{i} {}\n", (i * 7) % 200_000).into_bytes()).collect();
        let in_memory = parse(&text, None).unwrap();
        let streamed = parse_stream(Box::new(&text[..]), None).unwrap();
        assert_eq!(in_memory.0, streamed.0);
        assert_eq!((in_memory.1, in_memory.2, in_memory.3), (streamed.1, streamed.2, streamed.3));
    }
}
