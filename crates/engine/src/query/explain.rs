//! Plain sentences for a query's [`Decision`]: what each check read and why the last one settles
//! the query. `grail query` (text and JSON), the explorer's Query tab and the picture's caption all
//! render from here, so every claim they make is read off the record of the checks that ran.

use super::answer::{Rule, RuleSet};
use super::decision::{Check, Decision, Filter, Outcome, Separation, Supportive};
use crate::format::{plural, thousands};

/// How a decision names things: the query's ends as the user typed them, and a DAG vertex (a
/// supportive vertex) by one of its file ids.
pub struct Names<'a> {
    /// The source as the user typed it.
    pub u: String,
    /// The destination as the user typed it.
    pub v: String,
    /// Names a DAG vertex by one of its file ids (a supportive vertex in a sentence).
    pub vertex: &'a dyn Fn(u32) -> String,
}

/// A DAG vertex (a strongly connected component) as the explanations name it: by the label of one
/// of its vertices, with how many more it holds (`alice (+2 in its SCC)`).
pub fn component_label(vertex: String, size: u32) -> String {
    if size > 1 { format!("{vertex} (+{} in its SCC)", size - 1) } else { vertex }
}

impl Names<'static> {
    /// The query's ends as given and every other vertex by its DAG id: for graphs whose file ids
    /// are the DAG's own (a DAG with dense ids).
    pub fn by_dag_id(u: u64, v: u64) -> Names<'static> {
        fn dag_id(c: u32) -> String {
            c.to_string()
        }
        Names { u: u.to_string(), v: v.to_string(), vertex: &dag_id }
    }
}

impl Names<'_> {
    /// A supportive vertex by name: as the user typed the query's end when it is that end's
    /// component (`ends`: the DAG vertices of u and v), so that every view names it alike.
    fn supportive(&self, s: &Supportive, ends: (u32, u32)) -> String {
        match s.vertex {
            Some(x) if x == ends.0 => self.u.clone(),
            Some(x) if x == ends.1 => self.v.clone(),
            Some(x) => (self.vertex)(x),
            None => format!("#{}", s.bit),
        }
    }
}

/// The answer in one word, as the views print it.
pub fn verdict_word(decision: &Decision) -> &'static str {
    if decision.reachable() { "yes" } else { "no" }
}

/// `label-cut (dimension 2)`: the deciding rule with the part that proved it, as the headline
/// names it.
pub fn rule_with_witness(decision: &Decision) -> String {
    let rule = decision.rule();
    match decision.decisive() {
        Check::Labels { cut: Some(d), .. } | Check::Tree { dimension: Some(d) } => format!("{rule} (dimension {d})"),
        Check::TopoOrders { cut: Some(o), .. } => format!("{rule} (order {})", o + 1),
        _ => rule.to_string(),
    }
}

/// One short line per check, in the order they ran: the rule, what it read, and its outcome.
pub fn trail(decision: &Decision, names: &Names) -> Vec<(Rule, String, Outcome)> {
    decision.checks.iter().map(|c| (c.rule(), reading(c, names, decision.ends), c.outcome())).collect()
}

/// How an outcome reads in a trail: "yes", "no", or "go on" for a check that could not tell.
pub fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Yes => "yes",
        Outcome::No => "no",
        Outcome::Undecided => "go on",
    }
}

/// The trail on one line: `checked in order: same-component, level-cut, topo-cut → no` (every
/// check but the last could not tell).
pub fn trail_line(decision: &Decision) -> String {
    let steps: Vec<&str> = decision.checks.iter().map(|c| c.rule().name()).collect();
    format!("checked in order: {} → {}", steps.join(", "), verdict_word(decision))
}

