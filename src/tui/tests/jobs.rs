//! Long jobs in the explorer, through the keys and a real worker: loading reports the bytes read
//! and stops on `c`, keeping the graph that was open; the help opens where you are; path prompts
//! start in the graph's folder.

use super::common::Harness;
use crate::tui::action::{Action, Tab};
use crate::tui::app::Note;
use crate::tui::event::AppEvent;
use crate::tui::state::prompt::PromptKind;
use crate::tui::worker::Msg;
use std::time::Duration;

/// A chain of `edges` edges as an edge list, some tens of megabytes: long enough to read that a
/// cancel lands while it is read.
fn big_edge_list(dir: &std::path::Path, edges: u32) -> std::path::PathBuf {
    let text: String = (0..edges).map(|i| format!("{i} {}\n", i + 1)).collect();
    let path = dir.join("big-chain.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn c_stops_a_load_and_the_open_graph_stays() {
    let dir = tempfile::tempdir().unwrap();
    let path = big_edge_list(dir.path(), 3_000_000);
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("o");
    let typed = path.display().to_string();
    h.keys(&typed);
    h.keys("<Enter>");
    let jobs: Vec<_> = h.app.outbox.drain(..).collect();
    assert_eq!(jobs.len(), 1, "o queues one load");
    for job in jobs {
        h.worker.send(job);
    }
    // Wait for the first report of bytes read, then press c as a user would.
    let mut pressed = false;
    loop {
        let event = h.rx.recv_timeout(Duration::from_secs(120)).expect("the worker answers");
        let AppEvent::Worker(msg) = event else { continue };
        let idle = matches!(msg, Msg::Idle);
        let progress = matches!(msg, Msg::Progress(_));
        h.app.on_worker(msg);
        if progress && !pressed {
            let busy = h.app.busy.as_ref().expect("loading is a job");
            assert!(busy.cancellable, "a load can be cancelled");
            assert!(busy.what.contains("of") && busy.what.contains("read"), "{}", busy.what);
            let status = h.render(120, 30);
            assert!(status.contains("(c cancels)"), "{status}");
            h.keys("c");
            assert!(h.app.cancel_requested);
            h.worker.cancel();
            pressed = true;
        }
        if idle {
            break;
        }
    }
    assert!(pressed, "the load reported its progress");
    assert_eq!(h.app.ws.loaded.graph.num_vertices(), 12, "the lesson graph stays open");
    match &h.app.note {
        Some(Note::Info(text)) => {
            assert!(text.contains("cancelled") && text.contains("lesson.gra stays open"), "{text}")
        }
        other => panic!("a cancelled load says so: {other:?}"),
    }
}

#[test]
fn a_load_that_is_not_cancelled_reports_its_bytes_and_opens_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let path = big_edge_list(dir.path(), 200_000);
    let mut h = Harness::on_sample("lesson.gra");
    h.app.outbox.push(crate::tui::worker::Job::Load(path));
    h.settle();
    assert_eq!(h.app.ws.loaded.graph.num_edges(), 200_000);
    assert!(matches!(&h.app.note, Some(Note::Info(t)) if t.starts_with("opened")), "{:?}", h.app.note);
}

#[test]
fn help_opens_on_the_current_tabs_keys_and_g_and_capital_g_jump() {
    let mut h = Harness::new();
    h.keys("6?");
    let text = h.render(80, 24);
    let first = text.lines().find(|l| l.contains(" tab") || l.contains("Everywhere")).unwrap_or_default();
    assert!(first.contains("Picture tab"), "the Picture tab's keys come first:\n{text}");
    h.keys("G");
    let bottom = h.render(80, 24);
    assert!(bottom.contains("Mouse: click tabs"), "G shows the end:\n{bottom}");
    // Up from the end moves at once (it starts from what is shown, not from past the end).
    h.keys("k");
    let up = h.render(80, 24);
    assert_ne!(up, bottom, "k scrolls up from the bottom");
    h.keys("g");
    assert_eq!(h.render(80, 24), text, "g goes back to the top");
    h.app.apply(Action::Bottom);
    h.keys("<Esc>");
    assert!(!h.app.help);
    assert_eq!(h.app.tab, Tab::Picture);
}

#[test]
fn the_query_file_prompt_starts_in_the_graphs_folder() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("4F");
    let prompt = h.app.prompt.as_ref().expect("F opens a prompt");
    assert_eq!(prompt.kind, PromptKind::QueryFile);
    assert_eq!(prompt.text, "sample-graphs/");
    assert!(prompt.fresh, "typing a path replaces it, Tab completes from it");
}

#[test]
fn a_cancelled_batch_says_so_as_news_not_as_an_error() {
    // The bundled graph and 100,000 pairs: each run takes long enough that the cancel lands before
    // the last one starts.
    let mut h = Harness::new();
    h.keys("4");
    h.run_every_batch_run();
    for job in h.app.outbox.drain(..).collect::<Vec<_>>() {
        h.worker.send(job);
    }
    // Cancel at the first run's progress: the next run does not start.
    let mut cancelled = false;
    loop {
        let event = h.rx.recv_timeout(Duration::from_secs(120)).expect("the worker answers");
        let AppEvent::Worker(msg) = event else { continue };
        let (idle, progress) = (matches!(msg, Msg::Idle), matches!(msg, Msg::Progress(_)));
        h.app.on_worker(msg);
        if progress && !cancelled {
            h.worker.cancel();
            cancelled = true;
        }
        if idle {
            break;
        }
    }
    assert!(cancelled, "the batch reported its progress");
    match &h.app.note {
        Some(Note::Info(text)) => assert!(text.contains("batch cancelled"), "{text}"),
        other => panic!("a cancelled batch says so: {other:?}"),
    }
}
