//! The GPU labeler's events, held until the device has run the levels they report.
//!
//! A level's time is read off two CUDA events recorded around its launches (the first is the one
//! that ended the stream's previous level, when nothing was queued between), which can be read only
//! once the device has passed them. Waiting at every phase's end left the device idle while the
//! host queued the next phase's launches (twenty times per run of five dimensions); so the labeler
//! queues levels and phases ahead and hands their events over, in order and timed, at the few
//! points where it waits anyway: a step of one level, the end of a call, the end of the run.

use super::context::Gpu;
use crate::telemetry::{Event, Phase, QueueSizes, Sink};
use anyhow::Result;
use cudarc::driver::{CudaEvent, sys};
use std::ops::Range;

/// One queued level: what its events will say, but their time. Dimensions side by side run a level
/// in one launch (`gpu::lane`): each gets an event, with the launch's time.
pub struct LevelRecord {
    pub dims: Range<usize>,
    pub phase: Phase,
    /// The phase's step (bottom-up phases count from the deepest Kahn level).
    pub level: usize,
    pub queues: QueueSizes,
    pub edges_scanned: u64,
}

/// A level queued on the context's stream, between two of the clock's marks.
struct HeldLevel {
    record: LevelRecord,
    start: usize,
    end: usize,
}

/// An event waiting for the device, in the order it is to be emitted.
enum Held {
    /// Ready as it is.
    Ready(Event),
    /// A level queued.
    Level(HeldLevel),
    /// A phase's end: its time is the sum of its levels'.
    PhaseDone { dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64 },
}

/// The marks recorded on the context's stream, where the labeler queues every level.
#[derive(Default)]
struct Clock {
    /// Marks, reused from one flush to the next (the first `used`).
    marks: Vec<CudaEvent>,
    used: usize,
    /// The mark that ended the last level, while nothing else has been queued since (the next
    /// level starts there, which saves a mark per level).
    boundary: Option<usize>,
    /// Where the level now running started.
    open: usize,
    /// The mark that ended the last level held.
    last: Option<usize>,
}

impl Clock {
    /// Marks the start of a level, whose launches follow.
    fn level_started(&mut self, gpu: &Gpu) -> Result<()> {
        self.open = match self.boundary {
            Some(mark) => mark,
            None => self.record(gpu)?,
        };
        Ok(())
    }

    /// Marks the end of the level started last; the timeline holds what it returns.
    fn level_done(&mut self, gpu: &Gpu, record: LevelRecord) -> Result<HeldLevel> {
        let end = self.record(gpu)?;
        (self.boundary, self.last) = (Some(end), Some(end));
        Ok(HeldLevel { record, start: self.open, end })
    }

    /// Records the next free mark on the context's stream, creating it on first use; returns its
    /// index.
    fn record(&mut self, gpu: &Gpu) -> Result<usize> {
        if self.marks.len() == self.used {
            self.marks.push(gpu.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?);
        }
        self.marks[self.used].record(&gpu.stream)?;
        self.used += 1;
        Ok(self.used - 1)
    }

    /// Seconds from mark `from` to mark `to` (both passed).
    fn seconds(&self, from: usize, to: usize) -> Result<f64> {
        Ok(self.marks[from].elapsed_ms(&self.marks[to])? as f64 / 1e3)
    }
}

/// Held events and the clock that times their levels.
#[derive(Default)]
pub struct Timeline {
    held: Vec<Held>,
    clock: Clock,
    /// Per dimension: device time of the levels flushed so far in the phase it is running.
    phase_seconds: Vec<f64>,
}

impl Timeline {
    /// Holds an event that needs no timing (it is emitted after every event held before it).
    pub fn push(&mut self, event: Event) {
        self.held.push(Held::Ready(event));
    }

    /// Says that other work was queued on the stream since the last level (the next level's time
    /// must not include it).
    pub fn interrupt(&mut self) {
        self.clock.boundary = None;
    }

    /// Marks the start of a level on the context's stream; its launches follow.
    pub fn level_started(&mut self, gpu: &Gpu) -> Result<()> {
        self.clock.level_started(gpu)
    }

    /// Marks the end of the level started last, and holds its events.
    pub fn level_done(&mut self, gpu: &Gpu, record: LevelRecord) -> Result<()> {
        let level = self.clock.level_done(gpu, record)?;
        self.held.push(Held::Level(level));
        Ok(())
    }

    /// Holds a phase's end; its time is that of its levels, flushed or not.
    pub fn phase_done(&mut self, dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64) {
        self.held.push(Held::PhaseDone { dim, phase, levels, vertices, edges_scanned });
    }

    /// Waits for the device to pass every held level, then emits every held event in order;
    /// returns the device time from the first held level's start to the last one's end.
    pub fn flush(&mut self, sink: &mut dyn Sink) -> Result<f64> {
        let clock = &mut self.clock;
        let last = clock.last.take();
        if let Some(end) = last {
            clock.marks[end].synchronize()?;
        }
        let first = self.held.iter().find_map(|h| match h {
            Held::Level(level) => Some(level.start),
            _ => None,
        });
        let span = match (first, last) {
            (Some(first), Some(last)) => clock.seconds(first, last)?,
            _ => 0.0,
        };
        for held in self.held.drain(..) {
            match held {
                Held::Ready(event) => sink.emit(event),
                Held::Level(HeldLevel { record, start, end }) => {
                    let seconds = clock.seconds(start, end)?;
                    let LevelRecord { dims, phase, level, queues, edges_scanned } = record;
                    if self.phase_seconds.len() < dims.end {
                        self.phase_seconds.resize(dims.end, 0.0);
                    }
                    for dim in dims {
                        self.phase_seconds[dim] += seconds;
                        let span = 1;
                        sink.emit(Event::LevelDone { dim, phase, level, span, queues, edges_scanned, seconds });
                    }
                }
                Held::PhaseDone { dim, phase, levels, vertices, edges_scanned } => {
                    let seconds = self.phase_seconds.get_mut(dim).map_or(0.0, std::mem::take);
                    sink.emit(Event::PhaseDone { dim, phase, levels, vertices, edges_scanned, seconds });
                }
            }
        }
        // The marks are reused: a level after this flush starts at a mark of its own.
        (clock.used, clock.boundary) = (0, None);
        Ok(span)
    }

    /// Drops what is held (a reset: the run's events will not be wanted).
    pub fn clear(&mut self) {
        self.held.clear();
        self.phase_seconds.clear();
        let clock = &mut self.clock;
        (clock.used, clock.boundary, clock.last) = (0, None, None);
    }
}
