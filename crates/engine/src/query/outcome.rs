//! What a search step returns to the engine (kept apart from the dispatch in `search.rs`, which
//! calls the searches that build it).

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchOutcome {
    pub reachable: bool,
    pub expanded: u64,
    pub pruned: u64,
    pub false_positives: u64,
    pub path: Option<Vec<u32>>,
}
