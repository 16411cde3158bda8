//! The README's lesson ("A lesson, key by key") played key by key on the explorer with a real
//! worker. Every step's words are looked up in the README and its keys pressed in the same order;
//! what the words claim is then checked on the screen and in what the explorer drew, so the README
//! and the program cannot drift apart. The query explanation's sentences are checked elsewhere:
//! here only their facts (intervals, which vertices, yes or no, the dead ends drawn).

use super::common::Harness;
use crate::draw::{NodeState, Picture, PictureNode};
use crate::index::Interval;
use crate::query::Rule;
use crate::telemetry::{Backend, Phase};
use crate::tui::action::Tab;
use crate::tui::worker::PictureLabels;

const README: &str = include_str!("../../../README.md");
/// The size the README lesson was played at: the boxes are one line each, `[id label]`.
const SCREEN: (u16, u16) = (100, 30);

/// The lesson's section of the README, its words with the line breaks and indentation folded.
fn lesson_words() -> String {
    let start = README.find("### A lesson, key by key").expect("the README has the lesson");
    let rest = &README[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    fold(&rest[..end])
}

fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Fails unless the README's lesson says `words`.
fn readme_says(words: &str) {
    let lesson = lesson_words();
    assert!(lesson.contains(&fold(words)), "the README's lesson no longer says:\n  {words}\nit says:\n{lesson}");
}

struct Lesson {
    h: Harness,
}

impl Lesson {
    /// Presses `keys` and waits for every job they started.
    fn press(&mut self, keys: &str) {
        self.h.keys(keys);
        // A job's answer may start another (a query, then its picture): wait for those too.
        while !self.h.app.outbox.is_empty() {
            self.h.settle();
        }
    }

    fn screen(&mut self) -> String {
        self.h.render(SCREEN.0, SCREEN.1)
    }

    fn picture(&self) -> &Picture {
        &self.h.app.picture.result.as_ref().expect("the picture is drawn").picture
    }

    fn node(&self, v: u32) -> &PictureNode {
        let picture = self.picture();
        &picture.nodes[picture.node_of(v).unwrap_or_else(|| panic!("vertex {v} is drawn"))]
    }

    fn interval(&self, v: u32) -> Interval {
        self.node(v).interval.unwrap_or_else(|| panic!("vertex {v} shows an interval"))
    }

    /// The drawn vertices in `state`, by id.
    fn in_state(&self, wanted: impl Fn(NodeState) -> bool) -> Vec<u32> {
        let mut ids: Vec<u32> = self.picture().nodes.iter().filter(|n| wanted(n.state)).map(|n| n.vertex).collect();
        ids.sort_unstable();
        ids
    }

    fn frontier(&self) -> Vec<u32> {
        self.in_state(|s| matches!(s, NodeState::Frontier(_)))
    }

    /// Where the run stands: the first unfinished dimension's phase and next level.
    fn position(&self) -> Option<(Phase, usize)> {
        let status = self.h.app.labels.status.as_ref()?;
        status.positions.first().map(|p| (p.phase, p.level))
    }
}

fn contains(outer: Interval, inner: Interval) -> bool {
    outer.contains(inner)
}

#[test]
fn the_readme_lesson_is_what_the_class_sees() {
    readme_says("`grail sample-graphs/lesson.gra` opens a 12-vertex DAG made for class.");
    let mut l = Lesson { h: Harness::on_sample("lesson.gra") };
    assert_eq!(l.h.app.ws.loaded.graph.num_vertices(), 12);

    // 1. One dimension, on the CPU pipeline.
    readme_says("1. `2`, then `j` `Enter` `1` `Enter`: one dimension, the CPU pipeline");
    l.press("2j<Enter>1<Enter>");
    assert_eq!((l.h.app.tab, l.h.app.labels.dims, l.h.app.labels.backend), (Tab::Labels, 1, Backend::Cpu));
    let screen = l.screen();
    assert!(screen.contains("CPU pipeline"), "{screen}");

    // 2. The picture: twelve boxes in six layers, nothing labeled.
    readme_says("2. `6`: the picture. Twelve boxes in six layers, no labels yet.");
    l.press("6");
    assert_eq!(l.h.app.tab, Tab::Picture);
    assert_eq!((l.picture().nodes.len(), l.picture().layers), (12, 6));
    assert!(l.picture().nodes.iter().all(|n| n.interval.is_none() && n.step.is_none()), "no labels yet");
    let screen = l.screen();
    assert!(screen.contains("[0]") && screen.contains("[11]") && !screen.contains('·'), "{screen}");

    // 3. Six steps of parent selection, one Kahn level each; the sixth ends the phase.
    readme_says(
        "3. `s` six times: parent selection, one Kahn level per key; the sixth ends the phase. The level \
         just run is highlighted, and each of its vertices gets a bold edge from the parent the DFS would \
         discover it from.",
    );
    let roots = [0, 5];
    let mut frontiers = Vec::new();
    for step in 1..=6 {
        l.press("s");
        let frontier = l.frontier();
        assert!(!frontier.is_empty(), "step {step}: the level just run is highlighted");
        for &v in &frontier {
            let parent = l.node(v).step.and_then(|s| s.parent);
            assert_eq!(parent.is_none(), roots.contains(&v), "step {step}: vertex {v}'s parent");
        }
        let caption = l.picture().notes.join(" ");
        assert!(caption.contains("parent selection"), "step {step}: {caption}");
        let expected = if step < 6 { (Phase::ParentSelection, step) } else { (Phase::SubtreeSizes, 0) };
        assert_eq!(l.position(), Some(expected), "step {step}");
        frontiers.push((frontier, l.picture().clone()));
    }
    assert_eq!(l.in_state(|_| true).len(), 12);
    assert!(l.picture().nodes.iter().all(|n| n.step.is_some_and(|s| s.size.is_none())), "no sizes yet");

    // A step back shows the fifth level again, exactly as it was; `s` runs the sixth again.
    readme_says(
        "`b` goes one level back (the run is replayed from the start to the level before) and `s` runs \
         that level again.",
    );
    l.press("b");
    assert_eq!(l.position(), Some((Phase::ParentSelection, 5)));
    assert_eq!(l.picture(), &frontiers[4].1, "after b, the picture of five steps");
    let screen = l.screen();
    assert!(screen.contains("stepped back one level (5 levels run)"), "{screen}");
    l.press("s");
    assert_eq!(l.picture(), &frontiers[5].1, "s runs the sixth level again");

    // 4. Three `f`: sizes, post-order numbers, min-posts; then the labels are ready.
    readme_says("4. `f`: subtree sizes, bottom-up;");
    l.press("f");
    assert!(l.picture().nodes.iter().all(|n| n.step.is_some_and(|s| s.size.is_some() && s.post.is_none())));
    assert_eq!(l.node(0).step.and_then(|s| s.size), Some(7));
    assert!(l.screen().contains("[0 size 7]"));
    // Bottom-up, the phase's last level is the DFS tree's virtual root, which no box stands for:
    // the caption says so instead of naming a frontier the picture does not highlight.
    assert!(l.frontier().is_empty());
    let caption = l.picture().notes.join(" ");
    assert!(caption.contains("the level just run is the DFS tree's virtual root above the roots"), "{caption}");

    readme_says(
        "`f` again: post-order numbers land top-down (`[·, 12]` on vertex 0; where the boxes show only their \
         ids, `p` hides the side panel to make room for the numbers);",
    );
    l.press("f");
    assert!(l.picture().nodes.iter().all(|n| n.step.is_some_and(|s| s.post.is_some() && s.low.is_none())));
    let screen = l.screen();
    assert!(screen.contains("0 [·, 12]"), "{screen}");
    // On the smallest terminal the boxes show ids only and the side panel says how to see the
    // numbers; without the panel they are there.
    let small = l.h.render(80, 24);
    assert!(!small.contains("0 [·, 12]") && small.contains("p makes room"), "{small}");
    l.press("p");
    let small = l.h.render(80, 24);
    assert!(small.contains("0 [·, 12]"), "{small}");
    l.press("p");

    readme_says("`f` once more: min-posts fill the intervals in, bottom-up, and the labels are ready.");
    l.press("f");
    assert!(l.h.app.ready.is_some(), "three f after six s finish the labels");
    assert!(l.picture().nodes.iter().all(|n| n.interval.is_some()));
    assert!(l.screen().contains("0 [1, 12]"));
    readme_says("(After fewer than six `s`, a first `f` ends parent selection.)");

    // 5. 0 ⇝ 10 with one dimension: a topological order with every rule; with GRAIL's, nested
    // intervals and a search that walks dead ends, no.
    readme_says(
        "5. `/0 10` `Enter`: does 0 reach 10? With every rule (the default) a topological order answers no \
         at once.",
    );
    l.press("/0 10<Enter>");
    let answer = &l.h.app.query.result.as_ref().expect("the query was answered").answer;
    assert_eq!((answer.reachable, answer.rule), (false, Rule::TopoCut));
    let caption = l.picture().notes.iter().find(|n| n.contains("no (all rules), decided by topo-cut")).cloned();
    let caption = caption.expect("the caption names the deciding rule");
    // The caption reads the order that cut, once, and not the order that could not tell.
    assert!(caption.contains("decided by topo-cut (order 1): 0 at 2, 10 at 1"), "{caption}");
    assert!(!caption.contains("order 2"), "{caption}");
    readme_says(
        "`R` switches every tab to GRAIL's rules and asks again: both intervals are nested (`[1, 12]` \
         holds `[4, 4]`), so the labels cannot say no, and the search walks 5 dead ends (u itself \
         and the 4 marked ✗: vertices it entered that cannot reach v) before it answers no.",
    );
    l.press("R");
    assert_eq!((l.interval(0), l.interval(10)), (Interval { low: 1, post: 12 }, Interval { low: 4, post: 4 }));
    assert!(contains(l.interval(0), l.interval(10)));
    let answer = &l.h.app.query.result.as_ref().expect("the query was answered again").answer;
    assert_eq!((answer.reachable, answer.rule, answer.false_positives), (false, Rule::Search, 5));
    assert_eq!((l.node(0).state, l.node(10).state), (NodeState::Source, NodeState::Target));
    assert_eq!(l.in_state(|s| s == NodeState::DeadEnd), [1, 2, 4, 6], "the dead ends drawn besides u");
    let notes = l.picture().notes.join(" | ");
    assert!(notes.contains("5 dead ends: u itself (▶), 4 marked ✗"), "{notes}");
    assert!(notes.contains("no (grail rules), decided by a search"), "{notes}");
    let screen = l.screen();
    assert!(screen.contains("0 [1, 12]") && screen.contains("10 [4, 4]"), "{screen}");

    // 6. Two dimensions: in dimension 1, 10's interval lies outside 0's.
    readme_says(
        "6. `2`, `Enter` `2` `Enter` (the cursor is still on \"dimensions\"), `6`, `r`: a second dimension. \
         Now `]` shows dimension 1, where 10's interval lies outside 0's: the label cut answers at once, and \
         no false positive is left.",
    );
    l.press("2<Enter>2<Enter>6r");
    assert_eq!(l.h.app.labels.dims, 2);
    assert!(l.h.app.ready.is_some());
    l.press("]");
    assert_eq!((l.picture().dim, l.picture().dims), (1, Some(2)));
    assert!(!contains(l.interval(0), l.interval(10)), "dimension 1 cuts 0 ⇝ 10");
    let searched = l.in_state(|s| matches!(s, NodeState::DeadEnd | NodeState::Expanded | NodeState::Path));
    assert!(searched.is_empty(), "the label cut answers before any search: {searched:?}");
    let answer = &l.h.app.query.result.as_ref().expect("the query was answered again").answer;
    assert_eq!((answer.rule, answer.witness), (Rule::LabelCut, Some(1)), "the label cut of dimension 1");
    let screen = l.screen();
    assert!(screen.contains("dimension 1 of 2"), "{screen}");

    // 7. The exceptions: every one is fooled by a single dimension; the first is 0 ⇝ 10.
    readme_says("7. `5`, `r`: the exceptions of d = 1..5 counted exactly (all of them d = 1).");
    l.press("5r");
    let counts = &l.h.app.exceptions.result.as_ref().expect("counted").counts;
    assert!(counts.exact);
    assert!(counts.false_positives[0] > 0);
    assert!(counts.false_positives[1..].iter().all(|&c| c == 0), "{:?}", counts.false_positives);

    readme_says(
        "`Enter`: the first pair, 0 ⇝ 10, on the picture with its own d = 1 labels: nested intervals and the \
         search's dead ends. The side panel says the Labels tab's d = 2 labels differ (their dimension 1 cuts \
         it); `r` goes back.",
    );
    l.press("<Enter>");
    assert_eq!(l.h.app.tab, Tab::Picture);
    assert_eq!(l.h.app.picture.labels, PictureLabels::Exception { dims: 1, seed: 1 });
    assert_eq!((l.node(0).state, l.node(10).state), (NodeState::Source, NodeState::Target));
    assert!(contains(l.interval(0), l.interval(10)), "nested in the exception's labels");
    assert!(!l.in_state(|s| s == NodeState::DeadEnd).is_empty(), "the search's dead ends");
    let screen = l.screen();
    assert!(screen.contains("the Labels tab's differ") && screen.contains("= 2, random order, seed 1"), "{screen}");
    l.press("r");
    assert_eq!(l.h.app.picture.labels, PictureLabels::Session);
    assert_eq!(l.picture().dims, Some(2));
}
