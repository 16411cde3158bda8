//! Index files: GRAIL labels saved to disk and loaded back, tied to the graph they were built for.
//!
//! Format version 1, every integer little-endian:
//! ```text
//! offset  size        field
//!      0     8        magic "GRAILIDX"
//!      8     4        format version (1)
//!     12     4        dims
//!     16     8        n (vertices of the labelled DAG)
//!     24     4        order kind (0 lex, 1 random)
//!     28     4        reserved (0)
//!     32     8        order seed (0 for lex)
//!     40    16        fingerprint of the graph (grail::graph::fingerprint)
//!     56  8·n·dims    intervals, vertex-major: (low u32, post u32)
//!          4·n·dims   subtree sizes, vertex-major
//!          4·n        topological levels
//!    end-8   8        XXH3-64 of every byte before it
//! ```
//! The header fixes the file's exact length, so a loader checks it against the real length before
//! allocating anything: a corrupt header cannot ask for terabytes. Files are written through
//! [`crate::graph::io::write_atomically`], so a crash never leaves half an index.

use super::labels::{Interval, Labels};
use super::order::Order;
use crate::error::IoContext;
use crate::graph::fingerprint::to_hex;
use crate::{Error, Result};
use serde::{Serialize, Serializer};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// The first eight bytes of every index file.
pub const MAGIC: &[u8; 8] = b"GRAILIDX";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_BYTES: u64 = 56;
const CHECKSUM_BYTES: u64 = 8;
const ORDER_LEX: u32 = 0;
const ORDER_RANDOM: u32 = 1;

/// What an index file says about itself (for `grail info` on an index file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IndexHeader {
    /// The file's format version.
    pub version: u32,
    /// Label dimensions stored.
    pub dims: usize,
    /// The child order the labels were built with.
    pub order: Order,
    /// Vertices of the labeled DAG.
    pub n: u64,
    /// The fingerprint of the graph the labels belong to (`grail::graph::fingerprint`); hex in JSON.
    #[serde(serialize_with = "as_hex")]
    pub fingerprint: u128,
    /// The file's length, which the header's sizes account for exactly.
    pub file_bytes: u64,
}

fn as_hex<S: Serializer>(fingerprint: &u128, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_str(&to_hex(*fingerprint))
}

impl IndexHeader {
    /// Bytes of the three label arrays, or `None` if they overflow (a corrupt header).
    fn array_bytes(&self) -> Option<u64> {
        let cells = self.n.checked_mul(self.dims as u64)?;
        cells.checked_mul(8 + 4)?.checked_add(self.n.checked_mul(4)?)
    }
}

/// Writes `labels` of the graph with fingerprint `graph_fingerprint` to `path`, atomically.
pub fn save(path: &Path, labels: &Labels, graph_fingerprint: u128) -> Result<()> {
    crate::graph::io::write_atomically(path, |file| write_file(file, labels, graph_fingerprint))
}

/// Writes the whole file (header, arrays, checksum) through one buffer.
fn write_file(file: &File, labels: &Labels, fingerprint: u128) -> std::io::Result<()> {
    let mut out = HashingWriter { inner: BufWriter::with_capacity(1 << 20, file), hasher: Xxh3::new() };
    write_body(&mut out, labels, fingerprint)?;
    let checksum = out.hasher.digest();
    out.inner.write_all(&checksum.to_le_bytes())?;
    out.inner.flush()
}

fn write_body(out: &mut impl Write, labels: &Labels, fingerprint: u128) -> std::io::Result<()> {
    let (kind, seed) = match labels.order() {
        Order::Lex => (ORDER_LEX, 0),
        Order::Random { seed } => (ORDER_RANDOM, seed),
    };
    out.write_all(MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())?;
    out.write_all(&(labels.dims() as u32).to_le_bytes())?;
    out.write_all(&(labels.num_vertices() as u64).to_le_bytes())?;
    out.write_all(&kind.to_le_bytes())?;
    out.write_all(&0u32.to_le_bytes())?;
    out.write_all(&seed.to_le_bytes())?;
    out.write_all(&fingerprint.to_le_bytes())?;
    write_u32s(out, bytemuck::cast_slice(labels.intervals()))?;
    write_u32s(out, labels.subtrees())?;
    write_u32s(out, labels.levels())
}

