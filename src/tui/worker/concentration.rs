//! Where the finished labels' false positives concentrate, counted on a thread of its own for the
//! Graph tab.
//!
//! The count starts when the session's labels are complete and is cancelled when they change
//! (rebuilt, another setting, another graph), so the worker keeps running other jobs meanwhile. Its
//! message carries the labels it was counted with: the app drops a result whose labels are no
//! longer the ones on screen.

use super::msg::Msg;
use crate::exceptions::concentration::concentration;
use crate::exceptions::{SAMPLE_SEED as SEED, SAMPLES};
use crate::index::Labels;
use crate::tui::event::AppEvent;
use crate::workspace::Workspace;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread;

/// The count in flight (or done) and the labels it is for.
#[derive(Default)]
pub struct BackgroundConcentration {
    current: Option<(Arc<Labels>, Arc<AtomicBool>)>,
}

impl BackgroundConcentration {
    /// Makes the count follow `labels`: nothing changes while they are the labels counted (or
    /// being counted); otherwise the count in flight is cancelled and, if there are labels, a new
    /// one starts on `ws`'s DAG, answering on `out`.
    pub fn follow(&mut self, ws: &Arc<Workspace>, labels: Option<Arc<Labels>>, out: &Sender<AppEvent<Msg>>) {
        if self.current.as_ref().map(|(l, _)| l).zip(labels.as_ref()).is_some_and(|(a, b)| Arc::ptr_eq(a, b)) {
            return;
        }
        if let Some((_, cancel)) = self.current.take() {
            cancel.store(true, Ordering::Relaxed);
        }
        let Some(labels) = labels else { return };
        let cancel = Arc::new(AtomicBool::new(false));
        self.current = Some((Arc::clone(&labels), Arc::clone(&cancel)));
        let (ws, answer) = (Arc::clone(ws), out.clone());
        let spawned = thread::Builder::new().name("grail-false-positives".into()).spawn(move || {
            let counted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                concentration(ws.dag(), &labels, SAMPLES, SEED, &cancel)
            }));
            let result = match counted {
                Ok(Ok(c)) => Ok(Box::new(c)),
                // Cancelled: other labels (or none) replaced these, and nobody waits for them.
                Ok(Err(_)) => return,
                Err(panic) => Err(format!("internal error: {}", crate::tui::terminal::payload_text(panic.as_ref()))),
            };
            let _ = answer.send(AppEvent::Worker(Msg::FalsePositives(labels, result)));
        });
        if let Err(e) = spawned {
            let _ = out.send(AppEvent::Worker(Msg::Error(format!("cannot count the false positives: {e}"))));
        }
    }
}

/// The worker going away (the explorer closing) stops the count: nobody is left to show it, and it
/// would hold the cores the process's other work (or the next session in the same process) needs.
impl Drop for BackgroundConcentration {
    fn drop(&mut self) {
        if let Some((_, cancel)) = self.current.take() {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::generators::GeneratorSpec;
    use crate::index::{Order, dfs};
    use std::sync::mpsc::channel;
    use std::time::Duration;

    fn workspace() -> Arc<Workspace> {
        let g = "random:n=120,deg=2,seed=4".parse::<GeneratorSpec>().unwrap().generate().unwrap();
        Arc::new(Workspace::of_graph(g, "random"))
    }

    fn next_count(
        events: &std::sync::mpsc::Receiver<AppEvent<Msg>>,
    ) -> (Arc<Labels>, Box<crate::exceptions::concentration::Concentration>) {
        loop {
            match events.recv_timeout(Duration::from_secs(60)).expect("the count answers") {
                AppEvent::Worker(Msg::FalsePositives(labels, Ok(c))) => return (labels, c),
                AppEvent::Worker(Msg::FalsePositives(_, Err(e))) => panic!("{e}"),
                _ => {}
            }
        }
    }

    #[test]
    fn counts_the_labels_followed_and_cancels_when_they_change() {
        let ws = workspace();
        let (out, events) = channel();
        let a = Arc::new(dfs::label(ws.dag(), 2, Order::Random { seed: 1 }).unwrap());
        let b = Arc::new(dfs::label(ws.dag(), 3, Order::Random { seed: 1 }).unwrap());
        let mut bg = BackgroundConcentration::default();
        bg.follow(&ws, Some(Arc::clone(&a)), &out);
        let (labels, counted) = next_count(&events);
        assert!(Arc::ptr_eq(&labels, &a), "the message names the labels it counted");
        let never = AtomicBool::new(false);
        assert_eq!(*counted, concentration(ws.dag(), &a, SAMPLES, SEED, &never).unwrap());
        assert_eq!(counted.dims, 2);
        // The same labels again: nothing restarts.
        bg.follow(&ws, Some(Arc::clone(&a)), &out);
        assert!(events.recv_timeout(Duration::from_millis(200)).is_err(), "no second count");
        // Other labels: the old count is cancelled, the new one answers with its own labels.
        let old = bg.current.as_ref().map(|(_, c)| Arc::clone(c)).unwrap();
        bg.follow(&ws, Some(Arc::clone(&b)), &out);
        assert!(old.load(Ordering::Relaxed), "the count of the old labels is cancelled");
        let (labels, counted) = next_count(&events);
        assert!(Arc::ptr_eq(&labels, &b));
        assert_eq!(counted.dims, 3);
        // No labels: nothing is followed, and the last count is cancelled.
        let last = bg.current.as_ref().map(|(_, c)| Arc::clone(c)).unwrap();
        bg.follow(&ws, None, &out);
        assert!(last.load(Ordering::Relaxed) && bg.current.is_none());
        // Dropped with a count in flight: the count is cancelled.
        bg.follow(&ws, Some(Arc::clone(&a)), &out);
        let in_flight = bg.current.as_ref().map(|(_, c)| Arc::clone(c)).unwrap();
        drop(bg);
        assert!(in_flight.load(Ordering::Relaxed), "dropping the worker cancels its count");
    }
}
