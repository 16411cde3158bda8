//! Reading a file into memory, gunzipping it when its content (not its name) says it is gzip.
//! Every read goes through a [`Watch`]: the file's bytes are counted and a cancel stops it. Only
//! regular files are read, and the text (after gunzipping) through [`LineBounded`], so no read
//! holds more than a line's limit of a file that has no line ends.

use super::bounded::{LineBounded, LineTooLong, MAX_LINE_WORDS, open_regular};
use super::held_text::HeldText;
use super::watch::{Watch, Watched};
use crate::error::IoContext;
use crate::{Error, Result};
use flate2::bufread::MultiGzDecoder;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads a whole file, gunzipping transparently when it starts with the gzip magic bytes (not by
/// extension). Concatenated gzip members are read as one stream. Errors name the file (and the
/// line, for a line over the limit).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    read_bytes_watched(path, Watch::none())
}

/// [`read_bytes`], counted and stopped by `watch`.
pub fn read_bytes_watched(path: &Path, watch: Watch) -> Result<Vec<u8>> {
    let (mut text, gzip, size) = open_text(path, watch)?;
    let mut bytes = Vec::with_capacity(size as usize);
    text.read_to_end(&mut bytes).map_err(|e| read_error(e, path, gzip))?;
    Ok(bytes)
}

/// Reads a whole file as [`read_bytes`] does, held without most of its blank and comment lines
/// ([`HeldText`]): what it costs follows the lines that hold something.
pub fn read_held(path: &Path) -> Result<HeldText> {
    read_held_watched(path, Watch::none())
}

/// [`read_held`], counted and stopped by `watch`.
pub fn read_held_watched(path: &Path, watch: Watch) -> Result<HeldText> {
    let (mut text, gzip, _) = open_text(path, watch)?;
    let mut held = HeldText::default();
    for_each_block(&mut text, BLOCK, |block| held.push(block)).map_err(|e| read_error(e, path, gzip))?;
    Ok(held)
}

/// Bytes read at a time by [`read_held`].
const BLOCK: usize = 1 << 20;

/// Reads `source` to its end in blocks of whole lines of about `size` bytes (the last block may
/// end without a line end; a block is longer where a line is), handing each to `each`.
pub fn for_each_block(source: &mut dyn Read, size: usize, mut each: impl FnMut(&[u8])) -> std::io::Result<()> {
    let mut block: Vec<u8> = Vec::new();
    loop {
        let start = block.len();
        block.resize(start + size.max(1), 0);
        let mut filled = start;
        let ended = loop {
            match source.read(&mut block[filled..]) {
                Ok(0) => break true,
                Ok(read) => filled += read,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
            if filled == block.len() {
                break false;
            }
        };
        block.truncate(filled);
        if ended {
            if !block.is_empty() {
                each(&block);
            }
            return Ok(());
        }
        // Whole lines go; the start of a line the block cut stays for the next one.
        if let Some(last) = memchr::memrchr(b'\n', &block) {
            each(&block[..=last]);
            block.drain(..=last);
        }
    }
}

/// The error of a read of `path` that failed: a line too long, a broken gzip stream, or the
/// system's error.
fn read_error(e: std::io::Error, path: &Path, gzip: bool) -> Error {
    match LineTooLong::of(&e) {
        Some(line) => LineTooLong::error(
            line,
            &path.display().to_string(),
            &format!("lines of at most {MAX_LINE_WORDS} (is it a graph file?)"),
        ),
        None if gzip => Error::io(path, format!("{}: the gzip stream is corrupt or truncated", path.display()), e),
        None => Error::io(path, format!("cannot read {}", path.display()), e),
    }
}

/// The file's text as a stream, gunzipped when it starts with the gzip magic bytes and bounded by
/// the line limit; `watch` counts the file's own (compressed) bytes.
pub fn open_stream<'a>(path: &Path, watch: Watch<'a>) -> Result<Box<dyn Read + Send + 'a>> {
    open_text(path, watch).map(|(text, _, _)| text)
}

/// The text stream, whether it is gunzipped, and the file's size.
fn open_text<'a>(path: &Path, watch: Watch<'a>) -> Result<(Box<dyn Read + Send + 'a>, bool, u64)> {
    let file = open_regular(path, "graphs")?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut reader = BufReader::with_capacity(1 << 16, Watched::new(file, size, watch));
    let gzip =
        reader.fill_buf().io_context(path, || format!("cannot read {}", path.display()))?.starts_with(&GZIP_MAGIC);
    let text: Box<dyn Read + Send + 'a> = if gzip {
        Box::new(LineBounded::for_graphs(MultiGzDecoder::new(reader)))
    } else {
        Box::new(LineBounded::for_graphs(reader))
    };
    Ok((text, gzip, size))
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
