//! `discloser suggest`: a starter set chosen from real usage.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser suggest`.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &SuggestArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser suggest` is not implemented yet")
}
