//! State tests: keys and clicks become actions, actions change the state and queue jobs; no input
//! sequence panics, at any terminal size.

use super::common::{Harness, render};
use crate::tui::action::Tab;
use crate::tui::worker::{Job, LabelCmd};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use rand::RngExt;

#[test]
fn tabs_switch_with_digits_tab_and_backtab() {
    let mut h = Harness::new();
    assert_eq!(h.app.tab, Tab::Graph);
    h.keys("3");
    assert_eq!(h.app.tab, Tab::Query);
    h.keys("<Tab><Tab>");
    assert_eq!(h.app.tab, Tab::Exceptions);
    h.keys("<Tab>");
    assert_eq!(h.app.tab, Tab::Picture);
    assert!(matches!(h.app.outbox.last(), Some(Job::Picture(..))), "showing the picture tab draws it");
    h.keys("<Tab>");
    assert_eq!(h.app.tab, Tab::Graph);
    h.keys("<BackTab>");
    assert_eq!(h.app.tab, Tab::Picture);
}

#[test]
fn help_opens_closes_and_swallows_other_keys() {
    let mut h = Harness::new();
    h.keys("?");
    assert!(h.app.help);
    h.keys("3");
    assert_eq!(h.app.tab, Tab::Graph, "keys other than scrolling do nothing under the help");
    h.keys("<Esc>");
    assert!(!h.app.help);
    h.keys("?q");
    assert!(!h.app.help && !h.app.quit);
    h.keys("q");
    assert!(h.app.quit);
}

#[test]
fn labels_keys_queue_commands_with_the_settings() {
    let mut h = Harness::new();
    h.keys("2<Down>l<Down>h<Down><Enter>42<Enter>sfrx");
    let jobs: Vec<_> = h.app.outbox.drain(..).collect();
    let cmds: Vec<LabelCmd> = jobs
        .iter()
        .map(|j| match j {
            Job::Label(cmd, config) => {
                // One more than the default (l on 'dimensions').
                assert_eq!(config.dims, crate::backend::DEFAULT_DIMS + 1);
                // h on 'order' flipped random to lex; typing a seed switched back to random.
                assert_eq!(config.order, crate::index::Order::Random { seed: 42 });
                *cmd
            }
            other => panic!("unexpected job {other:?}"),
        })
        .collect();
    assert_eq!(cmds, vec![LabelCmd::Step, LabelCmd::FinishPhase, LabelCmd::RunToEnd, LabelCmd::Reset]);
    // Typing a seed switches back to a random order.
    assert_eq!(h.app.labels.seed, 42);
    assert!(h.app.labels.random);
}

#[test]
fn the_readme_lesson_keys_set_one_then_two_dimensions() {
    let mut h = Harness::on_sample("lesson.gra");
    h.keys("2j<Enter>1<Enter>");
    assert_eq!(h.app.labels.dims, 1);
    // Step 6: back on tab 2 the cursor is still on "dimensions".
    h.keys("6/0 10<Enter>2<Enter>2<Enter>");
    assert_eq!(h.app.labels.dims, 2);
    assert!(h.app.labels.random, "the order row was not touched");
}

#[test]
fn prompt_takes_every_key_and_esc_cancels() {
    let mut h = Harness::new();
    h.keys("o");
    assert!(h.app.prompt.is_some());
    h.keys("q1?x");
    assert!(!h.app.quit && h.app.tab == Tab::Graph);
    assert!(h.app.prompt.as_ref().unwrap().text.ends_with("q1?x"));
    h.keys("<Esc>");
    assert!(h.app.prompt.is_none());
    assert!(h.app.outbox.is_empty());
}

/// Enter as a line feed (Ctrl+J, what a terminal sends while the explorer starts) or Ctrl+M
/// accepts; other control keys type nothing.
#[test]
fn the_prompt_takes_enter_as_any_terminal_sends_it_and_types_no_control_keys() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let control = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    for enter in ['j', 'm'] {
        let mut h = Harness::new();
        h.keys("3/1 2");
        h.app.on_key(&control('x'));
        h.app.on_key(&KeyEvent::new(KeyCode::Char('y'), KeyModifiers::ALT));
        assert_eq!(h.app.prompt.as_ref().map(|p| p.text.as_str()), Some("1 2"));
        h.app.on_key(&control(enter));
        assert!(h.app.prompt.is_none(), "Ctrl+{enter} accepts");
        h.settle();
        let r = h.app.query.result.as_ref().expect("answered");
        assert_eq!((r.u, r.v), (1, 2));
    }
}

#[test]
fn a_failed_load_keeps_the_graph() {
    let mut h = Harness::new();
    h.keys("o");
    h.app.prompt.as_mut().unwrap().text = "/no/such/file.gra".into();
    h.keys("<Enter>");
    h.settle();
    let text = render(&h.app, 100, 24);
    assert!(text.contains("error: cannot load the graph: cannot read /no/such/file.gra"), "{text}");
    assert_eq!(text.matches("/no/such/file.gra").count(), 1, "the path is named once: {text}");
    assert!(text.contains("3,617"), "the old graph stays: {text}");
}

