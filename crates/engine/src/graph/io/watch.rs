//! Watching a long read: a reader adapter that counts the bytes it passes on (reporting them as a
//! share of the file's size) and fails with [`Cancel::Load`] once a flag is set. Every reader,
//! sequential or parallel, reads through it, so none of the parsers needs to know.

use crate::{Cancel, Result};
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// Reports are sent each time this share of the file more has been read (and at the end).
const REPORT_EVERY: f64 = 0.005;

/// What watches a load: the flag that stops it and where bytes read are reported, as
/// `(bytes read, bytes in all)`; for a gzip file both count compressed bytes.
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    /// Set by another thread to stop the load with [`Cancel::Load`].
    pub cancel: &'a AtomicBool,
    /// Called with `(bytes read, bytes in all)` as the load goes.
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
}

impl<'a> Watch<'a> {
    /// Nobody watches: never cancelled, nothing reported.
    pub fn none() -> Watch<'static> {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Watch { cancel: &NEVER, progress: &|_, _| {} }
    }

    /// Whether the flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `Err(Cancel::Load)` once the flag is set, for the steps between reads.
    pub fn check(&self) -> Result<()> {
        if self.cancelled() { Err(Cancel::Load.into()) } else { Ok(()) }
    }
}

/// A reader that counts what it reads for a [`Watch`] and stops when the watch is cancelled.
pub struct Watched<'a, R> {
    inner: R,
    watch: Watch<'a>,
    total: u64,
    read: u64,
    reported: u64,
}

impl<'a, R: Read> Watched<'a, R> {
    /// Watches `inner`, a file of `total` bytes.
    pub fn new(inner: R, total: u64, watch: Watch<'a>) -> Watched<'a, R> {
        Watched { inner, watch, total, read: 0, reported: 0 }
    }
}

impl<R: Read> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.watch.cancelled() {
            return Err(io::Error::other(Cancel::Load));
        }
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        let step = (self.total as f64 * REPORT_EVERY) as u64;
        if n == 0 || self.read - self.reported > step {
            self.reported = self.read;
            (self.watch.progress)(self.read, self.total.max(self.read));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn counts_bytes_and_reports_the_end() {
        let seen = Mutex::new(Vec::new());
        let progress = |read, total| seen.lock().unwrap().push((read, total));
        let never = AtomicBool::new(false);
        let data = vec![7u8; 10_000];
        let mut reader = Watched::new(&data[..], 10_000, Watch { cancel: &never, progress: &progress });
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        assert_eq!(seen.lock().unwrap().last(), Some(&(10_000, 10_000)));
    }

    /// An edge list of `lines` edges on disk, gzipped or not.
    fn edge_list(dir: &std::path::Path, lines: u32, gzip: bool) -> std::path::PathBuf {
        let text: String = (0..lines).map(|i| format!("{i} {}\n", i + 1)).collect();
        let path = dir.join(if gzip { "chain.txt.gz" } else { "chain.txt" });
        let bytes = if gzip {
            use std::io::Write;
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(text.as_bytes()).unwrap();
            encoder.finish().unwrap()
        } else {
            text.into_bytes()
        };
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_load_cancelled_before_or_while_reading_says_so() {
        let dir = tempfile::tempdir().unwrap();
        for gzip in [false, true] {
            let path = edge_list(dir.path(), 400_000, gzip);
            // Before: nothing is read.
            let set = AtomicBool::new(true);
            let error = crate::graph::io::load_watched(&path, None, Watch { cancel: &set, progress: &|_, _| {} })
                .expect_err("a set flag stops the load");
            assert!(error.is_cancelled(), "{error:#}");
            // While: the first report of bytes read sets the flag.
            let flag = AtomicBool::new(false);
            let reports = Mutex::new(Vec::new());
            let progress = |read: u64, total: u64| {
                reports.lock().unwrap().push((read, total));
                flag.store(true, Ordering::Relaxed);
            };
            let error = crate::graph::io::load_watched(&path, None, Watch { cancel: &flag, progress: &progress })
                .expect_err("a flag set while reading stops the load");
            assert!(error.is_cancelled(), "gzip {gzip}: {error:#}");
            let reports = reports.into_inner().unwrap();
            let size = std::fs::metadata(&path).unwrap().len();
            assert!(reports.iter().all(|&(read, total)| read < total && total == size), "{reports:?}");
            // Unwatched, the same file loads whole.
            let graph = crate::graph::io::load(&path, None).unwrap().graph;
            assert_eq!(graph.num_edges(), 400_000);
        }
    }

    #[test]
    fn a_set_flag_fails_the_next_read_as_cancelled() {
        let flag = AtomicBool::new(false);
        let data = [b'1'; 100];
        let mut reader = Watched::new(&data[..], 100, Watch { cancel: &flag, progress: &|_, _| {} });
        let mut buf = [0u8; 10];
        assert_eq!(reader.read(&mut buf).unwrap(), 10);
        flag.store(true, Ordering::Relaxed);
        let error = reader.read(&mut buf).unwrap_err();
        let error = crate::Error::io(std::path::Path::new("g.gra"), "cannot read g.gra", error);
        assert!(error.context("cannot load graph g.gra").is_cancelled());
        assert!(!crate::Error::malformed("g.gra", 3, "a letter; expected a vertex id").is_cancelled());
    }
}
