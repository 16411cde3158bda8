//! Timing levels without letting the clock dominate deep, narrow graphs.
//!
//! Reading the clock costs about 30 ns, as much as a level of one vertex does: on a chain (a Kahn
//! level and a depth level per vertex) a reading per level was a third of the whole run. So a tiny
//! level (see [`is_tiny`]) is not timed alone: its `LevelDone` event waits, with those of the tiny
//! levels after it, up to [`TINY_BATCH`] of them, and the next reading gives each an equal share of
//! the time since the previous one. Any other level gets a reading of its own: the caller flushes
//! the waiting ones when it starts (a level's size is known before it runs). Events therefore
//! reach the sink in order, tiny ones in small groups; phase totals are exact either way.

use crate::telemetry::{Event, Sink};
use std::time::Instant;

/// The most tiny levels whose events wait for one clock reading.
pub const TINY_BATCH: usize = 32;

/// A level whose frontier and scanned edges together stay below this is tiny.
const TINY_WORK: u64 = 64;

/// Whether a level is too small to be worth a clock reading of its own.
pub fn is_tiny(vertices: u64, edges: u64) -> bool {
    vertices + edges < TINY_WORK
}

/// The clock of one call's run of levels and the level events waiting for a reading.
#[derive(Debug)]
pub struct LevelClock {
    since: Instant,
    pending: Vec<Event>,
}

impl LevelClock {
    pub fn start() -> LevelClock {
        LevelClock { since: Instant::now(), pending: Vec::with_capacity(TINY_BATCH) }
    }

    /// The last reading.
    pub fn last_reading(&self) -> Instant {
        self.since
    }

    /// Seconds since the last reading, for work outside levels (starting or finishing a phase).
    /// Call only with no level waiting (after [`Self::flush`]).
    pub fn lap(&mut self) -> f64 {
        debug_assert!(self.pending.is_empty(), "levels waiting for their time");
        let now = Instant::now();
        let seconds = now.duration_since(self.since).as_secs_f64();
        self.since = now;
        seconds
    }

    /// A level just ended with this `LevelDone` event (its `seconds` is filled in here). Emits it,
    /// and any waiting before it, unless it is tiny and the batch has room. Returns the seconds
    /// given out to the events emitted.
    pub fn level_done(&mut self, event: Event, tiny: bool, sink: &mut dyn Sink) -> f64 {
        self.pending.push(event);
        if tiny && self.pending.len() < TINY_BATCH { 0.0 } else { self.flush(sink) }
    }

    /// Emits the waiting level events, sharing the time since the last reading among them; returns
    /// that time (0 when none waits).
    pub fn flush(&mut self, sink: &mut dyn Sink) -> f64 {
        if self.pending.is_empty() {
            return 0.0;
        }
        let now = Instant::now();
        let seconds = now.duration_since(self.since).as_secs_f64();
        self.since = now;
        let share = seconds / self.pending.len() as f64;
        for mut event in self.pending.drain(..) {
            if let Event::LevelDone { seconds, .. } = &mut event {
                *seconds = share;
            }
            sink.emit(event);
        }
        seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::{Phase, QueueSizes};

    fn level(level: usize) -> Event {
        let queues = QueueSizes { small: 1, medium: 0, large: 0 };
        Event::LevelDone { dim: 0, phase: Phase::MinPost, level, queues, edges_scanned: 1, seconds: -1.0 }
    }

    fn seconds(event: &Event) -> f64 {
        match event {
            Event::LevelDone { seconds, .. } => *seconds,
            other => panic!("not a level: {other:?}"),
        }
    }

    #[test]
    fn tiny_levels_wait_for_a_batch_and_share_its_time() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        let mut given = 0.0;
        for i in 0..TINY_BATCH - 1 {
            given += clock.level_done(level(i), true, &mut events);
        }
        assert!(events.is_empty(), "tiny levels wait");
        std::thread::sleep(std::time::Duration::from_millis(2));
        given += clock.level_done(level(TINY_BATCH - 1), true, &mut events);
        assert_eq!(events.len(), TINY_BATCH, "a full batch is emitted");
        let levels: Vec<usize> =
            events.iter().map(|e| if let Event::LevelDone { level, .. } = e { *level } else { 0 }).collect();
        assert_eq!(levels, (0..TINY_BATCH).collect::<Vec<_>>(), "in order");
        let first = seconds(&events[0]);
        assert!(first > 0.0 && events.iter().all(|e| seconds(e) == first), "equal shares");
        assert!((first * TINY_BATCH as f64 - given).abs() < 1e-9 && given >= 0.002);
    }

    #[test]
    fn a_level_that_is_not_tiny_is_timed_at_once_with_those_waiting() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        clock.level_done(level(0), true, &mut events);
        let given = clock.level_done(level(1), false, &mut events);
        assert_eq!(events.len(), 2);
        assert!(given >= 0.0 && seconds(&events[1]) >= 0.0);
        assert_eq!(clock.flush(&mut events), 0.0, "nothing left");
        assert!(is_tiny(1, 1) && !is_tiny(10, 60));
    }
}
