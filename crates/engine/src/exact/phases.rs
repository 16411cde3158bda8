//! Per-phase timing of an exact run (what `grail closure` reports as the time per phase).

use serde::Serialize;
use std::time::Instant;

/// One timed step of a closure run.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseTime {
    /// The phase's name.
    pub phase: String,
    /// Wall-clock seconds it took.
    pub seconds: f64,
}

/// Times the phases of a run, in order.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PhaseClock {
    /// Each phase timed, in the order it ran.
    pub phases: Vec<PhaseTime>,
}

impl PhaseClock {
    /// Runs `f` as the phase `name`.
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        self.phases.push(PhaseTime { phase: name.to_string(), seconds: start.elapsed().as_secs_f64() });
        value
    }

    /// Seconds of all phases together.
    pub fn total(&self) -> f64 {
        self.phases.iter().map(|p| p.seconds).sum()
    }
}
