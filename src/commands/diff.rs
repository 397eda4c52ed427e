//! `discloser diff`: compare two versions of a catalog's index.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &DiffArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser diff` is not implemented yet")
}
