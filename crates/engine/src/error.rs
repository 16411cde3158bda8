//! The engine's error type: what went wrong, as a caller can match on it, with the cause kept as
//! the error's source.
//!
//! Each error is one sentence; a cause below it (the system's I/O error, the engine error a step
//! met) is its [`source`](std::error::Error::source), so a report that walks the chain (anyhow's
//! `{:#}`, or this type's own `{:#}`) prints `what was being done: why`. `{}` prints the first
//! sentence only.

use std::error::Error as StdError;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What the engine's fallible functions return.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why an engine call failed.
///
/// `{}` shows the error's own sentence; `{:#}` adds its causes, each after `: `, as anyhow's `{:#}`
/// does (`cannot load graph g.gra: cannot read g.gra: No such file or directory (os error 2)`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be opened, read, written, renamed or mapped.
    #[error(fmt = with_io_source)]
    Io {
        /// The file, where there is one (a stream handed in has none).
        path: Option<PathBuf>,
        /// What was being done, naming the file (`cannot read g.gra`).
        message: String,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// A file's content is not what its format allows: `FILE:LINE: found ...; expected ...`, or
    /// `FILE: ...` where no line is to blame (a binary file's header, a count that does not add up).
    #[error("{file}{}: {message}", line_suffix(*line))]
    Malformed {
        /// The file as the reader was given it (a path, or the name a caller chose for a text).
        file: String,
        /// The line, from 1, where one is to blame.
        line: Option<u64>,
        /// What was found and what was expected.
        message: String,
    },
    /// A graph the engine cannot take: an edge naming a vertex outside the graph, more vertices
    /// than 32-bit ids hold, a cycle where a DAG is needed, arrays that do not agree.
    #[error("{0}")]
    InvalidGraph(String),
    /// An argument outside what the call accepts: a vertex id out of range, zero dimensions, a
    /// generator's parameters it cannot meet, a step asked of a run in the wrong state, an engine
    /// that runs elsewhere.
    #[error("{0}")]
    InvalidInput(String),
    /// Not enough memory for what was asked (the message says how much).
    #[error("{0}")]
    OutOfMemory(String),
    /// The work stopped because its cancel flag was set.
    #[error("{0}")]
    Cancelled(Cancel),
    /// The labels' weight parent method counted paths past 64 bits (the exact method never does).
    #[error(transparent)]
    WeightOverflow(#[from] crate::index::pipeline::WeightOverflow),
    /// A step failed: the sentence says what was being done, the source says why.
    #[error(fmt = with_engine_source)]
    Context {
        /// What was being done (`cannot load graph g.gra`).
        message: String,
        /// Why it failed.
        #[source]
        source: Box<Error>,
    },
    /// An error from code outside the engine that runs through it (a back end implementing
    /// [`Labeler`](crate::index::labeler::Labeler)); shown with its causes. Made by [`Error::other`].
    #[error(fmt = with_own_sources)]
    Other(Box<dyn StdError + Send + Sync + 'static>),
}

/// What a cancelled piece of work was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Cancel {
    /// Loading a graph, through its [`Watch`](crate::graph::io::Watch).
    #[error("loading was cancelled")]
    Load,
    /// A labeling run, through its labeler's
    /// [`cancel_token`](crate::index::labeler::Labeler::cancel_token).
    #[error("labeling was cancelled")]
    Labeling,
    /// Another long pass through its flag: counting false positives, answering a closure's pairs.
    #[error("cancelled")]
    Work,
}

impl From<Cancel> for Error {
    fn from(what: Cancel) -> Error {
        Error::Cancelled(what)
    }
}

impl Error {
    /// An error from outside the engine (see [`Error::Other`]); an engine error in a box comes back
    /// as itself. (An `anyhow::Error` boxes its error in a type of its own: take an engine error
    /// out of one with anyhow's `downcast` first.)
    pub fn other(error: impl Into<Box<dyn StdError + Send + Sync + 'static>>) -> Error {
        match error.into().downcast::<Error>() {
            Ok(engine) => *engine,
            Err(other) => Error::Other(other),
        }
    }

    /// Whether this error, or a cause below it, is a cancellation.
    pub fn is_cancelled(&self) -> bool {
        match self {
            Error::Cancelled(_) => true,
            Error::Context { source, .. } => source.is_cancelled(),
            Error::Io { source, .. } => cancel_in_io(source),
            Error::Other(other) => is_cancelled(other.as_ref()),
            _ => false,
        }
    }

    /// The error under the context sentences: what really went wrong.
    pub fn root_cause(&self) -> &Error {
        match self {
            Error::Context { source, .. } => source.root_cause(),
            other => other,
        }
    }

    /// `path`'s I/O error, with what was being done.
    pub(crate) fn io(path: &Path, message: impl Into<String>, source: io::Error) -> Error {
        Error::Io { path: Some(path.to_path_buf()), message: message.into(), source }
    }

    /// `FILE:LINE: message`.
    pub(crate) fn malformed(file: impl Into<String>, line: u64, message: impl Into<String>) -> Error {
        Error::Malformed { file: file.into(), line: Some(line), message: message.into() }
    }

    /// `FILE: message` (no line to blame).
    pub(crate) fn malformed_file(file: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Malformed { file: file.into(), line: None, message: message.into() }
    }

    /// This error under the sentence `message`.
    pub(crate) fn context(self, message: impl Into<String>) -> Error {
        Error::Context { message: message.into(), source: Box::new(self) }
    }
}

/// Whether `error`, or anything in its chain of sources, is an engine cancellation (for errors that
/// travelled through other types, such as an `anyhow::Error`: pass `error.as_ref()`).
pub fn is_cancelled(error: &(dyn StdError + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(cause) = next {
        let engine = cause.downcast_ref::<Error>().or_else(|| cause.downcast_ref::<Box<Error>>().map(|b| &**b));
        if let Some(engine) = engine {
            return engine.is_cancelled();
        }
        if cause.downcast_ref::<Cancel>().is_some() || cause.downcast_ref::<io::Error>().is_some_and(cancel_in_io) {
            return true;
        }
        next = cause.source();
    }
    false
}

/// Whether an I/O error carries a [`Cancel`] (a watched reader's read after the flag was set).
fn cancel_in_io(error: &io::Error) -> bool {
    error.get_ref().is_some_and(|inner| inner.downcast_ref::<Cancel>().is_some())
}

/// `:LINE` when there is a line.
fn line_suffix(line: Option<u64>) -> String {
    line.map(|line| format!(":{line}")).unwrap_or_default()
}

/// `message`, and with `{:#}` every cause from `source` down.
fn with_sources(message: &str, source: &(dyn StdError + 'static), f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(message)?;
    if f.alternate() {
        let mut next = Some(source);
        while let Some(cause) = next {
            write!(f, ": {cause}")?;
            next = cause.source();
        }
    }
    Ok(())
}

fn with_io_source(_: &Option<PathBuf>, message: &str, source: &io::Error, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    with_sources(message, source, f)
}

fn with_engine_source(message: &str, source: &Error, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    with_sources(message, source, f)
}

/// An outside error has no source of its own here: its whole chain is its sentence.
fn with_own_sources<E>(error: &E, f: &mut fmt::Formatter<'_>) -> fmt::Result
where
    E: std::ops::Deref<Target = dyn StdError + Send + Sync + 'static>,
{
    let error: &(dyn StdError + 'static) = &**error;
    write!(f, "{error}")?;
    let mut next = error.source();
    while let Some(cause) = next {
        write!(f, ": {cause}")?;
        next = cause.source();
    }
    Ok(())
}

/// Adds what was being done to a failed step's error (the engine's own `.context`).
pub(crate) trait ErrorContext<T> {
    /// The error under the sentence `message`.
    fn context(self, message: impl Into<String>) -> Result<T>;

    /// The error under the sentence `message()` makes (only when there is an error).
    fn with_context<S: Into<String>>(self, message: impl FnOnce() -> S) -> Result<T>;
}

impl<T, E: Into<Error>> ErrorContext<T> for std::result::Result<T, E> {
    fn context(self, message: impl Into<String>) -> Result<T> {
        self.map_err(|e| e.into().context(message))
    }

    fn with_context<S: Into<String>>(self, message: impl FnOnce() -> S) -> Result<T> {
        self.map_err(|e| e.into().context(message()))
    }
}

/// Turns a system I/O error into an [`Error::Io`] naming the file.
pub(crate) trait IoContext<T> {
    /// The I/O error of `path`, under the sentence `message()` makes.
    fn io_context<S: Into<String>>(self, path: &Path, message: impl FnOnce() -> S) -> Result<T>;
}

impl<T> IoContext<T> for io::Result<T> {
    fn io_context<S: Into<String>>(self, path: &Path, message: impl FnOnce() -> S) -> Result<T> {
        self.map_err(|e| Error::io(path, message(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternate_shows_the_chain_as_anyhow_does() {
        let io = io::Error::new(io::ErrorKind::NotFound, "No such file or directory");
        let error = Error::io(Path::new("g.gra"), "cannot read g.gra", io).context("cannot load graph g.gra");
        assert_eq!(error.to_string(), "cannot load graph g.gra");
        assert_eq!(format!("{error:#}"), "cannot load graph g.gra: cannot read g.gra: No such file or directory");
        let anyhow_shown = format!("{:#}", anyhow::Error::new(error));
        assert_eq!(anyhow_shown, "cannot load graph g.gra: cannot read g.gra: No such file or directory");
    }

    #[test]
    fn malformed_names_the_file_and_line() {
        assert_eq!(Error::malformed("g.txt", 3, "found x; expected y").to_string(), "g.txt:3: found x; expected y");
        assert_eq!(Error::malformed_file("g.grail", "corrupt").to_string(), "g.grail: corrupt");
    }

    #[test]
    fn cancellations_are_found_under_context_and_inside_io_errors() {
        let read = Error::io(Path::new("g.gra"), "cannot read g.gra", io::Error::other(Cancel::Load));
        assert!(read.is_cancelled());
        let wrapped = read.context("cannot load graph g.gra");
        assert!(wrapped.is_cancelled());
        assert!(is_cancelled(&wrapped));
        assert!(is_cancelled(anyhow::Error::new(wrapped).context("opening").as_ref()));
        assert!(!Error::InvalidInput("no".into()).is_cancelled());
        assert!(Error::other(Error::from(Cancel::Labeling)).is_cancelled());
    }

    #[test]
    fn an_engine_error_comes_back_whole() {
        let boxed: Box<dyn StdError + Send + Sync> = Box::new(Error::from(Cancel::Labeling));
        assert!(matches!(Error::other(boxed), Error::Cancelled(Cancel::Labeling)));
        // Carried in anyhow, it comes back by anyhow's downcast (anyhow's box of it is its own).
        let carried = anyhow::Error::from(Error::malformed("g.txt", 2, "found x; expected y"));
        let back = carried.downcast::<Error>().unwrap_or_else(Error::other);
        assert!(matches!(&back, Error::Malformed { line: Some(2), .. }), "{back:?}");
    }

    #[test]
    fn an_outside_error_keeps_its_chain() {
        let outside = anyhow::anyhow!("the driver failed").context("GPU labeling failed");
        let error = Error::other(outside);
        assert_eq!(error.to_string(), "GPU labeling failed: the driver failed");
        assert!(error.source().is_none());
    }
}
