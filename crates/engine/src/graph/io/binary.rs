//! `.grail` binary graph files: the graph as read and its condensation, laid out so that opening
//! one is a memory map and a few checks, never a parse. The layout is in `docs/FORMATS.md`.
//!
//! Version 3, every integer little-endian, every section starting at a multiple of 8:
//! ```text
//! offset  size      field
//!      0     8      magic "GRAILGRF"
//!      8     4      format version (3; versions 1 and 2, the same without weights, and version 1
//!                   without names, still open)
//!     12     4      flags: bit 0 = the graph is a DAG (its condensation is itself: no DAG sections);
//!                   bit 1 = edge weights follow the checksum (version 3 only)
//!     16     8      n: vertices of the graph
//!     24     8      m: edges of the graph
//!     32     8      c: components (= n for a DAG)
//!     40     8      d: edges between components (= m for a DAG)
//!     48     4      vertex names: 0 dense, 1 offset (base below), 2 remapped (an id per vertex),
//!                   3 named (a string per vertex; version 2 only)
//!     52     4      reserved (0)
//!     56     8      base of the offset names; for named vertices the bytes of their names; else 0
//!     64            children offsets 8(n+1), children targets 4m, parents offsets 8(n+1),
//!                   parents targets 4m; unless a DAG: component of each vertex 4n, DAG children
//!                   offsets 8(c+1), targets 4d, DAG parents offsets 8(c+1), targets 4d; levels of
//!                   the DAG 4c; if remapped: the file id of each vertex 8n; if named: where each
//!                   vertex's name ends 8n, then the names' UTF-8 text, one after another
//!            8      checksum (below) of everything before it
//!           8m      if weighted: the weight of each edge (`f64`), in the children targets' order
//!            8      if weighted: the checksum of the weights
//! ```
//! Each section is padded with zeros to a multiple of 8 bytes. The header fixes the file's exact
//! length, so a truncated or padded file is refused before anything is mapped as an array.
//!
//! The weights come after the graph's checksum so that opening the graph (every reachability
//! command) maps, checks and hashes the graph's bytes only: the weights are read, and their own
//! checksum verified, by `super::binary_weights` when a weighted command asks for them.
//!
//! The checksum is XXH3-64 over the XXH3-64 digests (8 bytes little-endian each) of the
//! [`CHECKSUM_BLOCK`]-byte blocks of everything before it: the same strength as one XXH3 over the
//! bytes, but the blocks are hashed on every core. It is verified on every open (at memory speed,
//! a small part of the time a text parse takes), and the arrays are checked for what could make a
//! lookup go out of bounds (offsets, ids, components, levels that prove the DAG acyclic: they become
//! the DAG's Kahn levels, which labeling would otherwise find again), so a
//! corrupt file is explained, never trusted.

use super::Format;
use crate::error::IoContext;
use crate::graph::name_table::NameTable;
use crate::graph::scc::Condensation;
use crate::graph::slab::Slab;
use crate::graph::topo::{self, AdoptError};
use crate::graph::{Csr, Graph, LoadedGraph, VertexNames};
use crate::{Error, Result};
use memmap2::{Mmap, MmapOptions};
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::sync::Arc;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// The first eight bytes of every `.grail` graph file.
pub const MAGIC: &[u8; 8] = b"GRAILGRF";
/// The format version this build writes (it also reads every version from [`OLDEST_VERSION`]).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this build reads: version 2 is version 3 without weights, version 1
/// is version 2 without named vertices.
pub const OLDEST_VERSION: u32 = 1;
/// The first version whose files may hold edge weights.
const WEIGHTS_VERSION: u32 = 3;
/// Bytes per checksum block.
pub const CHECKSUM_BLOCK: usize = 1 << 22;
/// Bytes of the header.
pub(super) const HEADER_BYTES: u64 = 64;
const CHECKSUM_BYTES: u64 = 8;
const FLAG_DAG: u32 = 1;
const FLAG_WEIGHTS: u32 = 2;
const NAMES_DENSE: u32 = 0;
const NAMES_OFFSET: u32 = 1;
const NAMES_REMAPPED: u32 = 2;
const NAMES_NAMED: u32 = 3;

/// Whether the file at `path` is a regular file that starts with the `.grail` magic bytes (false
/// when it cannot be read or is not a regular file: the text readers then say why).
pub fn is_binary(path: &Path) -> bool {
    let mut start = [0u8; 8];
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && File::open(path).and_then(|mut f| f.read_exact(&mut start)).is_ok()
        && &start == MAGIC
}

