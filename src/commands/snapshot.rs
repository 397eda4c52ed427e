//! `discloser snapshot`: write the model-facing bytes of every profile.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser snapshot`.
#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &SnapshotArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser snapshot` is not implemented yet")
}
