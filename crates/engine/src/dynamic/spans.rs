//! Each component's intervals, one per label dimension, kept sound under edits.
//!
//! GRAIL's "no" rests on one invariant: for every edge `x → y` between two components, each of
//! `x`'s intervals contains `y`'s. Reachability is a chain of edges, so it then implies
//! containment, and a pair whose intervals are not nested cannot reach. A delete removes an edge:
//! the invariant holds for the edges left. An insert `x → y` may break it at that edge; growing
//! `x`'s intervals to hold `y`'s restores it there and may break it at `x`'s parents' edges, which
//! grow in turn, upwards, until every edge holds again. Intervals only grow (each "no" they give is
//! still exact; they give fewer), so the walk ends.

use crate::index::{Interval, Labels};

/// Intervals by component id, `dims` per component.
#[derive(Clone, Debug)]
pub struct Spans {
    dims: usize,
    spans: Vec<Interval>,
}

impl Spans {
    /// The labels' intervals (by DAG vertex, which is the loaded graph's component id).
    pub fn of_labels(labels: &Labels) -> Spans {
        Spans { dims: labels.dims(), spans: labels.intervals().to_vec() }
    }

    /// Label dimensions.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Component `c`'s intervals.
    #[inline]
    pub fn of(&self, c: u32) -> &[Interval] {
        let at = c as usize * self.dims;
        &self.spans[at..at + self.dims]
    }

    /// Does each of `a`'s intervals contain `b`'s? (False means `a` cannot reach `b`.)
    #[inline]
    pub fn holds(&self, a: u32, b: u32) -> bool {
        self.of(a).iter().zip(self.of(b)).all(|(x, y)| x.contains(*y))
    }

    /// Grows `a`'s intervals to hold `b`'s.
    pub fn grow_to_hold(&mut self, a: u32, b: u32) {
        for dim in 0..self.dims {
            let inner = self.spans[b as usize * self.dims + dim];
            let outer = &mut self.spans[a as usize * self.dims + dim];
            outer.low = outer.low.min(inner.low);
            outer.post = outer.post.max(inner.post);
        }
    }

    /// Gives component id `c` (a new one, or the next one) the intervals of `from`.
    pub fn copy_to(&mut self, from: u32, c: u32) {
        let needed = (c as usize + 1) * self.dims;
        if self.spans.len() < needed {
            self.spans.resize(needed, Interval { low: 0, post: 0 });
        }
        for dim in 0..self.dims {
            self.spans[c as usize * self.dims + dim] = self.spans[from as usize * self.dims + dim];
        }
    }

    /// Heap bytes.
    pub fn heap_bytes(&self) -> usize {
        self.spans.capacity() * std::mem::size_of::<Interval>()
    }
}