/// The numbers in a header.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    version: u32,
    flags: u32,
    n: u64,
    m: u64,
    c: u64,
    d: u64,
    names: u32,
    base: u64,
}

impl Header {
    fn is_dag(&self) -> bool {
        self.flags & FLAG_DAG != 0
    }

    /// Whether the file holds a weight per edge after the graph's checksum.
    pub(super) fn has_weights(&self) -> bool {
        self.flags & FLAG_WEIGHTS != 0
    }

    /// Edges of the graph (one weight each in a weighted file).
    pub(super) fn edges(&self) -> u64 {
        self.m
    }

    /// The sections in file order: (name, element size, count).
    fn sections(&self) -> Vec<(&'static str, u64, u64)> {
        let mut s = vec![
            ("children offsets", 8, self.n + 1),
            ("children targets", 4, self.m),
            ("parents offsets", 8, self.n + 1),
            ("parents targets", 4, self.m),
        ];
        if !self.is_dag() {
            s.extend([
                ("components", 4, self.n),
                ("DAG children offsets", 8, self.c + 1),
                ("DAG children targets", 4, self.d),
                ("DAG parents offsets", 8, self.c + 1),
                ("DAG parents targets", 4, self.d),
            ]);
        }
        s.push(("levels", 4, self.c));
        if self.names == NAMES_REMAPPED {
            s.push(("vertex ids", 8, self.n));
        }
        if self.names == NAMES_NAMED {
            s.push(("name ends", 8, self.n));
            s.push(("names", 1, self.base));
        }
        s
    }

    /// Where each section starts and where the checksums and the file end; None when the sizes
    /// overflow.
    pub(super) fn layout(&self) -> Option<Layout> {
        let mut at = HEADER_BYTES;
        let mut starts = Vec::new();
        for (_, size, count) in self.sections() {
            starts.push(at);
            at = at.checked_add(count.checked_mul(size)?.checked_next_multiple_of(8)?)?;
        }
        let graph_end = at.checked_add(CHECKSUM_BYTES)?;
        let end = if self.has_weights() {
            graph_end.checked_add(self.m.checked_mul(8)?)?.checked_add(CHECKSUM_BYTES)?
        } else {
            graph_end
        };
        Some(Layout { starts, checksum_at: at, end })
    }

