//! One way every command answers: a human table on stdout, or with `--json` one JSON object.
//!
//! A command builds one report value, implements [`Report::print`] for people, and hands it to
//! [`Output::show`]; it never branches on `--json` itself. Progress and notes go to stderr either
//! way, so stdout stays one parseable object under `--json`.

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

/// The `--json` switch every command shares.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct Output {
    /// Print one JSON object instead of a table (on failure: `{"error": ..., "exit_code": N}`, N the exit status).
    #[arg(long)]
    pub json: bool,
}

/// A command's result: serialised for `--json`, printed for people otherwise.
pub trait Report: Serialize {
    /// The human form, on stdout.
    fn print(&self);
}

impl Output {
    /// Prints `report` in the chosen form.
    pub fn show(self, report: &impl Report) -> Result<()> {
        if self.json {
            print_json(report)
        } else {
            report.print();
            Ok(())
        }
    }

    /// Lines meant for people as the work goes (a self-test's per-graph verdicts) print only
    /// without `--json`.
    pub fn human(self) -> bool {
        !self.json
    }
}

/// Prints one JSON object on stdout.
pub fn print_json(value: &impl Serialize) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value).context("cannot encode the result as JSON")?);
    Ok(())
}

/// A vertex of a report (a [`crate::graph::VertexNames::json_id`]: a file id or a name) as the
/// table shows it: the name without JSON's quotes.
pub fn vertex_text(id: &serde_json::Value) -> String {
    match id {
        // A name is shown as it is typed back: quoted where it holds a space, a comma or a quote.
        serde_json::Value::String(name) => crate::graph::io::quoted(name),
        other => other.to_string(),
    }
}
