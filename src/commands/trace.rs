//! `discloser trace`: summaries of per-turn tool traces.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser trace`.
#[derive(Debug, clap::Args)]
pub struct TraceArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &TraceArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser trace` is not implemented yet")
}