    fn to_bytes(self) -> [u8; HEADER_BYTES as usize] {
        let mut raw = [0u8; HEADER_BYTES as usize];
        raw[..8].copy_from_slice(MAGIC);
        raw[8..12].copy_from_slice(&self.version.to_le_bytes());
        raw[12..16].copy_from_slice(&self.flags.to_le_bytes());
        for (at, v) in [(16, self.n), (24, self.m), (32, self.c), (40, self.d), (56, self.base)] {
            raw[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        raw[48..52].copy_from_slice(&self.names.to_le_bytes());
        raw
    }

    pub(super) fn from_bytes(raw: &[u8]) -> Header {
        let u32_at = |at: usize| u32::from_le_bytes(raw[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().expect("8 bytes"));
        Header {
            version: u32_at(8),
            flags: u32_at(12),
            n: u64_at(16),
            m: u64_at(24),
            c: u64_at(32),
            d: u64_at(40),
            names: u32_at(48),
            base: u64_at(56),
        }
    }
}

/// Where a file's parts lie, from its header.
pub(super) struct Layout {
    /// The start of each of the header's sections, in file order.
    starts: Vec<u64>,
    /// Where the graph's checksum lies (the weights, if any, start 8 bytes after).
    pub(super) checksum_at: u64,
    /// The file's length.
    pub(super) end: u64,
}

impl Layout {
    /// The bytes a reachability command maps: everything up to the graph's checksum, included.
    fn graph_bytes(&self) -> u64 {
        self.checksum_at + CHECKSUM_BYTES
    }
}

/// Writes the graph, its condensation and, if given, one weight per edge (in the order of the
/// children CSR) to `path`, whole or not at all ([`super::write_atomically`]).
pub fn save(
    path: &Path,
    graph: &Graph,
    names: &VertexNames,
    condensation: &Condensation,
    weights: Option<&[f64]>,
) -> Result<()> {
    if cfg!(target_endian = "big") {
        return Err(Error::InvalidInput(format!(
            "{}: .grail files are little-endian and this machine is not",
            path.display()
        )));
    }
    if let Some(weights) = weights {
        check_weight_count(path, graph, weights)?;
    }
    super::write_atomically(path, |file| write_file(file, graph, names, condensation, weights))
}

/// That `weights` holds one weight per edge of `graph`, to be written to `path`.
pub(super) fn check_weight_count(path: &Path, graph: &Graph, weights: &[f64]) -> Result<()> {
    if weights.len() != graph.num_edges() {
        let (path, weights, edges) = (path.display(), weights.len(), graph.num_edges());
        return Err(Error::InvalidInput(format!("{path}: {weights} weights for {edges} edges")));
    }
    Ok(())
}

fn write_file(
    file: &File,
    graph: &Graph,
    names: &VertexNames,
    condensation: &Condensation,
    weights: Option<&[f64]>,
) -> std::io::Result<()> {
    let dag = &condensation.dag;
    let is_dag = condensation.is_identity();
    let (names_kind, base) = match names {
        VertexNames::Dense => (NAMES_DENSE, 0),
        VertexNames::Offset(b) => (NAMES_OFFSET, *b),
        VertexNames::Remapped { .. } => (NAMES_REMAPPED, 0),
        VertexNames::Named(table) => (NAMES_NAMED, table.text().len() as u64),
    };
    let header = Header {
        version: FORMAT_VERSION,
        flags: if is_dag { FLAG_DAG } else { 0 } | if weights.is_some() { FLAG_WEIGHTS } else { 0 },
        n: graph.num_vertices() as u64,
        m: graph.num_edges() as u64,
        c: dag.num_vertices() as u64,
        d: dag.num_edges() as u64,
        names: names_kind,
        base,
    };
    let mut out = BlockHasher::new(BufWriter::with_capacity(1 << 20, file));
    out.write_all(&header.to_bytes())?;
    let csr = |out: &mut BlockHasher<_>, csr: &Csr| -> std::io::Result<()> {
        write_section(out, bytemuck::cast_slice(csr.offsets()))?;
        write_section(out, bytemuck::cast_slice(csr.targets()))
    };
    csr(&mut out, graph.children_csr())?;
    csr(&mut out, graph.parents_csr())?;
    if !is_dag {
        write_section(&mut out, bytemuck::cast_slice(&condensation.component))?;
        csr(&mut out, dag.children_csr())?;
        csr(&mut out, dag.parents_csr())?;
    }
    write_section(&mut out, bytemuck::cast_slice(&condensation.levels))?;
    if let VertexNames::Remapped { original, .. } = names {
        write_section(&mut out, bytemuck::cast_slice(original))?;
    }
    if let VertexNames::Named(table) = names {
        write_section(&mut out, bytemuck::cast_slice(table.ends()))?;
        write_section(&mut out, table.text().as_bytes())?;
    }
    let checksum = out.finish();
    let mut inner = out.inner;
    inner.write_all(&checksum.to_le_bytes())?;
    if let Some(weights) = weights {
        let mut out = BlockHasher::new(inner);
        write_section(&mut out, bytemuck::cast_slice(weights))?;
        let checksum = out.finish();
        inner = out.inner;
        inner.write_all(&checksum.to_le_bytes())?;
    }
    inner.flush()
}

/// Writes one section (this build only writes on little-endian machines, where the in-memory
/// arrays already are the file's bytes), padded to a multiple of 8.
fn write_section(out: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(bytes)?;
    out.write_all(&[0u8; 8][..bytes.len().next_multiple_of(8) - bytes.len()])
}

/// A writer that computes the block checksum of what goes through it.
struct BlockHasher<W: Write> {
    inner: W,
    block: Xxh3,
    in_block: usize,
    digests: Xxh3,
}

impl<W: Write> BlockHasher<W> {
    fn new(inner: W) -> Self {
        BlockHasher { inner, block: Xxh3::new(), in_block: 0, digests: Xxh3::new() }
    }

    fn finish(&mut self) -> u64 {
        if self.in_block > 0 {
            self.digests.update(&self.block.digest().to_le_bytes());
        }
        self.digests.digest()
    }
}

impl<W: Write> Write for BlockHasher<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let take = buf.len().min(CHECKSUM_BLOCK - self.in_block);
        let written = self.inner.write(&buf[..take])?;
        self.block.update(&buf[..written]);
        self.in_block += written;
        if self.in_block == CHECKSUM_BLOCK {
            self.digests.update(&self.block.digest().to_le_bytes());
            self.block.reset();
            self.in_block = 0;
        }
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The checksum of `bytes`, its blocks hashed in parallel.
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    let digests: Vec<u64> = bytes.par_chunks(CHECKSUM_BLOCK).map(xxh3_64).collect();
    let mut all = Xxh3::new();
    for d in digests {
        all.update(&d.to_le_bytes());
    }
    all.digest()
}

/// Opens a `.grail` file: the graph and its condensation, their arrays mapped from the file.
pub fn open(path: &Path) -> Result<(LoadedGraph, Condensation)> {
    let shown = path.display();
    if cfg!(target_endian = "big") {
        return Err(Error::InvalidInput(format!("{shown}: .grail files are little-endian and this machine is not")));
    }
    let mut file = super::bounded::open_regular(path, "graphs")?;
    let file_bytes = file.metadata().io_context(path, || format!("reading metadata of {shown}"))?.len();
    // A weighted file's weights are not mapped: only a weighted command reads them. Whatever the
    // header says is checked again on the map, which is the whole file when the header is unusable.
    let mut head = Vec::with_capacity(HEADER_BYTES as usize);
    (&mut file).take(HEADER_BYTES).read_to_end(&mut head).io_context(path, || format!("cannot read {shown}"))?;
    let mapped = match header_of(&head) {
        Ok(header) => header.layout().map_or(file_bytes, |l| l.graph_bytes().min(file_bytes)),
        Err(_) => file_bytes,
    };
    // SAFETY: the map is read-only; like every program that maps files, this one assumes nobody
    // truncates or rewrites the file while it is open (grail itself replaces files by renaming).
    let map = unsafe { MmapOptions::new().len(mapped as usize).populate().map(&file) }
        .io_context(path, || format!("cannot map {shown}"))?;
    let map = Arc::new(map);
    let (graph, names, condensation) =
        decode(&map, file_bytes).map_err(|why| Error::malformed_file(shown.to_string(), why))?;
    let loaded = LoadedGraph { graph, names, format: Format::Grail, path: path.to_path_buf(), report: None };
    Ok((loaded, condensation))
}

/// Why a file is not a valid `.grail` file, in words.
type Why = String;

pub(super) fn corrupt(what: impl std::fmt::Display) -> Why {
    format!("corrupt .grail file ({what})")
}

/// The header at the start of `bytes` (a file's first bytes), checked: the magic, a version this
/// build reads, flags and names it knows. Says nothing yet of the file's length.
pub(super) fn header_of(bytes: &[u8]) -> Result<Header, Why> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!("not a .grail graph file (it does not start with {:?})", "GRAILGRF"));
    }
    if (bytes.len() as u64) < HEADER_BYTES {
        return Err(corrupt("truncated inside the header"));
    }
    let header = Header::from_bytes(&bytes[..HEADER_BYTES as usize]);
    if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&header.version) {
        return Err(format!(
            ".grail format version {}; this build reads versions {OLDEST_VERSION} to {FORMAT_VERSION} \
             (a newer grail wrote it: open it with that one, or convert the original graph again)",
            header.version
        ));
    }
    check_header(&header)?;
    Ok(header)
}

