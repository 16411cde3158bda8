//! The record of one query's decision: every check the engine ran, in the order it ran them, with
//! what each read and what it found. The CLI's text and JSON, the Query tab and the picture all
//! render their sentences from this one record ([`super::explain`]), so none of them can claim a
//! check that did not run or an outcome it did not have.

use super::answer::{Answer, Method, Rule, RuleSet};
use super::bloom::BLOOM_WORDS;
use super::query_index::QueryIndex;
use super::rules::{bloom_cut, label_cut, supportive_cut, supportive_path, topo_cut, tree_cut};
use super::supportive::has_bit;
use crate::graph::Graph;
use crate::index::{Interval, Labels};
use serde::Serialize;

/// What a check concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It proves `u` reaches `v`.
    Yes,
    /// It proves `u` cannot reach `v`.
    No,
    /// It cannot tell; the next check runs.
    Undecided,
}

/// Which side of a query a supportive vertex separates (see [`Check::SupportiveCut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Separation {
    /// The supportive vertex reaches `u` but not `v`.
    ReachesUNotV,
    /// `v` reaches the supportive vertex, `u` does not.
    VReachesItUDoesNot,
}

/// A supportive vertex that decided, by its bit in the index's masks and its DAG vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Supportive {
    /// Its index among the index's supportive vertices: its bit in every vertex's masks.
    pub bit: usize,
    /// The DAG (component) vertex; `None` if the index's choice could not be recovered.
    /// `dag_vertex` in JSON, beside the file id a front end adds.
    #[serde(rename = "dag_vertex")]
    pub vertex: Option<u32>,
}

/// Which Bloom filter a deciding bit belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Filter {
    /// Descendants: a bit set below `v` but not below `u`.
    Descendants,
    /// Ancestors: a bit set above `u` but not above `v`.
    Ancestors,
}

/// One check, with its inputs (DAG vertices `cu`, `cv`) and what it found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Check {
    /// The strongly connected components of `u` and `v`: one component means yes.
    Component {
        /// The component of `u`.
        u: u32,
        /// The component of `v`.
        v: u32,
    },
    /// Topological levels (longest path from a root): `level(u) >= level(v)` means no.
    Level {
        /// The level of `u`'s component.
        u: u32,
        /// The level of `v`'s component.
        v: u32,
    },
    /// Positions in each topological order; `cut` is the first order where `u` does not come first.
    TopoOrders {
        /// The position of `u`'s component in each order.
        u: Vec<u32>,
        /// The position of `v`'s component in each order.
        v: Vec<u32>,
        /// The first order that puts `v` before `u` (no); `None` if none does.
        cut: Option<usize>,
    },
    /// A supportive vertex that separates `u` from `v` (no), if there is one.
    SupportiveCut {
        /// The separating vertex and the side it separates; `None` if no supportive vertex does.
        found: Option<(Supportive, Separation)>,
    },
    /// A Bloom filter bit that refutes the pair (no), if there is one: its filter and bit.
    BloomCut {
        /// The filter and the bit within it; `None` if no bit refutes the pair.
        found: Option<(Filter, usize)>,
    },
    /// A supportive vertex on a path `u ⇝ s ⇝ v` (yes), if there is one.
    SupportivePath {
        /// The supportive vertex between them; `None` if there is none.
        found: Option<Supportive>,
    },
    /// The GRAIL intervals per dimension; `cut` is the first dimension where `L(v) ⊄ L(u)` (no).
    Labels {
        /// `u`'s interval in each dimension.
        u: Vec<Interval>,
        /// `v`'s interval in each dimension.
        v: Vec<Interval>,
        /// The first dimension whose intervals refute the pair; `None` if all contain `v`'s.
        cut: Option<usize>,
    },
    /// The first dimension whose DFS tree holds `v` under `u` (yes), if there is one.
    Tree {
        /// That dimension; `None` if no tree holds `v` under `u`.
        dimension: Option<usize>,
    },
    /// The search that decided when no check could: its method and bookkeeping.
    Search {
        /// The search method that ran.
        method: Method,
        /// Whether it found `v` from `u`.
        reachable: bool,
        /// Vertices it popped and scanned, the start included.
        expanded: u64,
        /// Distinct children the guided search refused to enter because a cut (GRAIL's: the labels)
        /// rules out `v`.
        pruned: u64,
        /// Expanded vertices that cannot reach `v`.
        dead_ends: u64,
        /// Run before the labels existed: the query index's cuts alone pruned it.
        before_labels: bool,
    },
}

