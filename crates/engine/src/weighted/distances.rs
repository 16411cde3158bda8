//! One source's shortest distances, as every engine returns them, with the engine's bookkeeping.

use super::SsspEngine;
use crate::graph::Weight;

/// The distances from one source and what computing them took.
#[derive(Clone, Debug)]
pub struct Distances {
    /// The engine that computed them.
    pub engine: SsspEngine,
    /// The source (dense id).
    pub source: u32,
    /// `dist[v]`: the length of a shortest path from the source to `v`; infinity where `v` is not
    /// reachable.
    pub dist: Vec<Weight>,
    /// Edges examined (`d(u) + w` compared with `d(v)`), whether or not they improved `d(v)`.
    pub relaxations: u64,
    /// Sequential steps: a settled vertex for Dijkstra, a round over a whole frontier (every core
    /// at once) for delta-stepping.
    pub steps: u64,
    /// Delta-stepping: the buckets emptied (0 for Dijkstra).
    pub buckets: u64,
    /// Delta-stepping: the bucket width.
    pub delta: Option<Weight>,
    /// Seconds the engine ran.
    pub seconds: f64,
}

/// What a summary says about the distances.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Vertices at a finite distance, the source included.
    pub reached: u64,
    /// The largest finite distance.
    pub max: Weight,
    /// The mean distance to the reached vertices other than the source (0 when there are none).
    pub mean: Weight,
    /// The farthest reached vertices other than the source, farthest first (ties by id), with
    /// their distances.
    pub farthest: Vec<(u32, Weight)>,
}

impl Distances {
    /// Reached count, largest and mean distance, and the `top` farthest vertices.
    pub fn summary(&self, top: usize) -> Summary {
        let finite = || self.dist.iter().copied().filter(|d| d.is_finite());
        let reached = finite().count() as u64;
        let max = finite().fold(0.0, Weight::max);
        let mut reached_vertices: Vec<u32> =
            (0..self.dist.len() as u32).filter(|&v| v != self.source && self.dist[v as usize].is_finite()).collect();
        let others = reached_vertices.len();
        let sum: Weight = reached_vertices.iter().map(|&v| self.dist[v as usize]).sum();
        let mean = if others == 0 { 0.0 } else { sum / others as f64 };
        let by_distance = |&a: &u32, &b: &u32| self.dist[b as usize].total_cmp(&self.dist[a as usize]).then(a.cmp(&b));
        let top = top.min(reached_vertices.len());
        if top > 0 {
            reached_vertices.select_nth_unstable_by(top - 1, by_distance);
            reached_vertices.truncate(top);
            reached_vertices.sort_unstable_by(by_distance);
        } else {
            reached_vertices.clear();
        }
        Summary {
            reached,
            max,
            mean,
            farthest: reached_vertices.into_iter().map(|v| (v, self.dist[v as usize])).collect(),
        }
    }

    /// The distance to `v`, None when unreachable.
    pub fn to(&self, v: u32) -> Option<Weight> {
        Some(self.dist[v as usize]).filter(|d| d.is_finite())
    }

    /// Vertices whose distance differs, bit for bit, from `other`'s (0: the same distances).
    pub fn differences(&self, other: &Distances) -> usize {
        if self.dist.len() != other.dist.len() {
            return self.dist.len().max(other.dist.len());
        }
        self.dist.iter().zip(&other.dist).filter(|(a, b)| a.to_bits() != b.to_bits()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_the_finite_distances() {
        let inf = Weight::INFINITY;
        let d = Distances {
            engine: SsspEngine::Dijkstra,
            source: 0,
            dist: vec![0.0, 4.0, inf, 2.0, 4.0],
            relaxations: 0,
            steps: 0,
            buckets: 0,
            delta: None,
            seconds: 0.0,
        };
        let s = d.summary(2);
        assert_eq!((s.reached, s.max, s.mean), (4, 4.0, 10.0 / 3.0));
        assert_eq!(s.farthest, [(1, 4.0), (4, 4.0)]);
        assert_eq!(d.summary(10).farthest, [(1, 4.0), (4, 4.0), (3, 2.0)], "the source is not among them");
        assert_eq!((d.to(2), d.to(3)), (None, Some(2.0)));
        assert_eq!(d.differences(&d), 0);
    }
}
