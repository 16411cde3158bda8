//! What a search asks about each child it meets: enter it, prune it (a cut proves it cannot reach
//! the target), or stop (a cut proves it reaches the target). One type per rule set, so the
//! searches are monomorphized and the unguided baselines pay nothing.

use super::answer::Rule;
use super::query_index::QueryIndex;
use super::rules::{TargetKeys, contains_all, index_no, source_no, supportive_path, tree_cut};
use crate::index::{Interval, Labels};

/// A guide's decision about one child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Enter,
    /// The child cannot reach the target, by this rule.
    Prune(Rule),
    /// The child reaches the target, by this rule: the search is over.
    Reach(Rule),
}

/// Decides children for a search towards one target.
pub(crate) trait Guide {
    fn check(&self, child: u32) -> Step;
}

/// The baselines: every child is entered.
pub(crate) struct Unguided;

impl Guide for Unguided {
    #[inline(always)]
    fn check(&self, _child: u32) -> Step {
        Step::Enter
    }
}

/// GRAIL's search: a child is entered only if its labels contain the target's.
pub(crate) struct LabelGuide<'a> {
    pub labels: &'a Labels,
    pub target: &'a [Interval],
}

impl Guide for LabelGuide<'_> {
    #[inline(always)]
    fn check(&self, child: u32) -> Step {
        if contains_all(self.labels.of(child), self.target) { Step::Enter } else { Step::Prune(Rule::LabelCut) }
    }
}

/// The query index's cuts alone, for a search towards `to` before the labels exist (or as the
/// first half of [`CutGuide`]): every negative cut prunes; a supportive path ends the search
/// where `stops` (a search that only completes a path already proved keeps to the negative cuts).
pub(crate) struct IndexGuide<'a> {
    pub index: &'a QueryIndex,
    /// The DAG's levels (the labels' own, or Kahn's before there are labels).
    pub levels: &'a [u32],
    /// The target's level, positions and record, copied once.
    pub keys: TargetKeys,
    pub stops: bool,
}

impl<'a> IndexGuide<'a> {
    pub fn new(index: &'a QueryIndex, levels: &'a [u32], to: u32) -> Self {
        IndexGuide { index, levels, keys: TargetKeys::of(index, levels, to), stops: true }
    }
}

impl Guide for IndexGuide<'_> {
    #[inline(always)]
    fn check(&self, child: u32) -> Step {
        if let Some((rule, _)) = index_no(self.index, self.levels, child, &self.keys) {
            return Step::Prune(rule);
        }
        if self.stops && supportive_path(self.index.of(child), &self.keys.record).is_some() {
            return Step::Reach(Rule::SupportivePath);
        }
        Step::Enter
    }
}

/// The default set: every negative rule prunes, every positive rule ends the search.
pub(crate) struct CutGuide<'a> {
    pub cuts: IndexGuide<'a>,
    pub labels: &'a Labels,
    pub to: u32,
    pub target: &'a [Interval],
}

impl<'a> CutGuide<'a> {
    pub fn new(index: &'a QueryIndex, labels: &'a Labels, to: u32) -> Self {
        CutGuide { cuts: IndexGuide::new(index, labels.levels(), to), labels, to, target: labels.of(to) }
    }
}

impl Guide for CutGuide<'_> {
    #[inline(always)]
    fn check(&self, child: u32) -> Step {
        match self.cuts.check(child) {
            Step::Enter => {}
            step => return step,
        }
        if !contains_all(self.labels.of(child), self.target) {
            return Step::Prune(Rule::LabelCut);
        }
        if tree_cut(self.labels, child, self.to).is_some() {
            return Step::Reach(Rule::TreeCut);
        }
        Step::Enter
    }
}

/// [`IndexGuide`] turned around, for a backward search: can `from` reach the parent `p`?
pub(crate) struct BackIndexGuide<'a> {
    pub index: &'a QueryIndex,
    pub levels: &'a [u32],
    /// The source's level, positions and record, read once.
    pub keys: TargetKeys,
}

impl<'a> BackIndexGuide<'a> {
    pub fn new(index: &'a QueryIndex, levels: &'a [u32], from: u32) -> Self {
        BackIndexGuide { index, levels, keys: TargetKeys::of(index, levels, from) }
    }
}

impl Guide for BackIndexGuide<'_> {
    #[inline(always)]
    fn check(&self, p: u32) -> Step {
        if let Some((rule, _)) = source_no(self.index, self.levels, &self.keys, p) {
            return Step::Prune(rule);
        }
        if supportive_path(&self.keys.record, self.index.of(p)).is_some() {
            return Step::Reach(Rule::SupportivePath);
        }
        Step::Enter
    }
}

/// The default set turned around, for a backward search: can `from` reach the parent `p`?
pub(crate) struct BackCutGuide<'a> {
    pub cuts: BackIndexGuide<'a>,
    pub labels: &'a Labels,
    pub from: u32,
    /// The source's labels, read once.
    pub source: &'a [Interval],
}

impl<'a> BackCutGuide<'a> {
    pub fn new(index: &'a QueryIndex, labels: &'a Labels, from: u32) -> Self {
        BackCutGuide { cuts: BackIndexGuide::new(index, labels.levels(), from), labels, from, source: labels.of(from) }
    }
}

impl Guide for BackCutGuide<'_> {
    #[inline(always)]
    fn check(&self, p: u32) -> Step {
        match self.cuts.check(p) {
            Step::Enter => {}
            step => return step,
        }
        if !contains_all(self.source, self.labels.of(p)) {
            return Step::Prune(Rule::LabelCut);
        }
        if tree_cut(self.labels, self.from, p).is_some() {
            return Step::Reach(Rule::TreeCut);
        }
        Step::Enter
    }
}
