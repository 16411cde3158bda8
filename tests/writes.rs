//! What the commands write, and what they leave as it was: an output that is an input is refused,
//! a failed command replaces nothing, what grail writes it reads back, and files that are not
//! regular are refused without waiting on them.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn grail_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the grail binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", stderr(&out));
    out
}

/// A folder holding `g.gra`, a chain of ten vertices.
fn folder_with_graph() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    ok(grail_in(dir.path(), &["gen", "chain:n=10", "--out", "g.gra"]));
    let graph = dir.path().join("g.gra");
    (dir, graph)
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let (dir, graph) = folder_with_graph();
    let before = std::fs::read(&graph).unwrap();
    std::os::unix::fs::symlink("g.gra", dir.path().join("link.gra")).unwrap();
    std::fs::hard_link(&graph, dir.path().join("hard.gra")).unwrap();
    for args in [
        &["label", "g.gra", "--out", "g.gra"][..],
        &["label", "g.gra", "--trace", "link.gra"],
        &["closure", "g.gra", "--out", "./g.gra"],
        &["apsp", "g.gra", "--out", "hard.gra"],
        &["convert", "link.gra", "g.gra"],
        &["draw", "g.gra", "--out", "g.gra"],
    ] {
        let out = grail_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let message = stderr(&out);
        assert!(message.contains("writing it would replace the input; choose another output"), "{args:?}: {message}");
        assert_eq!(std::fs::read(&graph).unwrap(), before, "{args:?} changed the graph");
    }
    let out = grail_in(dir.path(), &["label", "g.gra", "--out", "x.idx", "--trace", "x.idx"]);
    assert!(stderr(&out).contains("are the same file: choose two different outputs"), "{}", stderr(&out));
    assert_eq!(names_in(dir.path()), ["g.gra", "hard.gra", "link.gra"]);
}

#[test]
fn a_failed_convert_replaces_none_of_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("named.csv"), "a,b\nb,c\n").unwrap();
    std::fs::write(dir.path().join("other.csv"), "x,y\n").unwrap();
    ok(grail_in(dir.path(), &["convert", "named.csv", "T.gra"]));
    let before = std::fs::read(dir.path().join("T.gra")).unwrap();
    // The table of names cannot be written where a folder is: the graph must not be replaced.
    std::fs::remove_file(dir.path().join("T.gra.ids.csv")).unwrap();
    std::fs::create_dir(dir.path().join("T.gra.ids.csv")).unwrap();
    let out = grail_in(dir.path(), &["convert", "other.csv", "T.gra"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("T.gra.ids.csv is a folder"), "{}", stderr(&out));
    // Nothing claims a success that did not happen.
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(std::fs::read(dir.path().join("T.gra")).unwrap(), before);
    assert_eq!(names_in(dir.path()), ["T.gra", "T.gra.ids.csv", "named.csv", "other.csv"]);
}

#[test]
fn a_failed_label_keeps_the_old_event_log() {
    let (dir, _) = folder_with_graph();
    std::fs::write(dir.path().join("events.jsonl"), "the old log\n").unwrap();
    std::fs::create_dir(dir.path().join("taken")).unwrap();
    // The index cannot be saved over a folder: the labeling fails after the log was written.
    let out = grail_in(dir.path(), &["label", "g.gra", "--trace", "events.jsonl", "--out", "taken"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap(), "the old log\n");
    ok(grail_in(dir.path(), &["label", "g.gra", "--trace", "events.jsonl", "--out", "g.idx"]));
    let log = std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap();
    assert!(log.lines().count() > 1 && log.lines().all(|l| l.starts_with('{')), "{log}");
    assert_eq!(names_in(dir.path()), ["events.jsonl", "g.gra", "g.idx", "taken"]);
}

#[test]
fn manual_pages_cut_short_by_a_file_size_limit_leave_the_old_ones() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    std::fs::create_dir(&pages).unwrap();
    std::fs::write(pages.join("grail-query.1"), "the old page\n").unwrap();
    // Files of at most 1 KiB (bash's unit): the main page is longer; the signal is ignored, so the
    // write fails with EFBIG instead of killing the process.
    let script = format!("trap '' XFSZ; ulimit -f 1; exec '{}' man --out man", env!("CARGO_BIN_EXE_grail"));
    let out = Command::new("bash").arg("-c").arg(&script).current_dir(dir.path()).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(pages.join("grail-query.1")).unwrap(), "the old page\n");
    assert_eq!(names_in(&pages), ["grail-query.1"], "no page is half written, none is new");
    ok(grail_in(dir.path(), &["man", "--out", "man"]));
    assert!(std::fs::read_to_string(pages.join("grail-query.1")).unwrap().starts_with(".ie"));
}

