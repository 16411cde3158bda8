//! Size checks done before any generator allocates, so absurd parameters fail fast and cleanly.

use crate::{Error, Result};

/// The most edges a generator will build. Children and parents together take 8 bytes per edge, so
/// this caps a generated graph at about 32 GiB of adjacency.
pub const MAX_GENERATED_EDGES: u64 = 4_000_000_000;

/// Checks that there is at least one vertex and that `n` vertices get 32-bit ids.
pub(super) fn check_vertices(what: &str, n: u64) -> Result<()> {
    if n == 0 {
        return Err(Error::InvalidInput(format!("{what}: a graph needs at least one vertex")));
    }
    if n > u64::from(u32::MAX) {
        return Err(Error::InvalidInput(format!(
            "{what}: {n} vertices do not fit 32-bit vertex ids (at most {})",
            u32::MAX
        )));
    }
    check_memory(what, n, 0)
}

/// Bytes a generated graph takes at the least: the offsets of the children and parents CSRs per
/// vertex, a target in each per edge.
const BYTES_PER_VERTEX: u64 = 16;
const BYTES_PER_EDGE: u64 = 8;

/// Checks that `n` vertices and `edges` edges fit this machine's memory, before anything is
/// allocated: a refusal here is one clear line, where a failed allocation would abort.
pub(super) fn check_memory(what: &str, n: u64, edges: u64) -> Result<()> {
    let needed = n.saturating_mul(BYTES_PER_VERTEX).saturating_add(edges.saturating_mul(BYTES_PER_EDGE));
    if let Some(memory) = crate::system::physical_memory_bytes().filter(|&memory| needed > memory) {
        let edges = if edges == 0 { String::new() } else { format!(" and {edges} edges") };
        return Err(Error::OutOfMemory(format!(
            "{what}: {n} vertices{edges} need at least {} of memory; this machine has {}",
            crate::format::bytes(needed),
            crate::format::bytes(memory)
        )));
    }
    Ok(())
}

/// Checks that about `edges` edges (a float: estimates are products of parameters) stay within the
/// cap, before anything is allocated.
pub(super) fn check_edges(what: &str, edges: f64) -> Result<()> {
    if edges.is_nan() || edges > MAX_GENERATED_EDGES as f64 {
        return Err(Error::InvalidInput(format!(
            "{what}: about {edges:.0} edges (~{:.0} GiB of adjacency) exceed the generator limit of {MAX_GENERATED_EDGES}",
            edges * 8.0 / f64::from(1u32 << 30)
        )));
    }
    Ok(())
}

/// Checks an average degree: finite, not negative, and at most `max` (what `n` vertices allow).
pub(super) fn check_degree(what: &str, avg_degree: f64, max: f64) -> Result<()> {
    if !avg_degree.is_finite() || avg_degree < 0.0 {
        return Err(Error::InvalidInput(format!(
            "{what}: average degree must be a finite number >= 0, got {avg_degree}"
        )));
    }
    if avg_degree > max {
        return Err(Error::InvalidInput(format!(
            "{what}: average degree {avg_degree} is more than these vertices allow (at most {max})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_empty_huge_and_nonsense() {
        assert!(check_vertices("t", 0).is_err());
        assert!(check_vertices("t", 1 << 33).is_err());
        assert!(check_vertices("t", 10).is_ok());
        assert!(check_edges("t", 1e12).is_err());
        assert!(check_edges("t", f64::NAN).is_err());
        assert!(check_edges("t", 45.0).is_ok());
        assert!(check_degree("t", -1.0, 5.0).is_err());
        assert!(check_degree("t", f64::INFINITY, 5.0).is_err());
        assert!(check_degree("t", 6.0, 5.0).is_err());
        assert!(check_degree("t", 5.0, 5.0).is_ok());
    }

    #[test]
    fn graphs_beyond_the_machine_memory_are_refused_before_allocating() {
        let Some(memory) = crate::system::physical_memory_bytes() else { return };
        let n = memory / BYTES_PER_VERTEX + 1;
        let e = check_memory("tree", n, n - 1).unwrap_err().to_string();
        assert!(e.starts_with(&format!("tree: {n} vertices and {} edges need at least", n - 1)), "{e}");
        assert!(check_memory("tree", 1000, 999).is_ok());
    }
}
