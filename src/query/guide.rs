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

/// The default set: every negative rule prunes, every positive rule ends the search.
pub(crate) struct CutGuide<'a> {
    pub index: &'a QueryIndex,
    pub labels: &'a Labels,
    pub to: u32,
    pub target: &'a [Interval],
    /// The target's level, positions and record, copied once.
    pub keys: TargetKeys,
}

impl<'a> CutGuide<'a> {
    pub fn new(index: &'a QueryIndex, labels: &'a Labels, to: u32) -> Self {
        CutGuide { index, labels, to, target: labels.of(to), keys: TargetKeys::of(index, labels, to) }
    }
}

impl Guide for CutGuide<'_> {
    #[inline(always)]
    fn check(&self, child: u32) -> Step {
        if let Some((rule, _)) = index_no(self.index, self.labels, child, &self.keys) {
            return Step::Prune(rule);
        }
        if supportive_path(self.index.of(child), &self.keys.record).is_some() {
            return Step::Reach(Rule::SupportivePath);
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

/// The default set turned around, for a backward search: can `from` reach the parent `p`?
pub(crate) struct BackCutGuide<'a> {
    pub index: &'a QueryIndex,
    pub labels: &'a Labels,
    pub from: u32,
    /// The source's labels, level, positions and record, read once.
    pub source: &'a [Interval],
    pub keys: TargetKeys,
}

impl<'a> BackCutGuide<'a> {
    pub fn new(index: &'a QueryIndex, labels: &'a Labels, from: u32) -> Self {
        BackCutGuide { index, labels, from, source: labels.of(from), keys: TargetKeys::of(index, labels, from) }
    }
}

impl Guide for BackCutGuide<'_> {
    #[inline(always)]
    fn check(&self, p: u32) -> Step {
        if let Some((rule, _)) = source_no(self.index, self.labels, &self.keys, p) {
            return Step::Prune(rule);
        }
        if supportive_path(&self.keys.record, self.index.of(p)).is_some() {
            return Step::Reach(Rule::SupportivePath);
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
