//! `discloser import`: foreign tool definitions into the native YAML format.
//!
//! Not implemented yet: the command exists so its arguments and dispatch have a home.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::cli::Cli;

/// `discloser import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {}

/// Runs the command.
pub fn run(
    _cli: &Cli,
    _args: &ImportArgs,
    _cwd: &Path,
    _out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    anyhow::bail!("`discloser import` is not implemented yet")
}
