//! The status line says what is true now: a message lasts until the next action, a long one is
//! shown whole, a labeling run says whether it runs or waits; and the Batch tab's counts keep their
//! units at every width.

use super::common::Harness;
use crate::backend::LabelSpec;
use crate::format::thousands;
use crate::index::labeler::{Position, Status};
use crate::query::Rule;
use crate::telemetry::{Backend, Phase};
use crate::tui::app::Note;
use crate::tui::views::batch_results::{compact, tight};
use crate::tui::worker::{LabelStatus, Msg, labeling::DEFAULT_CONFIG};

/// The status rows: everything between the body's last panel border and the footer.
fn status_text(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let footer = rows.len() - 1;
    let first = (0..footer).rev().find(|&i| rows[i].contains('╯') || rows[i].contains('┘')).map_or(footer, |i| i + 1);
    rows[first..footer].iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ")
}

#[test]
fn an_error_lasts_until_the_next_action() {
    let mut h = Harness::new();
    h.keys("3/1<Enter>");
    assert!(status_text(&h.render(80, 24)).contains("type two vertex ids"));
    // A good query afterwards: the error is gone.
    h.keys("/1 2<Enter>");
    h.settle();
    let status = status_text(&h.render(80, 24));
    assert!(!status.contains("error"), "{status}");
    // Nor does it follow into another tab.
    h.keys("/1<Enter>");
    assert!(status_text(&h.render(80, 24)).contains("type two vertex ids"));
    h.keys("4");
    let status = status_text(&h.render(80, 24));
    assert!(!status.contains("type two vertex ids"), "{status}");
}

#[test]
fn a_long_error_is_shown_whole_at_80_columns() {
    let mut h = Harness::new();
    h.keys("o");
    h.app.prompt.as_mut().unwrap().text = "sample-graphs/there-is-no-graph-of-this-rather-long-name.gra".into();
    h.keys("<Enter>");
    h.settle();
    let Some(Note::Error(error)) = h.app.note.clone() else { panic!("an error: {:?}", h.app.note) };
    assert!(error.len() > 80, "a message longer than a row: {error}");
    let screen = h.render(80, 24);
    let status = status_text(&screen);
    let words: Vec<&str> = error.split(' ').collect();
    assert_eq!(status, format!("error: {}", words.join(" ")), "{screen}");
    assert!(status.ends_with("(kept sample-graphs/kegg.gra)"), "{status}");
}

#[test]
fn batch_done_goes_with_the_next_action() {
    let mut h = Harness::new();
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>500<Enter>r");
    h.settle();
    assert!(status_text(&h.render(80, 24)).contains("batch done"));
    h.keys("5");
    assert!(!status_text(&h.render(80, 24)).contains("batch done"));
}

#[test]
fn a_stepped_run_says_where_it_waits_and_which_keys_go_on() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("6s");
    h.settle();
    let status = status_text(&h.render(120, 24));
    assert!(status.contains("labeling paused at dim 0"), "{status}");
    assert!(status.contains("s steps, f ends the phase, r runs to the end, x resets"), "{status}");
    assert!(!status.contains("no labels yet"), "{status}");
    // At 80 columns a shorter form, still one row: the picture above keeps its place.
    let screen = h.render(80, 24);
    let rows: Vec<&str> = screen.lines().collect();
    let status = rows[rows.len() - 2];
    assert!(status.contains("labeling paused at dim 0") && status.contains("s f r x"), "{screen}");
    assert!(rows[rows.len() - 3].contains('╯'), "the status line takes one row: {screen}");
    h.keys("2");
    assert!(h.render(80, 24).contains("paused: dim 0"));
}

#[test]
fn a_run_in_progress_reads_running_not_paused() {
    let mut h = Harness::new();
    let config: LabelSpec = DEFAULT_CONFIG;
    let running = LabelStatus {
        config,
        backend: Backend::Cpu,
        fallback: None,
        status: Status::Running,
        positions: vec![Position { dim: 1, phase: Phase::ParentSelection, level: 7 }],
        seconds: 1.0,
        in_progress: true,
    };
    h.app.on_worker(Msg::Busy { what: "labeling to the end".into(), cancellable: true });
    h.app.on_worker(Msg::LabelState(Box::new(running)));
    assert!(h.app.labels.summary().starts_with("running: dim 1"), "{}", h.app.labels.summary());
    h.keys("2");
    let screen = h.render(100, 30);
    assert!(!screen.contains("paused"), "{screen}");
    assert!(status_text(&screen).contains("labeling to the end · dim 1"), "{screen}");
    // When the worker goes idle, the run waits for the next command.
    h.app.on_worker(Msg::Idle);
    assert!(h.app.labels.summary().starts_with("paused: dim 1"), "{}", h.app.labels.summary());
}

