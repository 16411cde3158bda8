//! `grail completions SHELL` and `grail man`: the shell completion scripts and the manual pages,
//! generated from the same clap definition as `--help`, so they never disagree with it.

use super::Cli;
use anyhow::{Context, Result};
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::path::PathBuf;

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

pub fn completions(args: CompletionsArgs) -> Result<()> {
    clap_complete::generate(args.shell, &mut Cli::command(), "grail", &mut std::io::stdout());
    Ok(())
}

pub fn man(args: ManArgs) -> Result<()> {
    let command = Cli::command();
    match args.out {
        None => clap_mangen::Man::new(command).render(&mut std::io::stdout()).context("writing the manual page"),
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(command, &dir)
                .with_context(|| format!("writing manual pages into {}", dir.display()))
        }
    }
}