/// What a check read, in a few words (for the trail).
fn reading(check: &Check, n: &Names, ends: (u32, u32)) -> String {
    let (u, v) = (&n.u, &n.v);
    match check {
        Check::Component { u: cu, v: cv } if cu == cv => format!("{u} and {v} share a component"),
        Check::Component { .. } => "different components".into(),
        Check::Level { u: lu, v: lv } => format!("level {lu} → {lv}"),
        Check::TopoOrders { u: pu, v: pv, .. } => {
            let orders: Vec<String> = pu
                .iter()
                .zip(pv)
                .enumerate()
                .map(|(i, (a, b))| {
                    format!("order {}: {u} at {}, {v} at {}", i + 1, thousands(u64::from(*a)), thousands(u64::from(*b)))
                })
                .collect();
            orders.join("; ")
        }
        Check::SupportiveCut { found: Some((s, _)) } => format!("{} separates them", n.supportive(s, ends)),
        Check::SupportiveCut { found: None } => "no supportive vertex separates them".into(),
        Check::BloomCut { found: Some((filter, bit)) } => format!("{} filter, bit {bit}", filter_name(*filter)),
        Check::BloomCut { found: None } => "no filter bit refutes it".into(),
        Check::SupportivePath { found: Some(s) } => format!("through {}", n.supportive(s, ends)),
        Check::SupportivePath { found: None } => "no supportive vertex in between".into(),
        Check::Labels { cut: Some(d), .. } => format!("L({v}) ⊄ L({u}) in dimension {d}"),
        Check::Labels { u: iu, .. } if iu.len() == 1 => format!("L({v}) ⊆ L({u}) in its one dimension"),
        Check::Labels { u: iu, .. } => format!("L({v}) ⊆ L({u}) in all {} dimensions", iu.len()),
        Check::Tree { dimension: Some(d) } => format!("{v} in {u}'s DFS subtree, dimension {d}"),
        Check::Tree { dimension: None } => format!("{v} in none of {u}'s DFS subtrees"),
        Check::Search { expanded, dead_ends, .. } => {
            format!("{} expanded, {}", thousands(*expanded), plural(*dead_ends, "dead end", "dead ends"))
        }
    }
}

fn filter_name(filter: Filter) -> &'static str {
    match filter {
        Filter::Descendants => "descendant",
        Filter::Ancestors => "ancestor",
    }
}

/// The explanation a student can follow: what the checks before the decisive one left open (where
/// it teaches something: the labels saying "maybe"), then why the decisive check settles it.
pub fn sentence(decision: &Decision, names: &Names) -> String {
    let mut parts = Vec::new();
    let before = &decision.checks[..decision.checks.len() - 1];
    if let Some(Check::Labels { cut: None, .. }) = before.iter().find(|c| c.rule() == Rule::LabelCut) {
        parts.push(format!(
            "L({v}) ⊆ L({u}) in every dimension, so the labels alone say \"maybe\".",
            u = names.u,
            v = names.v
        ));
    }
    parts.push(decisive_sentence(decision, names));
    parts.join(" ")
}

