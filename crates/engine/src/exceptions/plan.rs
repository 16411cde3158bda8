//! How false positives are counted on a DAG of a given size: exactly on the CPU or a GPU while
//! that takes seconds, else estimated from sampled pairs. The explorer and `grail exceptions`
//! choose with the same limits.

/// The largest DAG counted exactly on the CPU. The count streams the bit-parallel closure (never
/// stored), so memory is no limit; time is about (n + m)·n/64 word operations plus a label check
/// for every pair dimension 0 does not cut, which with weak labels is a good share of the n² pairs.
pub const EXACT_LIMIT: usize = 100_000;

/// The largest DAG counted exactly on a GPU (`src/gpu/exceptions.rs`); memory is no limit there
/// either, and the time grows with n²: at this size a count takes tens of seconds
/// (docs/BENCHMARKS.md, "Exceptions, exact").
pub const GPU_EXACT_LIMIT: usize = 2_000_000;

/// Up to this many vertices the CPU counts faster than the GPU, whose launches per group of the
/// schedule dominate on small graphs (docs/BENCHMARKS.md, "Measurements behind design choices").
pub const CPU_PREFERRED_LIMIT: usize = 50_000;

/// Where (and whether) the pairs are counted exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionPlan {
    /// Every pair, on the GPU.
    Gpu,
    /// Every pair, on the CPU.
    Cpu,
    /// Sampled pairs, on the CPU: an estimate.
    Sampled,
}

impl ExceptionPlan {
    /// The explorer's choice for a DAG of `n` vertices, with or without a GPU offered: exactly on
    /// the CPU while that is quick, on the GPU or the CPU while the graph is within their limits,
    /// else from sampled pairs.
    pub fn choose(n: usize, gpu: bool) -> ExceptionPlan {
        match n {
            n if n <= CPU_PREFERRED_LIMIT => ExceptionPlan::Cpu,
            n if gpu && n <= GPU_EXACT_LIMIT => ExceptionPlan::Gpu,
            n if n <= EXACT_LIMIT => ExceptionPlan::Cpu,
            _ => ExceptionPlan::Sampled,
        }
    }

    /// The choice when the device is named (the command line's `--device`): exactly there within
    /// its limit ([`ExceptionPlan::limit`]) or when `exact` insists, else from sampled pairs.
    pub fn on_device(n: usize, gpu: bool, exact: bool) -> ExceptionPlan {
        match (gpu, exact || n <= ExceptionPlan::limit(gpu)) {
            (_, false) => ExceptionPlan::Sampled,
            (true, true) => ExceptionPlan::Gpu,
            (false, true) => ExceptionPlan::Cpu,
        }
    }

    /// The most vertices counted exactly without being asked to: on a GPU, or on the CPU.
    pub fn limit(gpu: bool) -> usize {
        if gpu { GPU_EXACT_LIMIT } else { EXACT_LIMIT }
    }

    /// What the count is doing, for a status line.
    pub fn describe(self) -> &'static str {
        match self {
            ExceptionPlan::Gpu => "counting false positives over all pairs on the GPU",
            ExceptionPlan::Cpu => "counting false positives over all pairs on the CPU",
            ExceptionPlan::Sampled => "estimating false positives from sampled pairs on the CPU",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_counts_exactly_where_it_can() {
        assert_eq!(ExceptionPlan::choose(CPU_PREFERRED_LIMIT, true), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT, false), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT, true), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, false), ExceptionPlan::Sampled);
        assert_eq!(ExceptionPlan::choose(EXACT_LIMIT + 1, true), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::choose(GPU_EXACT_LIMIT + 1, true), ExceptionPlan::Sampled);
    }

    #[test]
    fn a_named_device_counts_exactly_within_its_limit_or_when_insisted() {
        assert_eq!(ExceptionPlan::on_device(10, true, false), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT, false, false), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT + 1, false, false), ExceptionPlan::Sampled);
        assert_eq!(ExceptionPlan::on_device(EXACT_LIMIT + 1, false, true), ExceptionPlan::Cpu);
        assert_eq!(ExceptionPlan::on_device(GPU_EXACT_LIMIT, true, false), ExceptionPlan::Gpu);
        assert_eq!(ExceptionPlan::on_device(GPU_EXACT_LIMIT + 1, true, false), ExceptionPlan::Sampled);
        assert_eq!(ExceptionPlan::on_device(GPU_EXACT_LIMIT + 1, true, true), ExceptionPlan::Gpu);
    }
}
