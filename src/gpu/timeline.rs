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
use cudarc::driver::{CudaEvent, CudaStream, sys};

/// One queued level: what its event will say, but its time.
pub struct LevelRecord {
    pub dim: usize,
    pub phase: Phase,
    /// The phase's step (bottom-up phases count from the deepest Kahn level).
    pub level: usize,
    pub queues: QueueSizes,
    pub edges_scanned: u64,
}

/// A level queued on a lane, between two of its clock's marks.
pub struct HeldLevel {
    record: LevelRecord,
    start: usize,
    end: usize,
}

/// An event waiting for the device, in the order it is to be emitted.
enum Held {
    /// Ready as it is.
    Ready(Event),
    /// A level queued on lane `lane`.
    Level { lane: usize, level: HeldLevel },
    /// A phase's end: its time is the sum of its levels'.
    PhaseDone { dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64 },
}

/// The marks recorded on one lane's stream. Lanes queue their levels from threads of their own, so
/// each has its own marks.
#[derive(Default)]
pub struct LaneClock {
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

impl LaneClock {
    /// Says that other work was queued on the lane since its last level (a level's time must not
    /// include it).
    pub fn interrupt(&mut self) {
        self.boundary = None;
    }

    /// Marks the start of a level, whose launches follow on `stream`.
    pub fn level_started(&mut self, gpu: &Gpu, stream: &CudaStream) -> Result<()> {
        self.open = match self.boundary {
            Some(mark) => mark,
            None => self.record(gpu, stream)?,
        };
        Ok(())
    }

    /// Marks the end of the level started last; the timeline holds what it returns.
    pub fn level_done(&mut self, gpu: &Gpu, stream: &CudaStream, record: LevelRecord) -> Result<HeldLevel> {
        let end = self.record(gpu, stream)?;
        (self.boundary, self.last) = (Some(end), Some(end));
        Ok(HeldLevel { record, start: self.open, end })
    }

    /// Records the next free mark on `stream`, creating it on first use; returns its index.
    fn record(&mut self, gpu: &Gpu, stream: &CudaStream) -> Result<usize> {
        if self.marks.len() == self.used {
            self.marks.push(gpu.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?);
        }
        self.marks[self.used].record(stream)?;
        self.used += 1;
        Ok(self.used - 1)
    }

    /// Seconds from this clock's mark `from` to `other`'s mark `to` (both passed).
    fn seconds(&self, from: usize, other: &LaneClock, to: usize) -> Result<f64> {
        Ok(self.marks[from].elapsed_ms(&other.marks[to])? as f64 / 1e3)
    }
}

/// Held events and the lanes' clocks that time their levels.
#[derive(Default)]
pub struct Timeline {
    held: Vec<Held>,
    clocks: Vec<LaneClock>,
    /// Per dimension: device time of the levels flushed so far in the phase it is running.
    phase_seconds: Vec<f64>,
}

impl Timeline {
    /// Holds an event that needs no timing (it is emitted after every event held before it).
    pub fn push(&mut self, event: Event) {
        self.held.push(Held::Ready(event));
    }

    /// The clocks of the first `lanes` lanes.
    pub fn clocks(&mut self, lanes: usize) -> &mut [LaneClock] {
        if self.clocks.len() < lanes {
            self.clocks.resize_with(lanes, LaneClock::default);
        }
        &mut self.clocks[..lanes]
    }

    /// Holds a level that lane `lane`'s clock timed.
    pub fn push_level(&mut self, lane: usize, level: HeldLevel) {
        self.held.push(Held::Level { lane, level });
    }

    /// Holds a phase's end; its time is that of its levels, flushed or not.
    pub fn phase_done(&mut self, dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64) {
        self.held.push(Held::PhaseDone { dim, phase, levels, vertices, edges_scanned });
    }

    /// Waits for the device to pass every held level, then emits every held event in order;
    /// returns the device time from the first held level's start to the last one's end (lanes run
    /// side by side, so their levels' times overlap).
    pub fn flush(&mut self, sink: &mut dyn Sink) -> Result<f64> {
        // Each lane's last mark, passed: the device time ends at the latest of them.
        let mut ends = Vec::with_capacity(self.clocks.len());
        for (lane, clock) in self.clocks.iter_mut().enumerate() {
            if let Some(end) = clock.last.take() {
                clock.marks[end].synchronize()?;
                ends.push((lane, end));
            }
        }
        let first = self.held.iter().find_map(|h| match h {
            Held::Level { lane, level } => Some((*lane, level.start)),
            _ => None,
        });
        let mut span: f64 = 0.0;
        if let Some((first_lane, first_start)) = first {
            for &(lane, end) in &ends {
                span = span.max(self.clocks[first_lane].seconds(first_start, &self.clocks[lane], end)?);
            }
        }
        for held in self.held.drain(..) {
            match held {
                Held::Ready(event) => sink.emit(event),
                Held::Level { lane, level: HeldLevel { record, start, end } } => {
                    let clock = &self.clocks[lane];
                    let seconds = clock.seconds(start, clock, end)?;
                    let LevelRecord { dim, phase, level, queues, edges_scanned } = record;
                    if self.phase_seconds.len() <= dim {
                        self.phase_seconds.resize(dim + 1, 0.0);
                    }
                    self.phase_seconds[dim] += seconds;
                    let span = 1;
                    sink.emit(Event::LevelDone { dim, phase, level, span, queues, edges_scanned, seconds });
                }
                Held::PhaseDone { dim, phase, levels, vertices, edges_scanned } => {
                    let seconds = self.phase_seconds.get_mut(dim).map_or(0.0, std::mem::take);
                    sink.emit(Event::PhaseDone { dim, phase, levels, vertices, edges_scanned, seconds });
                }
            }
        }
        // The marks are reused: a level after this flush starts at a mark of its own.
        for clock in &mut self.clocks {
            (clock.used, clock.boundary) = (0, None);
        }
        Ok(span)
    }

    /// Drops what is held (a reset: the run's events will not be wanted).
    pub fn clear(&mut self) {
        self.held.clear();
        self.phase_seconds.clear();
        for clock in &mut self.clocks {
            (clock.used, clock.boundary, clock.last) = (0, None, None);
        }
    }
}