#[test]
fn an_index_that_is_a_fifo_is_refused_without_waiting() {
    let (dir, _) = folder_with_graph();
    let fifo = std::ffi::CString::new(dir.path().join("labels.idx").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo only creates the FIFO named by a valid C string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let mut child = Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(["query", "g.gra", "0", "9", "--index", "labels.idx"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("grail waited on the FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("labels.idx is not a regular file"), "{}", stderr(&out));
}

#[test]
fn a_missing_graph_is_named_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = grail_in(dir.path(), &["nosuch.gra"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read nosuch.gra: No such file"), "{}", stderr(&out));
}

#[test]
fn hub_lines_grail_writes_it_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    for spec in ["fan:width=200000,layers=3,seed=1", "tree:n=200001,arity=200000"] {
        ok(grail_in(dir.path(), &["gen", spec, "--out", "hub.gra"]));
        let out = ok(grail_in(dir.path(), &["info", "hub.gra", "--json"]));
        let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(info["vertices"].as_u64().unwrap() > 200_000, "{spec}: {info}");
    }
}

#[test]
fn a_tree_beyond_the_machine_memory_is_refused_in_one_line() {
    let n: u64 = 4_000_000_000;
    // Only where the machine could not hold it: elsewhere the command would build it.
    let Some(memory) = machine_memory() else { return };
    if memory >= n * 16 {
        eprintln!("note: this machine holds the tree; the refusal is not checked here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = grail_in(dir.path(), &["gen", "tree:n=4000000000,arity=2", "--out", "big.gra"]);
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(message.contains("tree: 4000000000 vertices need at least"), "{message}");
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(names_in(dir.path()).is_empty());
}

fn machine_memory() -> Option<u64> {
    // SAFETY: sysconf reads a system constant.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    (pages > 0 && size > 0).then(|| pages as u64 * size as u64)
}

#[test]
fn a_rename_that_fails_puts_back_the_outputs_already_renamed() {
    use grail::graph::io::{all_or_nothing, remove_on_success, write_atomically};
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let [one, gone, fresh, two] = ["one", "gone", "fresh", "two"].map(|name| dir.path().join(name));
    for path in [&one, &gone, &two] {
        std::fs::write(path, "old").unwrap();
    }
    let failed = all_or_nothing(|| -> anyhow::Result<()> {
        write_atomically(&one, |mut file| file.write_all(b"new"))?;
        remove_on_success(&gone)?;
        write_atomically(&fresh, |mut file| file.write_all(b"new"))?;
        write_atomically(&two, |mut file| file.write_all(b"new"))?;
        // A folder that is not empty takes the last output's place before the outputs are put in
        // place: its rename fails after the others were renamed.
        std::fs::remove_file(&two)?;
        std::fs::create_dir(&two)?;
        std::fs::write(two.join("inside"), "x")?;
        Ok(())
    });
    let message = format!("{:#}", failed.unwrap_err());
    assert!(message.contains("every output is left as it was"), "{message}");
    assert!(message.contains(&format!("cannot move the new file to {}", two.display())), "{message}");
    assert_eq!(std::fs::read_to_string(&one).unwrap(), "old");
    assert_eq!(std::fs::read_to_string(&gone).unwrap(), "old");
    assert!(two.is_dir());
    assert_eq!(names_in(dir.path()), ["gone", "one", "two"], "no new file, temporary or kept old file is left");
}
