//! `grail completions SHELL` and `grail man`: the shell completion scripts and the manual pages,
//! generated from the same clap definition as `--help`, so they never disagree with it.

use crate::graph::io::{all_or_nothing, write_atomically};
use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write `grail.1` and one `grail-COMMAND.1` per command into this folder instead of printing
    /// the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints the completion script of `command` (grail's, from `Cli::command()`).
pub fn completions(args: CompletionsArgs, mut command: clap::Command) -> Result<()> {
    clap_complete::generate(args.shell, &mut command, "grail", &mut std::io::stdout());
    Ok(())
}

/// Prints or writes the manual pages of `command` (grail's, from `Cli::command()`). Every page is
/// rendered and written beside its file first; the pages replace the old ones only when all were
/// written.
pub fn man(args: ManArgs, command: clap::Command) -> Result<()> {
    match args.out {
        None => clap_mangen::Man::new(command).render(&mut std::io::stdout()).context("writing the manual page"),
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let mut command = command.disable_help_subcommand(true);
            command.build();
            all_or_nothing(|| write_pages(command, &dir))
                .with_context(|| format!("writing manual pages into {}", dir.display()))
        }
    }
}

/// Writes the page of `command` and of each of its visible subcommands, as `clap_mangen` names them.
fn write_pages(command: clap::Command, dir: &Path) -> Result<()> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        write_pages(sub, dir)?;
    }
    let page = clap_mangen::Man::new(command);
    let mut text = Vec::new();
    page.render(&mut text).context("rendering a manual page")?;
    Ok(write_atomically(&dir.join(page.get_filename()), |mut file| file.write_all(&text))?)
}