#[test]
fn batch_counts_keep_their_unit_at_every_width() {
    let mut h = Harness::new();
    h.keys("4r");
    h.settle();
    let result = h.app.batch.result.clone().expect("a batch result");
    let level = result.rows[0].report.by_rule.get(Rule::LevelCut);
    assert!(level >= 10_000, "a count that needs a unit: {level}");
    let wide = h.render(200, 60);
    assert!(wide.contains(&thousands(level)), "whole at 200 wide: {wide}");
    assert!(wide.contains(" level ") && wide.contains(" search "), "full titles at 200 wide: {wide}");
    let narrow = h.render(80, 24);
    assert!(
        narrow.contains(&format!(" {} ", compact(level))) || narrow.contains(&format!(" {} ", tight(level))),
        "{narrow}"
    );
    // The table spreads over the panel: the last column ends near its right edge.
    let header = wide.lines().find(|l| l.contains("wrong")).expect("the header");
    assert!(header.find("wrong").unwrap() > 150, "{header}");
}

#[test]
fn the_export_names_dead_ends_apart_from_false_positive_queries() {
    let mut h = Harness::new();
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>500<Enter>r");
    h.settle();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("out");
    h.keys("x");
    h.app.prompt.as_mut().unwrap().text = base.display().to_string();
    h.keys("<Enter>");
    h.settle();
    let csv = std::fs::read_to_string(base.with_extension("csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.contains(",searched_negatives,searched_negative_rate,"), "{header}");
    assert!(header.contains(",dead_ends,dead_end_rate,"), "{header}");
    assert!(!header.contains("false_positive"), "{header}");
    let json = std::fs::read_to_string(base.with_extension("json")).unwrap();
    assert!(json.contains("\"dead_end_rate\"") && !json.contains("false_positive"), "{json}");
}

#[test]
fn an_export_asks_before_it_replaces_files() {
    let mut h = Harness::new();
    h.keys("4<Down><Enter><Bksp><Bksp><Bksp><Bksp><Bksp><Bksp>200<Enter>r");
    h.settle();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("out");
    std::fs::write(base.with_extension("csv"), "keep me").unwrap();
    h.keys("x");
    h.app.prompt.as_mut().unwrap().text = base.display().to_string();
    h.keys("<Enter>");
    h.settle();
    // Not written: the prompt is back, naming the file that exists.
    assert_eq!(std::fs::read_to_string(base.with_extension("csv")).unwrap(), "keep me");
    assert!(!base.with_extension("json").exists());
    let prompt = h.app.prompt.as_ref().expect("the prompt asks again");
    assert!(prompt.title.contains("out.csv exists: Enter replaces it"), "{}", prompt.title);
    // Enter on the same name replaces it.
    h.keys("<Enter>");
    h.settle();
    assert!(std::fs::read_to_string(base.with_extension("csv")).unwrap().starts_with("run,method,"));
    assert!(base.with_extension("json").exists());
}

/// An exception drawn on the picture with the labels it was counted with: the status line says
/// whose labels are drawn, never "no labels yet".
#[test]
fn an_exception_on_the_picture_names_its_own_labels() {
    let mut h = Harness::new();
    h.keys("5r");
    h.settle();
    h.keys("<Enter>");
    h.settle();
    let status = status_text(&h.render(120, 36));
    assert!(status.contains("drawn with the exception's own labels (d = "), "{status}");
    assert!(status.contains("the Labels tab has none yet") && !status.contains("no labels yet"), "{status}");
}

/// `c` during a short job says it cannot stop it; once the job is over, that no longer holds and
/// the line goes.
#[test]
fn a_refusal_to_cancel_goes_with_its_job() {
    let mut h = Harness::new();
    h.app.on_worker(Msg::Busy { what: "finishing the query index".into(), cancellable: false });
    h.keys("c");
    assert!(status_text(&h.render(100, 30)).contains("cannot be cancelled"));
    h.app.on_worker(Msg::Idle);
    assert!(!h.render(100, 30).contains("cannot be cancelled"));
}
