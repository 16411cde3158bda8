//! Timing and reporting levels without letting either dominate deep, narrow graphs.
//!
//! Reading the clock costs about 30 ns, as much as a level of one vertex does, and so does an event
//! (the driver folds every one into tables; dimensions running in parallel hand theirs over on one
//! thread). On a chain (a Kahn level and a depth level per vertex) a reading and an event per level
//! were most of the run, and with several dimensions in parallel the hand-over made it slower than
//! one thread. So consecutive tiny levels (see `is_tiny`) share one `LevelDone` event, whose
//! `span` says how many levels it covers (queues and edges summed), up to [`MAX_SPAN`] of them, and
//! one clock reading. Any other level gets an event and a reading of its own: the caller flushes
//! the waiting span when it starts (a level's size is known before it runs). Events therefore reach
//! the sink in order; phase totals are exact either way.

use crate::telemetry::{Event, Phase, QueueSizes, Sink};
use std::time::Instant;

/// The most tiny levels one event covers. Large enough that a chain's events cost nothing beside
/// its levels, small enough that a cancelled run reports its last levels promptly.
pub const MAX_SPAN: usize = 1024;

/// A level whose frontier and scanned edges together stay below this is tiny.
const TINY_WORK: u64 = 64;

/// Whether a level is too small to be worth a clock reading and an event of its own.
pub(crate) fn is_tiny(vertices: u64, edges: u64) -> bool {
    vertices + edges < TINY_WORK
}

/// Levels that just ended: `span` consecutive ones from `level` on (one unless they are tiny ones
/// run together), with their queues and edges summed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Level {
    pub dim: usize,
    pub phase: Phase,
    pub level: usize,
    pub span: usize,
    pub queues: QueueSizes,
    pub edges: u64,
}

/// The clock of one call's run of levels and the span of tiny levels waiting for a reading.
#[derive(Debug)]
pub(crate) struct LevelClock {
    since: Instant,
    /// The tiny levels waiting, as one span.
    pending: Option<Level>,
}

impl LevelClock {
    pub fn start() -> LevelClock {
        LevelClock { since: Instant::now(), pending: None }
    }

    /// The last reading.
    pub fn last_reading(&self) -> Instant {
        self.since
    }

    /// Seconds since the last reading, for work outside levels (starting or finishing a phase).
    /// Call only with no level waiting (after [`Self::flush`]).
    pub fn lap(&mut self) -> f64 {
        debug_assert!(self.pending.is_none(), "levels waiting for their time");
        let now = Instant::now();
        let seconds = now.duration_since(self.since).as_secs_f64();
        self.since = now;
        seconds
    }

    /// `level` just ended. Tiny levels join the waiting span (of the same dimension and phase)
    /// unless it would grow past [`MAX_SPAN`]; any other level is emitted at once, after the span.
    /// Returns the seconds given out to the events emitted.
    #[inline]
    pub fn level_done(&mut self, level: Level, tiny: bool, sink: &mut dyn Sink) -> f64 {
        if tiny
            && let Some(waiting) = &mut self.pending
            && (waiting.dim, waiting.phase) == (level.dim, level.phase)
            && waiting.span + level.span <= MAX_SPAN
        {
            waiting.span += level.span;
            waiting.queues = waiting.queues.merged(level.queues);
            waiting.edges += level.edges;
            return 0.0;
        }
        let waited = self.flush(sink);
        self.pending = Some(level);
        if tiny { waited } else { waited + self.flush(sink) }
    }

    /// Emits the waiting span with the time since the last reading; returns that time (0 when
    /// nothing waits).
    pub fn flush(&mut self, sink: &mut dyn Sink) -> f64 {
        let Some(Level { dim, phase, level, span, queues, edges }) = self.pending.take() else {
            return 0.0;
        };
        let now = Instant::now();
        let seconds = now.duration_since(self.since).as_secs_f64();
        self.since = now;
        sink.emit(Event::LevelDone { dim, phase, level, span, queues, edges_scanned: edges, seconds });
        seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: usize) -> Level {
        let queues = QueueSizes { small: 1, medium: 0, large: 0 };
        Level { dim: 0, phase: Phase::MinPost, level, span: 1, queues, edges: 1 }
    }

    fn fields(event: &Event) -> (usize, usize, u64, u64, f64) {
        match event {
            Event::LevelDone { level, span, queues, edges_scanned, seconds, .. } => {
                (*level, *span, queues.total(), *edges_scanned, *seconds)
            }
            other => panic!("not a level: {other:?}"),
        }
    }

    #[test]
    fn tiny_levels_share_one_event_up_to_a_full_span() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        let mut given = 0.0;
        for i in 0..MAX_SPAN {
            given += clock.level_done(level(i), true, &mut events);
        }
        assert!(events.is_empty(), "tiny levels wait");
        std::thread::sleep(std::time::Duration::from_millis(2));
        // The next tiny level does not fit: the full span goes out, the new one waits.
        given += clock.level_done(level(MAX_SPAN), true, &mut events);
        assert_eq!(events.len(), 1);
        let (first, span, vertices, edges, seconds) = fields(&events[0]);
        assert_eq!((first, span, vertices, edges), (0, MAX_SPAN, MAX_SPAN as u64, MAX_SPAN as u64));
        assert!(seconds >= 0.002 && (seconds - given).abs() < 1e-12);
        given += clock.flush(&mut events);
        assert_eq!(fields(&events[1]).0..fields(&events[1]).0 + fields(&events[1]).1, MAX_SPAN..MAX_SPAN + 1);
        assert!(given >= seconds);
    }

    #[test]
    fn a_level_that_is_not_tiny_gets_its_own_event_after_the_waiting_span() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        clock.level_done(level(0), true, &mut events);
        clock.level_done(level(1), true, &mut events);
        let given = clock.level_done(level(2), false, &mut events);
        assert_eq!(events.iter().map(|e| (fields(e).0, fields(e).1)).collect::<Vec<_>>(), vec![(0, 2), (2, 1)]);
        assert!(given >= 0.0 && fields(&events[1]).4 >= 0.0);
        assert_eq!(clock.flush(&mut events), 0.0, "nothing left");
        assert!(is_tiny(1, 1) && !is_tiny(10, 60));
    }

    #[test]
    fn levels_run_together_join_the_span_as_their_number_of_levels() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        clock.level_done(Level { span: MAX_SPAN - 10, ..level(0) }, true, &mut events);
        clock.level_done(Level { span: 10, ..level(MAX_SPAN - 10) }, true, &mut events);
        assert!(events.is_empty(), "exactly full");
        // One more level would make the span too long: the full one goes out first.
        clock.level_done(Level { span: 3, ..level(MAX_SPAN) }, true, &mut events);
        clock.flush(&mut events);
        let spans: Vec<(usize, usize, u64)> = events.iter().map(|e| (fields(e).0, fields(e).1, fields(e).2)).collect();
        assert_eq!(spans, vec![(0, MAX_SPAN, 2), (MAX_SPAN, 3, 1)]);
    }

    #[test]
    fn spans_never_mix_phases() {
        let mut clock = LevelClock::start();
        let mut events: Vec<Event> = Vec::new();
        clock.level_done(level(0), true, &mut events);
        let other = Level { phase: Phase::PostOrder, ..level(0) };
        clock.level_done(other, true, &mut events);
        clock.flush(&mut events);
        assert_eq!(events.len(), 2);
    }
}