/// Writes `values` little-endian: one cast on little-endian hosts, converted otherwise.
fn write_u32s(out: &mut impl Write, values: &[u32]) -> std::io::Result<()> {
    if cfg!(target_endian = "little") {
        return out.write_all(bytemuck::cast_slice(values));
    }
    for chunk in values.chunks(1 << 16) {
        let le: Vec<u32> = chunk.iter().map(|v| v.to_le()).collect();
        out.write_all(bytemuck::cast_slice(&le))?;
    }
    Ok(())
}

/// Opens the index file at `path`: a regular file only (a FIFO or a device would be waited on, or
/// read without end).
fn open(path: &Path) -> Result<File> {
    crate::graph::io::bounded::check_regular(path, "index files")?;
    File::open(path).io_context(path, || format!("opening index file {}", path.display()))
}

/// Reads the header of the index file at `path` and checks that the file's length matches it.
/// Does not read the labels or verify the checksum (that is [`load`]'s job), so it is instant.
pub fn read_header(path: &Path) -> Result<IndexHeader> {
    let file = open(path)?;
    let mut reader = BufReader::new(file);
    parse_header(&mut reader, path, &mut Xxh3::new())
}

/// Loads the index at `path`. With `expected_fingerprint`, refuses an index built for another graph.
pub fn load(path: &Path, expected_fingerprint: Option<u128>) -> Result<Labels> {
    let file = open(path)?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut hasher = Xxh3::new();
    let header = parse_header(&mut reader, path, &mut hasher)?;
    let corrupt = || format!("{}: corrupt index file (could not read the labels)", path.display());
    let malformed =
        |why: &str| Error::malformed_file(path.display().to_string(), format!("corrupt index file ({why})"));
    // The lengths below were checked against the file's real size by `parse_header`.
    let cells = header.n as usize * header.dims;
    let mut intervals = vec![Interval::default(); cells];
    read_u32s(&mut reader, &mut hasher, bytemuck::cast_slice_mut(&mut intervals)).io_context(path, corrupt)?;
    let mut subtrees = vec![0u32; cells];
    read_u32s(&mut reader, &mut hasher, &mut subtrees).io_context(path, corrupt)?;
    let mut levels = vec![0u32; header.n as usize];
    read_u32s(&mut reader, &mut hasher, &mut levels).io_context(path, corrupt)?;
    let mut stored = [0u8; CHECKSUM_BYTES as usize];
    reader.read_exact(&mut stored).io_context(path, corrupt)?;
    if u64::from_le_bytes(stored) != hasher.digest() {
        return Err(malformed("checksum mismatch"));
    }
    if let Some(expected) = expected_fingerprint
        && expected != header.fingerprint
    {
        return Err(Error::InvalidInput(format!(
            "{}: this index was built for another graph (fingerprint {}, this graph is {})",
            path.display(),
            to_hex(header.fingerprint),
            to_hex(expected)
        )));
    }
    Labels::from_raw(header.order, header.dims, intervals, subtrees, levels)
        .ok_or_else(|| malformed("inconsistent label arrays"))
}

/// Reads and validates the fixed header, feeding its bytes to `hasher`.
fn parse_header(reader: &mut BufReader<File>, path: &Path, hasher: &mut Xxh3) -> Result<IndexHeader> {
    let shown = path.display();
    let malformed = |why: String| Error::malformed_file(shown.to_string(), why);
    let file_bytes = reader.get_ref().metadata().io_context(path, || format!("reading metadata of {shown}"))?.len();
    let mut raw = [0u8; HEADER_BYTES as usize];
    let got = read_up_to(reader, &mut raw).io_context(path, || format!("reading index file {shown}"))?;
    if got < MAGIC.len() || &raw[..MAGIC.len()] != MAGIC {
        let magic = std::str::from_utf8(MAGIC).unwrap();
        return Err(malformed(format!("not a grail index file (it does not start with {magic:?})")));
    }
    if got as u64 != HEADER_BYTES {
        return Err(malformed("corrupt index file (truncated inside the header)".into()));
    }
    hasher.update(&raw);
    let u32_at = |at: usize| u32::from_le_bytes(raw[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(malformed(format!("index format version {version}; this build reads version {FORMAT_VERSION}")));
    }
    let order = match (u32_at(24), u64_at(32)) {
        (ORDER_LEX, _) => Order::Lex,
        (ORDER_RANDOM, seed) => Order::Random { seed },
        (kind, _) => return Err(malformed(format!("corrupt index file (unknown order kind {kind})"))),
    };
    let header = IndexHeader {
        version,
        dims: u32_at(12) as usize,
        order,
        n: u64_at(16),
        fingerprint: u128::from_le_bytes(raw[40..56].try_into().expect("16 bytes")),
        file_bytes,
    };
    if header.dims == 0 {
        return Err(malformed("corrupt index file (0 dimensions)".into()));
    }
    if header.n > u64::from(u32::MAX) {
        return Err(malformed(format!("corrupt index file ({} vertices)", header.n)));
    }
    let expected = header
        .array_bytes()
        .and_then(|b| b.checked_add(HEADER_BYTES + CHECKSUM_BYTES))
        .ok_or_else(|| malformed("corrupt index file (impossible sizes in the header)".into()))?;
    if expected != file_bytes {
        let what = if file_bytes < expected { "truncated" } else { "trailing bytes" };
        return Err(malformed(format!(
            "corrupt index file ({what}: the header implies {expected} bytes, the file has {file_bytes})"
        )));
    }
    Ok(header)
}

/// Like `read_exact`, but a short file is not an error: returns how many bytes were read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..])? {
            0 => break,
            k => filled += k,
        }
    }
    Ok(filled)
}

