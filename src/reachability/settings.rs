//! [`Settings`]: what a library user chooses when building an [`crate::Index`].

use crate::backend::DEFAULT_DIMS;
use crate::index::Order;
use crate::query::RuleSet;
use crate::telemetry::Backend;

/// How to build an [`crate::Index`]. `Settings::default()` builds the labels `grail label` builds
/// by default (every back end builds the same ones), on the parallel CPU pipeline; the builder
/// methods change one choice each (new choices may come, so the fields are read, not listed):
///
/// ```
/// use grail::{Backend, Index, Order, RuleSet, Settings};
///
/// let settings = Settings::default().dims(2).backend(Backend::Dfs).order(Order::Lex).rules(RuleSet::Grail);
/// assert_eq!((settings.dims, settings.rules), (2, RuleSet::Grail));
/// let index = Index::from_edges(3, &[(0, 1), (1, 2)], &settings)?;
/// assert!(index.reaches(0, 2)? && !index.reaches(2, 0)?);
/// # Ok::<(), grail::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// Label dimensions: more prune more of each search and cost more to build (default 5).
    pub dims: usize,
    /// Who labels: [`Backend::Cpu`] (the parallel pipeline, the default), [`Backend::Dfs`] (the
    /// paper's sequential DFS) or [`Backend::Gpu`] (falls back to the CPU where there is no GPU;
    /// [`crate::Index::fallback`] says why).
    pub backend: Backend,
    /// The children order of each dimension's traversal (random, seed 1, by default: the command
    /// line's default).
    pub order: Order,
    /// Every rule (the default) or GRAIL's rules only (labels, levels, tree cut), as in the paper.
    pub rules: RuleSet,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { dims: DEFAULT_DIMS, backend: Backend::Cpu, order: Order::Random { seed: 1 }, rules: RuleSet::All }
    }
}

impl Settings {
    /// Label dimensions (at least 1).
    pub fn dims(self, dims: usize) -> Settings {
        Settings { dims, ..self }
    }

    /// Who labels.
    pub fn backend(self, backend: Backend) -> Settings {
        Settings { backend, ..self }
    }

    /// The children order of each dimension's traversal.
    pub fn order(self, order: Order) -> Settings {
        Settings { order, ..self }
    }

    /// Every rule, or GRAIL's only.
    pub fn rules(self, rules: RuleSet) -> Settings {
        Settings { rules, ..self }
    }
}
