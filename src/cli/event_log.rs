//! `--trace FILE.jsonl`: the labeling's events, one JSON object per line, in a file that replaces
//! an older log only when the run succeeded.

use crate::graph::io::Staged;
use crate::telemetry::{Event, Sink};
use anyhow::{Context, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes one JSON object per line, to a new file that takes the place of `path` only when
/// [`JsonLinesSink::finish`] succeeds: a failed or killed run leaves an older log as it was. Write
/// errors are remembered, not panicked on: [`Sink::emit`] cannot fail, so `finish` reports the
/// first one.
#[derive(Debug)]
pub struct JsonLinesSink {
    path: PathBuf,
    out: BufWriter<Staged>,
    error: Option<std::io::Error>,
}

impl JsonLinesSink {
    /// Starts the log that will replace `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<JsonLinesSink> {
        let path = path.as_ref().to_path_buf();
        let staged = Staged::new(&path).with_context(|| format!("cannot create the event log {}", path.display()))?;
        Ok(JsonLinesSink { path, out: BufWriter::new(staged), error: None })
    }

    /// Writes out the log and puts it in place, or reports the first write error.
    pub fn finish(mut self) -> Result<()> {
        let cannot = || format!("cannot write the event log {}", self.path.display());
        if let Some(e) = self.error.take() {
            return Err(e).with_context(cannot);
        }
        let staged = self.out.into_inner().map_err(|e| e.into_error()).with_context(cannot)?;
        staged.file().sync_all().with_context(cannot)?;
        Ok(staged.place()?)
    }
}

impl Sink for JsonLinesSink {
    fn emit(&mut self, event: Event) {
        if self.error.is_some() {
            return;
        }
        let written = serde_json::to_writer(&mut self.out, &event)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        if let Err(e) = written {
            self.error = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Order;
    use crate::telemetry::{Backend, Phase, QueueSizes};

    #[test]
    fn events_round_trip_through_json_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let events = vec![
            Event::RunStarted {
                backend: Backend::Cpu,
                dims: 2,
                order: Order::Random { seed: 3 },
                vertices: 5,
                edges: 4,
            },
            Event::PhaseStarted { dim: 1, phase: Phase::PostOrder },
            Event::LevelDone {
                dim: 1,
                phase: Phase::PostOrder,
                level: 0,
                span: 1,
                queues: QueueSizes { small: 1, medium: 0, large: 0 },
                edges_scanned: 3,
                seconds: 0.5,
            },
            Event::Memory { resident_bytes: Some(10), structures: vec![("tree".into(), 12)] },
            Event::Cancelled,
        ];
        let mut sink = JsonLinesSink::create(&path).unwrap();
        for e in &events {
            sink.emit(e.clone());
        }
        sink.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), events.len());
        assert!(text.lines().nth(1).unwrap().contains(r#""event":"phase_started""#));
        assert!(text.lines().nth(1).unwrap().contains(r#""phase":"post_order""#));
        let back: Vec<Event> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(back, events);
    }

    #[test]
    fn unwritable_path_is_an_error_not_a_panic() {
        let err = JsonLinesSink::create("/nonexistent-dir/events.jsonl").unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent-dir/events.jsonl"));
    }
}
