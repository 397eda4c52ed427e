//! `discloser man`: the man page.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &ManArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser man` is not implemented yet")
}
