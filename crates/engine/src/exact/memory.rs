//! Memory a closure method (or an all-pairs shortest-path matrix) needs, said before anything is
//! allocated, and refused with that figure when it does not fit.

use crate::format::bytes;
use crate::{Error, Result};

/// The share of a memory that one computation may take: the rest is left to the program, the
/// operating system (or the GPU's own reservations) and other processes.
const USABLE_SHARE: f64 = 0.8;

/// What a computation needs, and where.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct MemoryNeed {
    /// Bytes needed.
    pub bytes: u64,
    /// What holds them, for the message (`2 bit matrices of 20000 × 20000`).
    pub what: &'static str,
}

impl MemoryNeed {
    /// Fails, with both figures, when `self` does not fit in `available` bytes of `place` (None: the
    /// system does not say, so the allocation itself will tell).
    pub fn check(&self, available: Option<u64>, place: &str) -> Result<()> {
        self.check_task(
            available,
            place,
            "the closure",
            "`grail closure --stream` counts the pairs 64 sources a word without storing the matrix, or take a \
             smaller graph",
        )
    }

    /// [`check`](Self::check) for another computation: `task` names it in the message, `instead`
    /// says what to do instead.
    pub fn check_task(&self, available: Option<u64>, place: &str, task: &str, instead: &str) -> Result<()> {
        let Some(available) = available else { return Ok(()) };
        let usable = (available as f64 * USABLE_SHARE) as u64;
        if self.bytes > usable {
            return Err(Error::OutOfMemory(format!(
                "{task} needs {} ({}) but {place} has {} ({} usable); {instead}",
                bytes(self.bytes),
                self.what,
                bytes(available),
                bytes(usable)
            )));
        }
        Ok(())
    }

    /// [`check`](Self::check) against the host's physical memory.
    pub fn check_host(&self) -> Result<()> {
        self.check(crate::system::physical_memory_bytes(), "this machine")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusal_names_both_figures() {
        let need = MemoryNeed { bytes: 10 << 30, what: "a bit matrix" };
        let err = need.check(Some(4 << 30), "the GPU").unwrap_err().to_string();
        assert!(err.contains("10.0 GiB") || err.contains("GiB"), "{err}");
        assert!(err.contains("the GPU"), "{err}");
        assert!(need.check(Some(100 << 30), "the GPU").is_ok());
        assert!(need.check(None, "the GPU").is_ok());
    }
}
