//! The one event type the UI loop waits on: terminal input (from the input thread) and messages from
//! the worker thread arrive on the same channel.

use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

/// `M` is the worker's message type: the worker sends events of this type, and this module need not
/// know the worker.
#[derive(Debug)]
pub enum AppEvent<M> {
    Input(crossterm::event::Event),
    Worker(M),
    /// Nothing happened for a while: refresh the clock-driven parts (memory).
    Tick,
    /// The input thread failed to read the terminal.
    InputError(String),
}

/// Reads terminal events on a thread of its own and forwards them. It stops when the receiver is
/// gone (the UI quit).
pub fn spawn_input_thread<M: Send + 'static>(tx: Sender<AppEvent<M>>) {
    thread::Builder::new()
        .name("grail-input".into())
        .spawn(move || {
            loop {
                match crossterm::event::poll(Duration::from_millis(200)) {
                    Ok(true) => match crossterm::event::read() {
                        Ok(event) => {
                            if tx.send(AppEvent::Input(event)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(AppEvent::InputError(e.to_string()));
                            return;
                        }
                    },
                    Ok(false) => {
                        // Nothing typed: check that someone still listens.
                        if tx.send(AppEvent::Tick).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(AppEvent::InputError(e.to_string()));
                        return;
                    }
                }
            }
        })
        .expect("cannot start the input thread");
}
