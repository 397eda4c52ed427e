//! `discloser check`: compare the model-facing bytes with the snapshots; never writes.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &CheckArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser check` is not implemented yet")
}
