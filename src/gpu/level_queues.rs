//! The Kahn levels as the GPU labeler's queues.
//!
//! Condensing a graph computes its Kahn levels (`topo::levels` checks that it is a DAG, and the
//! graph keeps them), so the device need not find them again: finding them on the device would
//! take a host round trip per level, and every dimension would wait for them. The vertices go up
//! in Kahn order with the graph, `enqueue_level` (kernels/labeling.cu) sorts each level into its
//! queues, one launch per level and no wait, and the host reads the levels' counts once, here.
//!
//! A level's vertices go to three queues by the degree a phase scans (`QueueClass`): by in-degree
//! for parent selection (`bins_in`), by out-degree for the others (`bins_out`). A class's queues
//! are its levels' one after another, from entry `c n` of the `3 n` of each array.

/// Values `enqueue_level` counts per level: 3 in-degree class counts, 3 out-degree class counts,
/// the in-degree sum and the out-degree sum.
pub const COUNTS_PER_LEVEL: usize = 8;

/// One level's queues by class (small, medium, large): where each starts in its class's entries
/// and how many vertices it holds, and the degrees its vertices scan in phases 1 and 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelQueues {
    pub in_base: [u32; 3],
    pub in_count: [u32; 3],
    pub out_base: [u32; 3],
    pub out_count: [u32; 3],
    pub in_degrees: u64,
    pub out_degrees: u64,
}

impl LevelQueues {
    pub fn vertices(&self) -> u64 {
        self.in_count.iter().map(|&c| c as u64).sum()
    }

    /// The levels from their counts ([`COUNTS_PER_LEVEL`] values each, in level order): a level's
    /// queue in a class starts where the previous level's ended.
    pub fn from_counts(counts: &[u64]) -> Vec<LevelQueues> {
        let (mut in_base, mut out_base) = ([0u32; 3], [0u32; 3]);
        counts
            .chunks_exact(COUNTS_PER_LEVEL)
            .map(|c| {
                let in_count = [c[0], c[1], c[2]].map(|x| x as u32);
                let out_count = [c[3], c[4], c[5]].map(|x| x as u32);
                let q = LevelQueues { in_base, in_count, out_base, out_count, in_degrees: c[6], out_degrees: c[7] };
                for k in 0..3 {
                    in_base[k] += in_count[k];
                    out_base[k] += out_count[k];
                }
                q
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_starts_where_the_last_ended() {
        let counts = [2, 0, 1, 3, 0, 0, 40, 7, 1, 1, 0, 0, 2, 0, 5, 6];
        let levels = LevelQueues::from_counts(&counts);
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0].in_base, [0, 0, 0]);
        assert_eq!(levels[1].in_base, [2, 0, 1]);
        assert_eq!(levels[1].out_base, [3, 0, 0]);
        assert_eq!((levels[1].in_count, levels[1].out_count), ([1, 1, 0], [0, 2, 0]));
        assert_eq!((levels[1].in_degrees, levels[1].out_degrees), (5, 6));
        assert_eq!(levels.iter().map(LevelQueues::vertices).collect::<Vec<_>>(), vec![3, 2]);
    }
}