/// Why the last check settles the query.
fn decisive_sentence(decision: &Decision, n: &Names) -> String {
    let (u, v) = (&n.u, &n.v);
    match decision.decisive() {
        Check::Component { .. } if u == v => format!("{u} is {v}: every vertex reaches itself."),
        Check::Component { .. } => {
            format!("{u} and {v} lie on a common cycle (one strongly connected component), so each reaches the other.")
        }
        Check::Level { u: lu, v: lv } => format!(
            "{u} is on level {lu} and {v} on level {lv}: every edge goes at least one level deeper, so {u} cannot \
             reach {v}."
        ),
        Check::TopoOrders { u: pu, v: pv, cut } => {
            let order = cut.unwrap_or(0);
            let which = if order == 0 { "forward DFS" } else { "backward DFS" };
            format!(
                "Topological order {} ({which}): {u} is at {}, {v} at {}; {u} does not come before {v}, and every \
                 edge goes forward in a topological order, so {u} cannot reach {v}.",
                order + 1,
                thousands(u64::from(pu[order])),
                thousands(u64::from(pv[order]))
            )
        }
        Check::SupportiveCut { found: Some((s, side)) } => {
            let (cu, cv) = decision.ends;
            let own = |end: u32| s.vertex == Some(end);
            let s = n.supportive(s, decision.ends);
            match side {
                Separation::ReachesUNotV if own(cu) => format!(
                    "{u} is one of the index's supportive vertices, and {v} stores that {u} does not reach it \
                     (every vertex stores which supportive vertices reach it), so {u} cannot reach {v}."
                ),
                Separation::VReachesItUDoesNot if own(cv) => format!(
                    "{v} is one of the index's supportive vertices, and {u} stores that it does not reach {v} \
                     (every vertex stores which supportive vertices it reaches), so {u} cannot reach {v}."
                ),
                Separation::ReachesUNotV => format!(
                    "Supportive vertex {s} reaches {u} but not {v} (every vertex stores which supportive vertices \
                     reach it): if {u} reached {v}, {s} would reach {v} through {u}, so {u} cannot reach {v}."
                ),
                Separation::VReachesItUDoesNot => format!(
                    "{v} reaches supportive vertex {s} but {u} does not (every vertex stores which supportive \
                     vertices it reaches): if {u} reached {v}, it would reach {s} through {v}, so {u} cannot reach \
                     {v}."
                ),
            }
        }
        Check::BloomCut { found: Some((Filter::Descendants, bit)) } => format!(
            "Bloom filter of descendants, bit {bit}: some vertex below {v} sets it, but no vertex below {u} does; \
             everything below {v} would be below {u} if {u} reached {v}, so {u} cannot reach {v}."
        ),
        Check::BloomCut { found: Some((Filter::Ancestors, bit)) } => format!(
            "Bloom filter of ancestors, bit {bit}: some vertex above {u} sets it, but no vertex above {v} does; \
             everything above {u} would be above {v} if {u} reached {v}, so {u} cannot reach {v}."
        ),
        Check::SupportivePath { found: Some(s) } => {
            let (cu, cv) = decision.ends;
            if s.vertex == Some(cu) {
                format!(
                    "{u} is one of the index's supportive vertices (every vertex stores whether each of them reaches \
                     it), and {v} stores that {u} reaches it, so {u} reaches {v}."
                )
            } else if s.vertex == Some(cv) {
                format!(
                    "{v} is one of the index's supportive vertices (every vertex stores whether it reaches each of \
                     them), and {u} stores that it reaches {v}, so {u} reaches {v}."
                )
            } else {
                let s = n.supportive(s, decision.ends);
                format!(
                    "{u} stores that it reaches supportive vertex {s}, and {v} stores that {s} reaches it (every \
                     vertex stores both for each supportive vertex), so {u} reaches {v} through {s}."
                )
            }
        }
        Check::Labels { u: iu, v: iv, cut: Some(d) } => {
            let (a, b) = (iu[*d], iv[*d]);
            format!(
                "In dimension {d}, {v}'s interval [{},{}] is not inside {u}'s [{},{}]. Everything {u} reaches has \
                 its interval inside {u}'s, so {u} cannot reach {v}, without any search.",
                b.low, b.post, a.low, a.post
            )
        }
        Check::Tree { dimension: Some(d) } => format!(
            "{v} lies in {u}'s subtree of the DFS tree of dimension {d}; a tree path is a real path, so {u} reaches \
             {v} without any search."
        ),
        Check::Search { method, reachable, expanded, pruned, dead_ends, before_labels } => {
            let order = match (decision.rules, method.is_breadth_first(), method.is_guided()) {
                (_, _, false) if method.is_breadth_first() => "plain breadth-first (no pruning)",
                (_, _, false) => "plain depth-first (no pruning)",
                (RuleSet::All, true, true) => "bidirectional (forward from u, backward from v)",
                (_, true, _) => "breadth-first",
                _ => "depth-first",
            };
            let bidirectional = decision.rules == RuleSet::All && method.is_breadth_first() && method.is_guided();
            let pruned = plural(*pruned, "child", "children");
            let pruning = match (decision.rules, method.is_guided()) {
                (_, false) => "entered every child".to_string(),
                (RuleSet::Grail, true) => {
                    format!("entered only children whose intervals contain {v}'s ({pruned} pruned)")
                }
                (RuleSet::All, true) if *before_labels => format!(
                    "tried the query index's cuts on each child ({pruned} pruned; the labels were not built yet, so \
                     their cuts did not run)"
                ),
                (RuleSet::All, true) => format!("tried every cut on each child ({pruned} pruned)"),
            };
            let checks = if decision.checks.len() > 2 { "No check could tell, so a" } else { "A" };
            let start = format!(
                "{checks} {order} search from {u} {pruning}. It expanded {}",
                plural(*expanded, "vertex", "vertices")
            );
            let maybe = match decision.rules {
                RuleSet::Grail => "its labels said maybe",
                RuleSet::All => "no cut ruled it out",
            };
            // The backward side's dead ends are those u cannot reach: its vertices all reach v.
            let useless = if bidirectional {
                format!("yet it cannot reach {v} (or, behind v, {u} cannot reach it)")
            } else {
                format!("yet it cannot reach {v}")
            };
            let dead = match (*dead_ends, *expanded) {
                (0, 1) => "not a dead end".to_string(),
                (0, _) => "none of them a dead end".to_string(),
                (1, 1) => format!("a dead end ({maybe}, {useless})"),
                (1, _) => format!("1 of them a dead end ({maybe}, {useless})"),
                (n, _) => format!("{} of them dead ends (for each, {maybe}, {useless})", thousands(n)),
            };
            if *reachable {
                format!("{start}, {dead}, before it found {v}.")
            } else {
                format!("{start}, {dead}, so no path exists.")
            }
        }
        // A decisive check always found its witness (`Decision::decisive` is the last, deciding one).
        check => format!("the {} rule decided.", check.rule()),
    }
}