impl Check {
    /// The rule this check applies.
    pub fn rule(&self) -> Rule {
        match self {
            Check::Component { .. } => Rule::SameComponent,
            Check::Level { .. } => Rule::LevelCut,
            Check::TopoOrders { .. } => Rule::TopoCut,
            Check::SupportiveCut { .. } => Rule::SupportiveCut,
            Check::BloomCut { .. } => Rule::BloomCut,
            Check::SupportivePath { .. } => Rule::SupportivePath,
            Check::Labels { .. } => Rule::LabelCut,
            Check::Tree { .. } => Rule::TreeCut,
            Check::Search { .. } => Rule::Search,
        }
    }

    /// What it concluded, read off its own data.
    pub fn outcome(&self) -> Outcome {
        let no_if = |cut: bool| if cut { Outcome::No } else { Outcome::Undecided };
        let yes_if = |found: bool| if found { Outcome::Yes } else { Outcome::Undecided };
        match self {
            Check::Component { u, v } => yes_if(u == v),
            Check::Level { u, v } => no_if(u >= v),
            Check::TopoOrders { cut, .. } => no_if(cut.is_some()),
            Check::SupportiveCut { found } => no_if(found.is_some()),
            Check::BloomCut { found } => no_if(found.is_some()),
            Check::SupportivePath { found } => yes_if(found.is_some()),
            Check::Labels { cut, .. } => no_if(cut.is_some()),
            Check::Tree { dimension } => yes_if(dimension.is_some()),
            Check::Search { reachable: true, .. } => Outcome::Yes,
            Check::Search { reachable: false, .. } => Outcome::No,
        }
    }
}

/// Every check of one query, in the order they ran; the last one decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The rule set the engine used.
    pub rules: RuleSet,
    /// The search method asked for (it runs only if no check decides).
    pub method: Method,
    /// The DAG (component) vertices of `u` and `v`.
    #[serde(skip)]
    pub ends: (u32, u32),
    /// In JSON each check carries its rule and outcome beside what it read (vertex ids in a check
    /// are DAG ids: components of the condensed graph).
    #[serde(serialize_with = "checks_with_outcomes")]
    pub checks: Vec<Check>,
}

fn checks_with_outcomes<S: serde::Serializer>(checks: &[Check], serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Shown<'a> {
        rule: Rule,
        outcome: Outcome,
        #[serde(flatten)]
        check: &'a Check,
    }
    serializer.collect_seq(checks.iter().map(|check| Shown { rule: check.rule(), outcome: check.outcome(), check }))
}

impl Decision {
    /// The DAG vertices the checks name (supportive vertices), for front ends that map them to
    /// file ids.
    pub fn named_vertices(&self) -> Vec<u32> {
        self.checks
            .iter()
            .filter_map(|c| match c {
                Check::SupportiveCut { found: Some((s, _)) } | Check::SupportivePath { found: Some(s) } => s.vertex,
                _ => None,
            })
            .collect()
    }

    /// The check that decided (always the last).
    pub fn decisive(&self) -> &Check {
        self.checks.last().expect("a decision has at least the component check")
    }

    /// The rule of the deciding check.
    pub fn rule(&self) -> Rule {
        self.decisive().rule()
    }

    /// Whether `u` reaches `v`: the deciding check said yes.
    pub fn reachable(&self) -> bool {
        self.decisive().outcome() == Outcome::Yes
    }

    /// The check of `rule`, if it ran.
    pub fn ran(&self, rule: Rule) -> Option<&Check> {
        self.checks.iter().find(|c| c.rule() == rule)
    }

    /// The intervals the decision read, if the label check ran.
    pub fn labels(&self) -> Option<(&[Interval], &[Interval], Option<usize>)> {
        self.checks.iter().find_map(|c| match c {
            Check::Labels { u, v, cut } => Some((u.as_slice(), v.as_slice(), *cut)),
            _ => None,
        })
    }
}