/// Fills `values` from little-endian bytes, hashing the bytes as read.
fn read_u32s(reader: &mut impl Read, hasher: &mut Xxh3, values: &mut [u32]) -> std::io::Result<()> {
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(values);
    reader.read_exact(bytes)?;
    hasher.update(bytes);
    if cfg!(target_endian = "big") {
        values.iter_mut().for_each(|v| *v = u32::from_le(*v));
    }
    Ok(())
}

/// Hashes everything written through it (the checksum covers exactly the bytes in the file).
struct HashingWriter<W: Write> {
    inner: W,
    hasher: Xxh3,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.hasher.update(&buf[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::fingerprint::fingerprint;
    use crate::graph::generators;
    use crate::index::dfs;
    use std::path::PathBuf;

    /// Labels of a generated DAG, saved in a fresh directory.
    fn saved(order: Order, dims: usize) -> (tempfile::TempDir, PathBuf, Labels, u128) {
        let g = generators::random_dag(2_000, 4.0, 5).unwrap();
        let labels = dfs::label(&g, dims, order).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.grailidx");
        let fp = fingerprint(&g);
        save(&path, &labels, fp).unwrap();
        (dir, path, labels, fp)
    }

    fn error_of(path: &Path, expected: Option<u128>) -> String {
        format!("{:#}", load(path, expected).unwrap_err())
    }

    /// Overwrites bytes of the file at `at`.
    fn patch(path: &Path, at: usize, bytes: &[u8]) {
        let mut data = std::fs::read(path).unwrap();
        data[at..at + bytes.len()].copy_from_slice(bytes);
        std::fs::write(path, data).unwrap();
    }

    #[test]
    fn round_trips_random_and_lex_orders() {
        for (order, dims) in [(Order::Random { seed: 9 }, 3), (Order::Lex, 1)] {
            let (_dir, path, labels, fp) = saved(order, dims);
            assert_eq!(load(&path, Some(fp)).unwrap(), labels);
            assert_eq!(load(&path, None).unwrap(), labels);
            let header = read_header(&path).unwrap();
            assert_eq!(
                (header.version, header.dims, header.order, header.n, header.fingerprint),
                (1, dims, order, 2_000, fp)
            );
            let expected_bytes = 56 + 2_000 * dims as u64 * 12 + 2_000 * 4 + 8;
            assert_eq!(header.file_bytes, expected_bytes);
        }
    }

    #[test]
    fn round_trips_the_odd_shapes() {
        for g in [
            generators::chain(3_000).unwrap(),
            generators::diamond_ladder(50).unwrap(),
            generators::wide_fan(300, 2, 1).unwrap(),
        ] {
            let labels = dfs::label(&g, 2, Order::Random { seed: 4 }).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("x.idx");
            save(&path, &labels, fingerprint(&g)).unwrap();
            assert_eq!(load(&path, Some(fingerprint(&g))).unwrap(), labels);
        }
    }

    #[test]
    fn header_serialises_with_a_hex_fingerprint() {
        let (_dir, path, _, fp) = saved(Order::Random { seed: 2 }, 2);
        let json = serde_json::to_string(&read_header(&path).unwrap()).unwrap();
        assert!(json.contains(&format!("\"fingerprint\":\"{}\"", to_hex(fp))), "{json}");
        assert!(json.contains("\"order\":{\"kind\":\"random\",\"seed\":2}"), "{json}");
    }

    #[test]
    fn saving_replaces_atomically_and_leaves_no_temporary_file() {
        let (dir, path, _, fp) = saved(Order::Lex, 1);
        let g = generators::chain(10).unwrap();
        let small = dfs::label(&g, 1, Order::Lex).unwrap();
        save(&path, &small, fp).unwrap();
        assert_eq!(load(&path, None).unwrap(), small);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("g.grailidx")]);
    }

