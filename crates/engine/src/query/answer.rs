//! What a query returns: the answer, the rule that decided it, and the search's bookkeeping.

use serde::Serialize;

/// How the search step runs once the cheap rules could not decide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// GRAIL's search: an iterative depth-first search that enters a child only if its labels may
    /// reach the target. With every rule, pruned by every cut, looking one level ahead.
    #[default]
    GuidedDfs,
    /// The same pruning, breadth first. With every rule: bidirectional, forward from the source and
    /// backward from the target, both sides pruned by every cut (the default with every rule).
    GuidedBfs,
    /// Baseline: a plain depth-first search (no label, level or tree cuts, no pruning).
    Dfs,
    /// Baseline: a plain breadth-first search.
    Bfs,
}

impl Method {
    /// Every method, the guided ones first.
    pub const ALL: [Method; 4] = [Method::GuidedDfs, Method::GuidedBfs, Method::Dfs, Method::Bfs];

    /// True for the methods that use the index (cuts and label pruning).
    pub fn is_guided(self) -> bool {
        matches!(self, Method::GuidedDfs | Method::GuidedBfs)
    }

    /// True for the breadth-first methods.
    pub fn is_breadth_first(self) -> bool {
        matches!(self, Method::GuidedBfs | Method::Bfs)
    }

    /// The name the command line and JSON use, e.g. `guided-dfs`.
    pub fn name(self) -> &'static str {
        match self {
            Method::GuidedDfs => "guided-dfs",
            Method::GuidedBfs => "guided-bfs",
            Method::Dfs => "dfs",
            Method::Bfs => "bfs",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule that decided a query (docs/ALGORITHMS.md, section 13). Declared in the order the
/// default rule set tries them, cheapest first in memory terms; [`RuleSet::Grail`] tries only
/// GRAIL's, in GRAIL's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Both vertices lie in one strongly connected component (also `u == v`): yes.
    SameComponent,
    /// `level(u) >= level(v)` (levels are longest paths from a root): no.
    LevelCut,
    /// `u` does not come before `v` in one of two topological orders: no.
    TopoCut,
    /// A supportive vertex reaches `u` but not `v`, or `v` reaches one that `u` does not: no.
    SupportiveCut,
    /// A bit of `v`'s descendant filter is missing from `u`'s (or of `u`'s ancestor filter from `v`'s): no.
    BloomCut,
    /// `u` reaches a supportive vertex that reaches `v`: yes.
    SupportivePath,
    /// Some dimension has `L(v) ⊄ L(u)`: no.
    LabelCut,
    /// `v` lies in `u`'s DFS subtree in some dimension: yes.
    TreeCut,
    /// None of the cuts applied; the search decided.
    Search,
}

impl Rule {
    /// Every rule in the order the default set tries them (for tables).
    pub const ALL: [Rule; 9] = [
        Rule::SameComponent,
        Rule::LevelCut,
        Rule::TopoCut,
        Rule::SupportiveCut,
        Rule::BloomCut,
        Rule::SupportivePath,
        Rule::LabelCut,
        Rule::TreeCut,
        Rule::Search,
    ];
    /// How many rules there are.
    pub const COUNT: usize = Rule::ALL.len();

    /// The name the command line and JSON use, e.g. `label-cut`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::SameComponent => "same-component",
            Rule::LevelCut => "level-cut",
            Rule::TopoCut => "topo-cut",
            Rule::SupportiveCut => "supportive-cut",
            Rule::BloomCut => "bloom-cut",
            Rule::SupportivePath => "supportive-path",
            Rule::LabelCut => "label-cut",
            Rule::TreeCut => "tree-cut",
            Rule::Search => "search",
        }
    }

    /// The answer this rule gives (`None` for the search, which can give either).
    pub fn answer(self) -> Option<bool> {
        match self {
            Rule::SameComponent | Rule::SupportivePath | Rule::TreeCut => Some(true),
            Rule::Search => None,
            _ => Some(false),
        }
    }

    /// Position in [`Rule::ALL`] (for per-rule counters).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Which cuts the engine tries (`--rules`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum RuleSet {
    /// Every rule, cheapest first, and searches pruned by all of them (needs the query index).
    #[default]
    All,
    /// GRAIL's rules only (component, label cut, level cut, tree cut), as in the paper.
    Grail,
}

impl RuleSet {
    /// The rules this set can decide by, in the order tried.
    pub fn rules(self) -> &'static [Rule] {
        match self {
            RuleSet::All => &Rule::ALL,
            RuleSet::Grail => &[Rule::SameComponent, Rule::LabelCut, Rule::LevelCut, Rule::TreeCut, Rule::Search],
        }
    }

    /// The search that goes with this set when none is named: the bidirectional search (which
    /// `guided-bfs` becomes with every rule) for `all`, GRAIL's DFS for `grail`.
    pub fn default_method(self) -> Method {
        match self {
            RuleSet::All => Method::GuidedBfs,
            RuleSet::Grail => Method::GuidedDfs,
        }
    }

    /// The other set (the explorer's toggle).
    pub fn toggled(self) -> RuleSet {
        match self {
            RuleSet::All => RuleSet::Grail,
            RuleSet::Grail => RuleSet::All,
        }
    }

    /// The name the command line and JSON use: `all` or `grail`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::All => "all",
            RuleSet::Grail => "grail",
        }
    }
}

impl std::fmt::Display for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One query's answer and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// Whether `u` reaches `v`.
    pub reachable: bool,
    /// The first rule that applied.
    pub rule: Rule,
    /// What proved it: for [`Rule::LabelCut`], the first dimension with `L(v) ⊄ L(u)`; for
    /// [`Rule::TreeCut`], the first dimension whose DFS tree holds `v` under `u`; for
    /// [`Rule::TopoCut`], the topological order (0 forward, 1 backward); for the supportive rules,
    /// the supportive vertex's bit; for [`Rule::BloomCut`], the filter bit (`0..64` descendant
    /// filter, `64..` ancestor filter). `None` otherwise. Left out of JSON, where its meaning would
    /// depend on the rule: a query's [`super::Decision`] names each check's witness instead.
    #[serde(skip)]
    pub witness: Option<usize>,
    /// Vertices the search popped and scanned (the start included); 0 when a cut decided.
    pub expanded: u64,
    /// Distinct children the guided search refused to enter because `L(v) ⊄ L(c)`.
    pub pruned: u64,
    /// Expanded vertices that cannot reach the target (see [`crate::query::search`] for how each
    /// method counts them): the dead ends, under that name in JSON as in a batch's report.
    #[serde(rename = "dead_ends")]
    pub false_positives: u64,
    /// For a yes when a path was asked for: component ids from `comp(u)` to `comp(v)`, each step a
    /// DAG edge (a single vertex when both lie in one component). `dag_path` in JSON, beside the
    /// file ids a front end adds.
    #[serde(rename = "dag_path")]
    pub path: Option<Vec<u32>>,
}

impl Answer {
    /// An answer decided by a cheap rule, before any search.
    pub fn decided(rule: Rule, reachable: bool, witness: Option<usize>) -> Answer {
        Answer { reachable, rule, witness, expanded: 0, pruned: 0, false_positives: 0, path: None }
    }
}
