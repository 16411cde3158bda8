//! What a query's record of decision and the sentences rendered from it may claim: checked on
//! every answer the property tests make (`query_properties.rs`).

use grail::format::plural;
use grail::graph::scc::Condensation;
use grail::index::Labels;
use grail::query::explain::{self, Names};
use grail::query::{Answer, Check, Decided, Engine, Method, Outcome, QueryIndex, Rule, Scratch};

/// `Engine::decide` on `u ⇝ v` gives `answer` (the engine's plain answer, path included), its
/// record holds only checks that ran, in the rule set's order, each reading the real labels and
/// index, and every sentence rendered from it says only what the record holds.
#[allow(clippy::too_many_arguments)]
pub fn check_decision(
    engine: &Engine,
    c: &Condensation,
    labels: &Labels,
    index: Option<&QueryIndex>,
    (u, v): (u32, u32),
    method: Method,
    answer: &Answer,
    scratch: &mut Scratch,
) {
    let Decided { answer: decided, decision, trace } = engine.decide(u, v, method, scratch, usize::MAX);
    let at = format!("{method} {u}->{v}");
    assert_eq!(&decided, answer, "{at}: decide and query disagree");
    assert_eq!((decision.rule(), decision.reachable()), (answer.rule, answer.reachable), "{at}");
    assert_eq!(trace.nodes.is_empty(), answer.rule != Rule::Search, "{at}: a trace only for a search");
    let (cu, cv) = (c.component[u as usize], c.component[v as usize]);
    assert_eq!(decision.ends, (cu, cv));

    // The checks that ran: the rule set's order, every one undecided but the last.
    let ran: Vec<Rule> = decision.checks.iter().map(Check::rule).collect();
    let mut expected: Vec<Rule> = engine.rule_set().rules().iter().copied().filter(|&r| r != Rule::Search).collect();
    if !method.is_guided() {
        expected.truncate(1);
    }
    expected.push(Rule::Search);
    let cheap = ran.iter().filter(|&&r| r != Rule::Search).count();
    assert_eq!(&ran[..cheap], &expected[..cheap], "{at}: checks out of order");
    if ran.last() == Some(&Rule::Search) {
        assert_eq!(ran, expected, "{at}: a search only after every check");
    }
    let (last, before) = decision.checks.split_last().unwrap();
    assert!(before.iter().all(|c| c.outcome() == Outcome::Undecided), "{at}: {decision:?}");
    assert_ne!(last.outcome(), Outcome::Undecided, "{at}");

    // Each check read the real data and found what is there.
    for check in &decision.checks {
        match check {
            Check::Component { u, v } => assert_eq!((*u, *v), (cu, cv)),
            Check::Level { u, v } => assert_eq!((*u, *v), (labels.level(cu), labels.level(cv))),
            Check::Labels { u, v, cut } => {
                assert_eq!((u.as_slice(), v.as_slice()), (labels.of(cu), labels.of(cv)));
                assert_eq!(*cut, labels.cutting_dimension(cu, cv), "{at}");
            }
            Check::Tree { dimension } => assert_eq!(*dimension, labels.tree_dimension(cu, cv), "{at}"),
            Check::TopoOrders { u, v, cut } => {
                let index = index.expect("topological orders only with the query index");
                assert_eq!((u.as_slice(), v.as_slice()), (&index.topo(cu)[..], &index.topo(cv)[..]));
                assert_eq!(*cut, u.iter().zip(v).position(|(a, b)| a >= b), "{at}");
            }
            Check::SupportiveCut { .. } | Check::BloomCut { .. } | Check::SupportivePath { .. } => {
                assert!(index.is_some(), "{at}: the query index's checks need it");
            }
            Check::Search { reachable, expanded, pruned, dead_ends, method: m, before_labels } => {
                assert_eq!((*m, *before_labels), (method, false));
                let got = (*reachable, *expanded, *pruned, *dead_ends);
                assert_eq!(got, (answer.reachable, answer.expanded, answer.pruned, answer.false_positives), "{at}");
            }
        }
    }

    // The sentences claim nothing the record does not hold.
    let vertex = |x: u32| format!("c{x}");
    let names = Names { u: format!("u{u}"), v: format!("v{v}"), vertex: &vertex };
    let sentence = explain::sentence(&decision, &names);
    let caption = explain::caption(&decision, &names);
    let says_maybe = sentence.contains("labels alone say \"maybe\"");
    let labels_passed = matches!(decision.ran(Rule::LabelCut), Some(Check::Labels { cut: None, .. }));
    assert_eq!(says_maybe, labels_passed, "{at}: {sentence}");
    if says_maybe {
        assert!(labels.may_reach(cu, cv), "{at}: 'fit in every dimension' on labels that do not");
    }
    if sentence.contains("is not inside") {
        let d = labels.cutting_dimension(cu, cv).expect("a label cut names a dimension that cuts");
        assert_eq!(answer.rule, Rule::LabelCut, "{at}: {sentence}");
        assert!(sentence.contains(&format!("In dimension {d},")), "{at}: {sentence}");
    }
    if sentence.contains(" is on level ") {
        assert_eq!(answer.rule, Rule::LevelCut, "{at}: {sentence}");
        let claim = format!("u{u} is on level {} and v{v} on level {}", labels.level(cu), labels.level(cv));
        assert!(sentence.contains(&claim), "{at}: {sentence}");
    }
    let verdict = if answer.reachable { "yes" } else { "no" };
    let head = format!("? {verdict} ({} rules), decided by", engine.rule_set());
    assert!(caption.contains(&head), "{at}: {caption}");
    if answer.rule == Rule::Search {
        let dead = plural(answer.false_positives, "dead end", "dead ends");
        assert!(caption.contains(&dead), "{at}: {caption}");
        let of_them = match (answer.false_positives, answer.expanded) {
            (0, 1) => "not a dead end".to_string(),
            (0, _) => "none of them a dead end".to_string(),
            (1, 1) => "a dead end".to_string(),
            (n, _) => format!("{} of them", grail::format::thousands(n)),
        };
        let expanded = plural(answer.expanded, "vertex", "vertices");
        assert!(sentence.contains(&format!("It expanded {expanded}, {of_them}")), "{at}: {sentence}");
    } else {
        assert!(caption.contains(answer.rule.name()), "{at}: {caption}");
        assert!(!sentence.contains("dead end"), "{at}: {sentence}");
    }

    // JSON: no field that reads as a cut on a yes; the decisive check's outcome is the answer.
    let json = serde_json::to_value(&decided).unwrap();
    assert!(json.get("witness").is_none() && json.get("cut_dimension").is_none(), "{at}: {json}");
    let record = serde_json::to_value(&decision).unwrap();
    let outcome = &record["checks"].as_array().unwrap().last().unwrap()["outcome"];
    assert_eq!(outcome, if answer.reachable { "yes" } else { "no" }, "{at}: {record}");
}