/// What the checks read: the DAG, its levels, its labels (none yet while they are being built)
/// and (with every rule) the query index.
pub(crate) struct CheckInputs<'a> {
    pub dag: &'a Graph,
    /// Each DAG vertex's level: the labels' own, or the DAG's Kahn levels (the same numbers).
    pub levels: &'a [u32],
    pub labels: Option<&'a Labels>,
    pub index: Option<&'a QueryIndex>,
}

impl CheckInputs<'_> {
    /// Runs the checks of `rules` on DAG vertices `cu`, `cv` in that set's order, up to the first
    /// that decides, or, without labels, up to the first check that reads them. `method` unguided
    /// runs only the component check (the baselines use no index). Returns the checks; the caller
    /// runs the search (or waits for the labels) when the last one is undecided.
    pub fn run(&self, rules: RuleSet, method: Method, (cu, cv): (u32, u32)) -> Vec<Check> {
        let mut checks = vec![Check::Component { u: cu, v: cv }];
        if cu == cv || !method.is_guided() {
            return checks;
        }
        for &rule in rules.rules() {
            let check = match rule {
                // Ran above; the search is the caller's.
                Rule::SameComponent | Rule::Search => continue,
                Rule::LabelCut | Rule::TreeCut if self.labels.is_none() => break,
                rule => self.check(rule, cu, cv),
            };
            let decided = check.outcome() != Outcome::Undecided;
            checks.push(check);
            if decided {
                break;
            }
        }
        checks
    }

    /// One check of a cheap rule on `cu != cv`. The rules of the query index need it attached.
    fn check(&self, rule: Rule, cu: u32, cv: u32) -> Check {
        let labels = || self.labels.expect("the label checks run only with labels");
        let index = || self.index.expect("the query index's rules run only with the index attached");
        let supportive = |bit: usize| Supportive { bit, vertex: QueryIndex::supportive(self.dag).get(bit).copied() };
        match rule {
            Rule::LevelCut => Check::Level { u: self.levels[cu as usize], v: self.levels[cv as usize] },
            Rule::TopoCut => {
                let (a, b) = (index().topo(cu), index().topo(cv));
                Check::TopoOrders { u: a.to_vec(), v: b.to_vec(), cut: topo_cut(a, b) }
            }
            Rule::SupportiveCut => {
                let (a, b) = (index().of(cu), index().of(cv));
                let found = supportive_cut(a, b).map(|bit| {
                    let side = if has_bit(&a.from_support, bit) && !has_bit(&b.from_support, bit) {
                        Separation::ReachesUNotV
                    } else {
                        Separation::VReachesItUDoesNot
                    };
                    (supportive(bit), side)
                });
                Check::SupportiveCut { found }
            }
            Rule::BloomCut => {
                let found = bloom_cut(index().of(cu), index().of(cv)).map(|bit| {
                    let per_filter = 64 * BLOOM_WORDS;
                    if bit < per_filter { (Filter::Descendants, bit) } else { (Filter::Ancestors, bit - per_filter) }
                });
                Check::BloomCut { found }
            }
            Rule::SupportivePath => {
                Check::SupportivePath { found: supportive_path(index().of(cu), index().of(cv)).map(supportive) }
            }
            Rule::LabelCut => {
                let labels = labels();
                Check::Labels { u: labels.of(cu).to_vec(), v: labels.of(cv).to_vec(), cut: label_cut(labels, cu, cv) }
            }
            Rule::TreeCut => Check::Tree { dimension: tree_cut(labels(), cu, cv) },
            Rule::SameComponent | Rule::Search => unreachable!("not a cheap rule"),
        }
    }
}

/// The answer a decided check gives, with the witness the engine's [`Answer`] keeps.
pub(crate) fn answer_of(check: &Check) -> Answer {
    let witness = match check {
        Check::TopoOrders { cut, .. } => *cut,
        Check::SupportiveCut { found } => found.map(|(s, _)| s.bit),
        Check::BloomCut { found } => found.map(|(filter, bit)| match filter {
            Filter::Descendants => bit,
            Filter::Ancestors => bit + 64 * BLOOM_WORDS,
        }),
        Check::SupportivePath { found } => found.map(|s| s.bit),
        Check::Labels { cut, .. } => *cut,
        Check::Tree { dimension } => *dimension,
        Check::Component { .. } | Check::Level { .. } | Check::Search { .. } => None,
    };
    Answer::decided(check.rule(), check.outcome() == Outcome::Yes, witness)
}