/// The layout `header` implies, checked against the file's length.
pub(super) fn layout_of(header: &Header, file_bytes: u64) -> Result<Layout, Why> {
    let layout = header.layout().ok_or_else(|| corrupt("impossible sizes in the header"))?;
    if layout.end != file_bytes {
        let (what, expected) = (if file_bytes < layout.end { "truncated" } else { "trailing bytes" }, layout.end);
        return Err(corrupt(format!("{what}: the header implies {expected} bytes, the file has {file_bytes}")));
    }
    Ok(layout)
}

fn decode(map: &Arc<Mmap>, file_bytes: u64) -> Result<(Arc<Graph>, VertexNames, Condensation), Why> {
    if (map.len() as u64) < HEADER_BYTES + CHECKSUM_BYTES && map.starts_with(MAGIC) {
        return Err(corrupt("truncated inside the header"));
    }
    let header = header_of(map)?;
    let layout = layout_of(&header, file_bytes)?;
    if map.len() as u64 != layout.graph_bytes() {
        return Err(corrupt("the file changed while it was opened"));
    }
    let starts = layout.starts;
    let body = &map[..layout.checksum_at as usize];
    let stored = u64::from_le_bytes(map[body.len()..].try_into().expect("8 bytes"));
    if checksum(body) != stored {
        return Err(corrupt("checksum mismatch: the file was changed or damaged after it was written"));
    }
    let mut sections = Sections { map, list: header.sections().into_iter().zip(starts) };
    let graph = graph_of(sections.csr("children")?, sections.csr("parents")?, header.n)?;
    let (graph, component, dag) = if header.is_dag() {
        let graph = Arc::new(graph);
        (Arc::clone(&graph), None, graph)
    } else {
        let component = sections.u32s()?.to_vec();
        let dag = graph_of(sections.csr("DAG children")?, sections.csr("DAG parents")?, header.c)?;
        (Arc::new(graph), Some(component), Arc::new(dag))
    };
    let levels = sections.u32s()?.to_vec();
    // Kept as the DAG's Kahn levels, so labeling does not find them again (as condensing a text
    // file does before labeling).
    topo::adopt_levels(&dag, levels.clone()).map_err(|e| match e {
        AdoptError::Count(count) => corrupt(format!("{count} levels for {} vertices", header.c)),
        AdoptError::Wrong(v) => corrupt(format!(
            "the level of vertex {v} is not one more than its parents' deepest (0 without parents): \
             not the DAG's levels"
        )),
    })?;
    let names = match header.names {
        NAMES_DENSE => VertexNames::Dense,
        NAMES_OFFSET => VertexNames::Offset(header.base),
        NAMES_NAMED => {
            let ends = sections.u64s()?.to_vec();
            let text = sections.slab::<u8>()?.to_vec();
            let text = String::from_utf8(text).map_err(|_| corrupt("the names are not UTF-8 text"))?;
            let table = NameTable::from_parts(text, ends).map_err(corrupt)?;
            VertexNames::Named(Arc::new(table))
        }
        _ => {
            let original = sections.u64s()?.to_vec();
            let names = VertexNames::remapped(original);
            if let VertexNames::Remapped { lookup, .. } = &names
                && lookup.len() as u64 != header.n
            {
                return Err(corrupt("a vertex id is given to two vertices"));
            }
            names
        }
    };
    let n = header.n as usize;
    let (component, sizes) = match component {
        None => ((0..n as u32).collect(), vec![1; n]),
        Some(component) => {
            let mut sizes = vec![0u32; header.c as usize];
            for &c in &component {
                let size = sizes.get_mut(c as usize).ok_or_else(|| corrupt(format!("component {c} out of range")))?;
                *size += 1;
            }
            if sizes.contains(&0) {
                return Err(corrupt("an empty component"));
            }
            (component, sizes)
        }
    };
    Ok((graph, names, Condensation { dag, component, sizes, levels }))
}

