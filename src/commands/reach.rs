//! `discloser reach`: findability of tools from user utterances.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser reach`.
#[derive(Debug, clap::Args)]
pub struct ReachArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &ReachArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser reach` is not implemented yet")
}