    #[test]
    fn saving_into_a_missing_directory_is_an_error() {
        let (_dir, path, labels, fp) = saved(Order::Lex, 1);
        let err = save(&path.join("nope/x.idx"), &labels, fp).unwrap_err();
        assert!(format!("{err:#}").contains("cannot create"), "{err:#}");
    }

    #[test]
    fn wrong_magic_is_not_an_index() {
        let (_dir, path, _, _) = saved(Order::Lex, 1);
        patch(&path, 0, b"GRAPHIDX");
        assert!(error_of(&path, None).contains("not a grail index file"));
        std::fs::write(&path, b"GRA").unwrap();
        assert!(error_of(&path, None).contains("not a grail index file"));
        assert!(format!("{:#}", read_header(&path).unwrap_err()).contains("not a grail index file"));
    }

    #[test]
    fn other_version_says_which() {
        let (_dir, path, _, _) = saved(Order::Lex, 1);
        patch(&path, 8, &7u32.to_le_bytes());
        let err = error_of(&path, None);
        assert!(err.contains("version 7; this build reads version 1"), "{err}");
    }

    #[test]
    fn flipped_label_byte_fails_the_checksum() {
        let (_dir, path, _, _) = saved(Order::Random { seed: 1 }, 2);
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        let mut data = std::fs::read(&path).unwrap();
        data[len / 2] ^= 0x10;
        std::fs::write(&path, data).unwrap();
        assert!(error_of(&path, None).contains("corrupt index file (checksum mismatch)"));
    }

    #[test]
    fn flipped_header_byte_fails_the_checksum() {
        // The seed is not a size, so only the checksum can notice it changed.
        let (_dir, path, _, _) = saved(Order::Random { seed: 1 }, 2);
        patch(&path, 32, &99u64.to_le_bytes());
        assert!(error_of(&path, None).contains("checksum mismatch"));
    }

    #[test]
    fn truncated_or_padded_files_are_corrupt() {
        let (_dir, path, _, _) = saved(Order::Lex, 2);
        let data = std::fs::read(&path).unwrap();
        for cut in [data.len() - 1, data.len() - 9, 200, 40] {
            std::fs::write(&path, &data[..cut]).unwrap();
            let err = error_of(&path, None);
            assert!(err.contains("corrupt index file"), "cut at {cut}: {err}");
        }
        let mut longer = data.clone();
        longer.push(0);
        std::fs::write(&path, longer).unwrap();
        assert!(error_of(&path, None).contains("trailing bytes"));
    }

    #[test]
    fn absurd_header_sizes_fail_before_allocating() {
        let (_dir, path, _, _) = saved(Order::Lex, 1);
        patch(&path, 16, &(u64::from(u32::MAX)).to_le_bytes()); // 4G vertices x 20 bytes: 80 GB
        assert!(error_of(&path, None).contains("truncated: the header implies"));
        patch(&path, 12, &u32::MAX.to_le_bytes()); // and 4G dimensions: overflows u64
        assert!(error_of(&path, None).contains("impossible sizes"));
        patch(&path, 16, &u64::MAX.to_le_bytes());
        assert!(error_of(&path, None).contains("corrupt index file"));
        patch(&path, 12, &0u32.to_le_bytes());
        assert!(error_of(&path, None).contains("0 dimensions"));
    }

    #[test]
    fn unknown_order_kind_is_corrupt() {
        let (_dir, path, _, _) = saved(Order::Lex, 1);
        patch(&path, 24, &5u32.to_le_bytes());
        assert!(error_of(&path, None).contains("unknown order kind 5"));
    }

    #[test]
    fn index_of_another_graph_is_refused() {
        let (_dir, path, _, fp) = saved(Order::Lex, 1);
        let other = fingerprint(&generators::random_dag(2_000, 4.0, 6).unwrap());
        let err = error_of(&path, Some(other));
        let expected = format!("built for another graph (fingerprint {}, this graph is {})", to_hex(fp), to_hex(other));
        assert!(err.contains(&expected), "{err}");
    }

    #[test]
    fn missing_file_names_the_path() {
        let err = error_of(Path::new("/nonexistent/dir/g.idx"), None);
        assert!(err.contains("opening index file /nonexistent/dir/g.idx"), "{err}");
    }
}