/// The picture's one-line caption: `3 ⇝ 9? no (all rules), decided by label-cut: L(9) ⊄ L(3) in dimension 1`
/// (the reading names the dimension or order that decided, once).
pub fn caption(decision: &Decision, names: &Names) -> String {
    let how = match decision.decisive() {
        Check::Search { expanded, dead_ends, pruned, .. } => format!(
            "a search: {} expanded, {} pruned, {}",
            thousands(*expanded),
            thousands(*pruned),
            plural(*dead_ends, "dead end", "dead ends")
        ),
        Check::TopoOrders { u: pu, v: pv, cut: Some(o) } => format!(
            "{}: {} at {}, {} at {}",
            rule_with_witness(decision),
            names.u,
            thousands(u64::from(pu[*o])),
            names.v,
            thousands(u64::from(pv[*o]))
        ),
        _ => format!("{}: {}", decision.rule(), reading(decision.decisive(), names, decision.ends)),
    };
    format!("{} ⇝ {}? {} ({} rules), decided by {how}", names.u, names.v, verdict_word(decision), decision.rules)
}

/// A short phrase for a child the search pruned or settled with `rule` (for search trees).
pub fn search_step_phrase(rule: Rule) -> &'static str {
    match rule {
        Rule::LevelCut => "pruned by level",
        Rule::TopoCut => "pruned by topological order",
        Rule::SupportiveCut => "pruned by a supportive vertex",
        Rule::BloomCut => "pruned by Bloom filter",
        Rule::LabelCut => "pruned by label",
        Rule::SupportivePath => "reaches v through a supportive vertex",
        Rule::TreeCut => "reaches v down a DFS tree",
        Rule::SameComponent | Rule::Search => "decided",
    }
}
