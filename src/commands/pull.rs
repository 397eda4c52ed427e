//! `discloser pull`: tool definitions of a live MCP server.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser pull`.
#[derive(Debug, clap::Args)]
pub struct PullArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &PullArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser pull` is not implemented yet")
}