#[test]
fn loading_another_graph_replaces_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chain.txt");
    std::fs::write(&path, "0 1\n1 2\n2 3\n").unwrap();
    let mut h = Harness::new();
    h.keys("2r");
    h.settle();
    assert!(h.app.ready.is_some());
    h.keys("o");
    h.app.prompt.as_mut().unwrap().text = path.display().to_string();
    h.keys("<Enter>");
    h.settle();
    assert!(h.app.ready.is_none(), "labels of the old graph are gone");
    assert_eq!(h.app.graph.stats.vertices, 4);
    h.keys("3/0 3<Enter>");
    h.settle();
    assert!(h.app.query.result.as_ref().unwrap().answer.reachable);
}

#[test]
fn mouse_clicks_tabs_and_can_be_turned_off() {
    let mut h = Harness::new();
    let click = |x, y| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    // " grail " then " 1 Graph " " 2 Labels " ...: column 20 is on "2 Labels".
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    let mut hits = Default::default();
    terminal.draw(|f| hits = crate::tui::ui::render(f, &h.app)).unwrap();
    h.app.hits = hits;
    h.app.on_terminal(&crossterm::event::Event::Mouse(click(21, 0)));
    assert_eq!(h.app.tab, Tab::Labels);
    h.keys("m");
    assert!(!h.app.mouse);
    h.app.on_terminal(&crossterm::event::Event::Mouse(click(8, 0)));
    assert_eq!(h.app.tab, Tab::Labels, "clicks are ignored with the mouse off");
}

#[test]
fn random_input_never_panics_at_any_size() {
    let mut h = Harness::new();
    let mut rng = crate::rng::seeded(7);
    let codes = [
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Backspace,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::F(5),
    ];
    let chars: Vec<char> = "0123456789 /ixsfrehljkgGEF?m-,é".chars().collect();
    for step in 0..4000 {
        let key = if rng.random_range(0..3) == 0 {
            KeyEvent::new(codes[rng.random_range(0..codes.len())], KeyModifiers::NONE)
        } else {
            KeyEvent::new(KeyCode::Char(chars[rng.random_range(0..chars.len())]), KeyModifiers::NONE)
        };
        h.app.on_key(&key);
        // Never quit, never start expensive work: drop the queued jobs but keep the state changes.
        h.app.quit = false;
        h.app.outbox.clear();
        if step % 50 == 0 {
            let (w, hgt) = (rng.random_range(1..160), rng.random_range(1..60));
            let _ = render(&h.app, w, hgt);
            let wheel = MouseEvent {
                kind: MouseEventKind::ScrollDown,
                column: rng.random_range(0..w),
                row: rng.random_range(0..hgt),
                modifiers: KeyModifiers::NONE,
            };
            h.app.on_mouse(&wheel);
        }
    }
}

/// With a GPU offered, the Exceptions tab counts a graph past the CPU's quick range on the GPU; where
/// the GPU cannot run (a stand-in offer on a machine without one), it says so and counts on the CPU,
/// exactly, never silently.
#[test]
fn exceptions_on_an_offered_gpu_run_there_or_say_why_not() {
    use crate::exceptions::CPU_PREFERRED_LIMIT;
    use crate::tui::gpu_offer::GpuOffer;
    let n = CPU_PREFERRED_LIMIT + 1;
    let ws = crate::workspace::Workspace::of_graph(
        crate::graph::Graph::from_edges(n, &[(0, 1), (1, 2)]).unwrap(),
        "isolated.txt",
    );
    let mut h = Harness::offering(ws, GpuOffer::Present { name: "stand-in".into() });
    h.keys("5r");
    h.settle();
    let counts = &h.app.exceptions.result.as_ref().expect("counted").counts;
    assert!(counts.exact);
    // Only 0 -> 1 -> 2: every other ordered pair is unreachable.
    assert_eq!(counts.unreachable, n as u64 * (n as u64 - 1) - 3);
    let said = h.app.labels.log.iter().any(|line| line.contains("exceptions on the GPU failed"));
    match crate::gpu::probe() {
        Ok(_) => assert!(counts.device != "cpu" && !said, "counted on {}", counts.device),
        Err(_) => assert!(counts.device == "cpu" && said, "counted on {}, said {said}", counts.device),
    }
}

#[test]
fn the_batch_legend_follows_the_rules_before_a_run() {
    let mut h = Harness::new();
    h.keys("4");
    assert!(render(&h.app, 100, 30).contains("topo sup- blm lbl: cuts"));
    h.keys("R");
    let text = render(&h.app, 100, 30);
    assert!(text.contains("lbl lvl: cuts (no) · scc tree: proofs (yes)"), "{text}");
    assert!(!text.contains("topo"), "GRAIL's rules have no topological cut: {text}");
}
