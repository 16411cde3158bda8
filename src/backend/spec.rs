//! [`LabelSpec`]: what to build and with which back end.

use crate::index::Order;
use crate::index::pipeline::ParentMethod;
use crate::telemetry::Backend;

/// Label dimensions when nobody says otherwise: the command line's `--dims` and the explorer's
/// Labels tab start here, so both build the same labels by default.
pub const DEFAULT_DIMS: usize = 5;

/// What to build and with which back end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelSpec {
    /// The back end asked for (a GPU request may fall back to the CPU pipeline).
    pub backend: Backend,
    /// Label dimensions, each its own DFS tree.
    pub dims: usize,
    /// How each dimension orders the children it visits.
    pub order: Order,
    /// How the CPU pipeline picks DFS-tree parents (the DFS walks; the GPU compares paths exactly).
    pub parent_method: ParentMethod,
    /// CPU pipeline: every step advances every unfinished dimension by one level, in parallel, instead
    /// of running the dimensions one after another.
    pub all_dims_at_once: bool,
}

impl LabelSpec {
    /// `dims` dimensions in `order` on `backend`, exact parents, all dimensions at once (what the
    /// command line wants: deep narrow graphs still keep several threads busy).
    pub fn new(backend: Backend, dims: usize, order: Order) -> LabelSpec {
        LabelSpec { backend, dims, order, parent_method: ParentMethod::Exact, all_dims_at_once: true }
    }

    /// `CPU pipeline, d=5, random order, seed 1`.
    pub fn describe(&self) -> String {
        format!("{}, d={}, {}", self.backend.title(), self.dims, self.order)
    }

    pub(super) fn with_backend(self, backend: Backend) -> LabelSpec {
        LabelSpec { backend, ..self }
    }
}
