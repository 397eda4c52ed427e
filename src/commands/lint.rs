//! `discloser lint`: the index contract as lint rules.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser lint`.
#[derive(Debug, clap::Args)]
pub struct LintArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &LintArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser lint` is not implemented yet")
}