/// The sections of a mapped file, taken in file order.
struct Sections<'a, I: Iterator<Item = ((&'static str, u64, u64), u64)>> {
    map: &'a Arc<Mmap>,
    list: I,
}

impl<I: Iterator<Item = ((&'static str, u64, u64), u64)>> Sections<'_, I> {
    fn slab<T: bytemuck::Pod>(&mut self) -> Result<Slab<T>, Why> {
        let ((name, _, count), start) = self.list.next().expect("one start per section");
        Slab::mapped(self.map, start as usize, count as usize).ok_or_else(|| corrupt(format!("{name} misplaced")))
    }

    fn u32s(&mut self) -> Result<Slab<u32>, Why> {
        self.slab()
    }

    fn u64s(&mut self) -> Result<Slab<u64>, Why> {
        self.slab()
    }

    fn csr(&mut self, what: &str) -> Result<Csr, Why> {
        let offsets = self.u64s()?;
        let targets = self.u32s()?;
        Csr::from_slabs(offsets, targets).map_err(|e| corrupt(format!("{what}: {e}")))
    }
}

/// What the header must say before any size is computed from it.
fn check_header(h: &Header) -> Result<(), Why> {
    let max = u64::from(u32::MAX);
    if h.n > max || h.c > h.n {
        return Err(corrupt(format!("{} vertices and {} components", h.n, h.c)));
    }
    if h.is_dag() && (h.c != h.n || h.d != h.m) {
        return Err(corrupt("a DAG whose condensation differs from it"));
    }
    let last_names = if h.version >= 2 { NAMES_NAMED } else { NAMES_REMAPPED };
    if h.has_weights() && h.version < WEIGHTS_VERSION {
        return Err(corrupt(format!("weights flagged in a version {} file, which holds none", h.version)));
    }
    if h.flags & !(FLAG_DAG | FLAG_WEIGHTS) != 0 || h.names > last_names {
        return Err(corrupt(format!("unknown flags {:#x} or names kind {}", h.flags, h.names)));
    }
    Ok(())
}

fn graph_of(children: Csr, parents: Csr, n: u64) -> Result<Graph, Why> {
    if children.num_vertices() as u64 != n {
        return Err(corrupt("a graph with the wrong vertex count"));
    }
    Graph::from_both(children, parents).map_err(|e| corrupt(e.to_string()))
}
