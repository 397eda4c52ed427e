//! `discloser search`: keyword scoring over the shared trigger vocabulary.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &SearchArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser search` is not implemented yet")
}
