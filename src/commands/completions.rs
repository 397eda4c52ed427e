//! `discloser completions`: shell completion scripts.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &CompletionsArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser completions` is not implemented yet")
}
