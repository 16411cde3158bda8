//! Exit statuses apart from success and failure.

/// The exit statuses, for `--help`.
pub const EXIT_STATUS: &str = "Exit status: 0 done; 1 could not run (an unreadable file, a value the command \
                               refuses once it reads the graph); 2 the command line did not parse (an unknown \
                               option, a value of the wrong form or range); 3 ran, but results disagree with what \
                               they were checked against (a query file's expected column, another engine, the \
                               CPU). With --json, a failure's message is also a JSON object on stdout.";

/// A command ran to the end, but its results disagree with what they were checked against: exit
/// status 3, apart from 1 (the command could not run), so that a pipeline can tell the two apart.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Disagreement(pub String);

/// Exit status 3: see [`Disagreement`].
pub const DISAGREEMENT_EXIT: u8 = 3;
