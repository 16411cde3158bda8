//! The GPU labeler's events, held until the device has run the levels they report.
//!
//! A level's time is read off two CUDA events recorded around its launches, which can be read only
//! once the device has passed them. Waiting at every phase's end left the device idle while the
//! host queued the next phase's launches (twenty times per run of five dimensions); so the labeler
//! queues levels and phases ahead and hands their events over, in order and timed, at the few
//! points where it waits anyway: a step of one level, the end of a call, the end of the run.

use super::context::Gpu;
use crate::telemetry::{Event, Phase, QueueSizes, Sink};
use anyhow::Result;
use cudarc::driver::{CudaEvent, sys};

/// One queued level: what its event will say, but its time.
pub struct LevelRecord {
    pub dim: usize,
    pub phase: Phase,
    /// The phase's step (bottom-up phases count from the deepest Kahn level).
    pub level: usize,
    pub queues: QueueSizes,
    pub edges_scanned: u64,
}

/// An event waiting for the device, in the order it is to be emitted.
enum Held {
    /// Ready as it is.
    Ready(Event),
    /// A level: its time lies between marks `2 i` and `2 i + 1`.
    Level(LevelRecord),
    /// A phase's end: its time is the sum of its levels'.
    PhaseDone { dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64 },
}

/// Held events and the marks that time their levels.
#[derive(Default)]
pub struct Timeline {
    held: Vec<Held>,
    /// Two marks per held level, reused from one flush to the next.
    marks: Vec<CudaEvent>,
    /// Levels held (marks in use: twice as many).
    levels: usize,
    /// Device time of the levels flushed so far in the phase still running.
    phase_seconds: f64,
}

impl Timeline {
    /// Holds an event that needs no timing (it is emitted after every event held before it).
    pub fn push(&mut self, event: Event) {
        self.held.push(Held::Ready(event));
    }

    /// Marks the start of a level on the stream; its launches follow.
    pub fn level_started(&mut self, gpu: &Gpu) -> Result<()> {
        self.record(gpu, 2 * self.levels)
    }

    /// Marks the end of the level started last, and holds its event.
    pub fn level_done(&mut self, gpu: &Gpu, record: LevelRecord) -> Result<()> {
        self.record(gpu, 2 * self.levels + 1)?;
        self.levels += 1;
        self.held.push(Held::Level(record));
        Ok(())
    }

    /// Holds a phase's end; its time is that of its levels, flushed or not.
    pub fn phase_done(&mut self, dim: usize, phase: Phase, levels: usize, vertices: u64, edges_scanned: u64) {
        self.held.push(Held::PhaseDone { dim, phase, levels, vertices, edges_scanned });
    }

    /// Waits for the device to pass the last held level, then emits every held event in order;
    /// returns the device time of the levels emitted.
    pub fn flush(&mut self, sink: &mut dyn Sink) -> Result<f64> {
        if self.levels > 0 {
            self.marks[2 * self.levels - 1].synchronize()?;
        }
        let mut total = 0.0;
        let mut level = 0;
        for held in self.held.drain(..) {
            match held {
                Held::Ready(event) => sink.emit(event),
                Held::Level(LevelRecord { dim, phase, level: step, queues, edges_scanned }) => {
                    let seconds = self.marks[2 * level].elapsed_ms(&self.marks[2 * level + 1])? as f64 / 1e3;
                    level += 1;
                    total += seconds;
                    self.phase_seconds += seconds;
                    let span = 1;
                    sink.emit(Event::LevelDone { dim, phase, level: step, span, queues, edges_scanned, seconds });
                }
                Held::PhaseDone { dim, phase, levels, vertices, edges_scanned } => {
                    let seconds = std::mem::take(&mut self.phase_seconds);
                    sink.emit(Event::PhaseDone { dim, phase, levels, vertices, edges_scanned, seconds });
                }
            }
        }
        self.levels = 0;
        Ok(total)
    }

    /// Drops what is held (a reset: the run's events will not be wanted).
    pub fn clear(&mut self) {
        self.held.clear();
        self.levels = 0;
        self.phase_seconds = 0.0;
    }

    /// Records mark `i` on the stream, creating it on first use.
    fn record(&mut self, gpu: &Gpu, i: usize) -> Result<()> {
        while self.marks.len() <= i {
            self.marks.push(gpu.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?);
        }
        self.marks[i].record(&gpu.stream)?;
        Ok(())
    }
}
