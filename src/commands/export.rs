//! `discloser export`: a profile's bound definitions as a provider expects them.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &ExportArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser export` is not implemented yet")
}
