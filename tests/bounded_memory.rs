//! Loading costs memory for what a file holds, not for how many lines it has: files of one edge
//! and 200 MiB of blank or comment lines are read by the built `grail` in a child process whose
//! peak memory (the kernel's count, from `wait4`) must stay under 100 MB.

#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const BLANK_BYTES: usize = 200 << 20;
const LIMIT_BYTES: u64 = 100_000_000;

/// Writes `lines` blank lines to `out`.
fn blank_lines(out: &mut impl Write, lines: usize) {
    let block = vec![b'\n'; 1 << 20];
    let mut left = lines;
    while left > 0 {
        let take = left.min(block.len());
        out.write_all(&block[..take]).unwrap();
        left -= take;
    }
}

/// Writes `bytes` bytes of `line` repeated to `out`.
fn repeated(out: &mut impl Write, line: &[u8], bytes: usize) {
    let block = line.repeat((1 << 20) / line.len());
    let mut left = bytes / line.len();
    while left > 0 {
        let take = left.min(block.len() / line.len());
        out.write_all(&block[..take * line.len()]).unwrap();
        left -= take;
    }
}

/// Runs `grail info path` and returns its standard output and peak resident memory in bytes.
fn info_with_peak_memory(path: &Path) -> (String, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_grail"))
        .arg("info")
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = child;
    let pid = child.id() as libc::pid_t;
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    // Dropping a child does not reap it: `wait4` does, and gives its resource usage.
    drop(child);
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it and the status for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pointers are to live locals; the pid is our unreaped child's.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed: {}", std::io::Error::last_os_error());
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "grail info failed: {stderr}");
    // Linux gives the peak in KiB.
    (stdout, usage.ru_maxrss as u64 * 1024)
}

#[test]
fn blank_lines_around_an_edge_cost_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blank.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    blank_lines(&mut file, BLANK_BYTES / 2);
    file.write_all(b"0 1\n").unwrap();
    blank_lines(&mut file, BLANK_BYTES / 2);
    file.into_inner().unwrap().sync_all().unwrap();
    let (out, peak) = info_with_peak_memory(&path);
    assert!(
        out.contains("209,715,201 lines: 1 data, 0 header, 0 comment, 209,715,200 blank (lines 1, 2, 3, 4, 5, ...)"),
        "{out}"
    );
    assert!(peak < LIMIT_BYTES, "peak memory {peak} bytes for 200 MiB of blank lines");
}

#[test]
fn a_small_gzip_of_many_blank_lines_costs_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blank.gra.gz");
    let file = std::fs::File::create(&path).unwrap();
    let mut gz = flate2::write::GzEncoder::new(std::io::BufWriter::new(file), flate2::Compression::fast());
    gz.write_all(b"graph_for_greach\n2\n0: 1 #\n1: #\n").unwrap();
    blank_lines(&mut gz, BLANK_BYTES);
    gz.finish().unwrap().into_inner().unwrap().sync_all().unwrap();
    let (out, peak) = info_with_peak_memory(&path);
    assert!(
        out.contains("209,715,204 lines: 2 data, 2 header, 0 comment, 209,715,200 blank (lines 5, 6, 7, 8, 9, ...)"),
        "{out}"
    );
    assert!(peak < LIMIT_BYTES, "peak memory {peak} bytes for 200 MiB of blank lines");
}

#[test]
fn comment_lines_before_the_first_edge_cost_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("comments.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&plain).unwrap());
    repeated(&mut file, b"# c\n", BLANK_BYTES);
    file.write_all(b"0 1\n").unwrap();
    file.into_inner().unwrap().sync_all().unwrap();
    let gzip = dir.path().join("comments.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&gzip).unwrap(), flate2::Compression::fast());
    std::io::copy(&mut std::fs::File::open(&plain).unwrap(), &mut gz).unwrap();
    gz.finish().unwrap().sync_all().unwrap();
    for path in [plain, gzip] {
        let (out, peak) = info_with_peak_memory(&path);
        assert!(
            out.contains("52,428,801 lines: 1 data, 0 header, 52,428,800 comment (lines 1, 2, 3, 4, 5, ...), 0 blank"),
            "{out}"
        );
        assert!(peak < LIMIT_BYTES, "peak memory {peak} bytes for 200 MiB of comment lines in {}", path.display());
    }
}

#[test]
fn a_named_edge_list_costs_no_memory_for_its_blank_and_comment_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("named.csv");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(b"source,target\nalice,bob\n").unwrap();
    repeated(&mut file, b"# c\n\n", BLANK_BYTES);
    file.write_all(b"bob,carol\n").unwrap();
    file.into_inner().unwrap().sync_all().unwrap();
    let (out, peak) = info_with_peak_memory(&path);
    assert!(
        out.contains(
            "83,886,083 lines: 2 data, 1 header, 41,943,040 comment (lines 3, 5, 7, 9, 11, ...), 41,943,040 blank \
             (lines 4, 6, 8, 10, 12, ...)"
        ),
        "{out}"
    );
    assert!(peak < LIMIT_BYTES, "peak memory {peak} bytes for 200 MiB of blank and comment lines");
}
