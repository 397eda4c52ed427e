//! `discloser completions`: shell completion scripts, generated from the clap definitions in
//! [`crate::args`], so they always offer exactly the subcommands, flags and values the binary
//! accepts.

use std::io::Write;
use std::path::Path;

use super::Outcome;
use crate::args::{CompletionsArgs, Globals};

/// Writes the completion script of `args.shell` to `out`.
pub fn run(
    _globals: &Globals,
    args: &CompletionsArgs,
    _cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    // Generated into memory first: a closed pipe then surfaces as one io::Error (exit 0).
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::args::command(),
        "discloser",
        &mut script,
    );
    out.write_all(&script)?;
    Ok(Outcome::Ok)
}
