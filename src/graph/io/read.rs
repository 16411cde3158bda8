//! Reading a file into memory, gunzipping it when its content (not its name) says it is gzip.
//! Every read goes through a [`Watch`]: the file's bytes are counted and a cancel stops it.

use super::watch::{Watch, Watched};
use anyhow::{Context, Result};
use flate2::bufread::MultiGzDecoder;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Deflate cannot expand data by more than about 1032:1, so a larger size in the gzip trailer is
/// not trusted as a capacity hint (it is only the size modulo 2^32 anyway).
const MAX_DEFLATE_RATIO: usize = 1032;

/// Reads a whole file, gunzipping transparently when it starts with the gzip magic bytes (not by
/// extension). Concatenated gzip members are read as one stream. Errors name the file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    read_bytes_watched(path, Watch::none())
}

/// [`read_bytes`], counted and stopped by `watch`.
pub fn read_bytes_watched(path: &Path, watch: Watch) -> Result<Vec<u8>> {
    let mut file = watched_file(path, watch)?;
    let mut raw = Vec::new();
    file.read_to_end(&mut raw).with_context(|| format!("cannot read {}", path.display()))?;
    if !raw.starts_with(&GZIP_MAGIC) {
        return Ok(raw);
    }
    gunzip(&raw).with_context(|| format!("{}: the gzip stream is corrupt or truncated", path.display()))
}

/// The file's bytes as a stream, gunzipped when it starts with the gzip magic bytes; `watch`
/// counts the file's own (compressed) bytes.
pub fn open_stream<'a>(path: &Path, watch: Watch<'a>) -> Result<Box<dyn Read + Send + 'a>> {
    let file = watched_file(path, watch)?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let gzip = reader.fill_buf()?.starts_with(&GZIP_MAGIC);
    Ok(if gzip { Box::new(MultiGzDecoder::new(reader)) } else { Box::new(reader) })
}

/// The file opened for reading through `watch`, which learns its size.
fn watched_file<'a>(path: &Path, watch: Watch<'a>) -> Result<Watched<'a, std::fs::File>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    Ok(Watched::new(file, size, watch))
}

fn gunzip(compressed: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(size_hint(compressed));
    MultiGzDecoder::new(compressed).read_to_end(&mut out)?;
    Ok(out)
}

/// The uncompressed size recorded in the last member's trailer (ISIZE), when plausible.
fn size_hint(compressed: &[u8]) -> usize {
    let Some(trailer) = compressed.last_chunk::<4>() else {
        return 0;
    };
    let size = u32::from_le_bytes(*trailer) as usize;
    if size <= compressed.len().saturating_mul(MAX_DEFLATE_RATIO) { size } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gunzips_by_content_not_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let disguised = dir.path().join("plain.txt");
        std::fs::write(&disguised, gzip(b"0 1\n")).unwrap();
        assert_eq!(read_bytes(&disguised).unwrap(), b"0 1\n");
        let honest = dir.path().join("not-really.gz");
        std::fs::write(&honest, b"0 1\n").unwrap();
        assert_eq!(read_bytes(&honest).unwrap(), b"0 1\n");
    }

    #[test]
    fn reads_concatenated_members() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.gz");
        std::fs::write(&path, [gzip(b"0 1\n"), gzip(b"1 2\n")].concat()).unwrap();
        assert_eq!(read_bytes(&path).unwrap(), b"0 1\n1 2\n");
    }

    #[test]
    fn missing_file_is_named() {
        let e = read_bytes(Path::new("/nonexistent/g.gra")).unwrap_err();
        assert!(format!("{e:#}").contains("/nonexistent/g.gra"), "{e:#}");
    }
}
