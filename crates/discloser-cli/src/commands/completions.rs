//! `discloser completions`: shell completion scripts, generated from the clap definitions in
//! [`crate::cli`], so they always offer exactly the subcommands, flags and values the binary
//! accepts.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use super::Outcome;
use crate::cli::Cli;

/// `discloser completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, for example:
  bash:       discloser completions bash > ~/.local/share/bash-completion/completions/discloser
  zsh:        discloser completions zsh > \"${fpath[1]}/_discloser\"
  fish:       discloser completions fish > ~/.config/fish/completions/discloser.fish
  powershell: discloser completions powershell >> $PROFILE")]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the completion script of `args.shell` to `out`.
pub fn run(
    _cli: &Cli,
    args: &CompletionsArgs,
    _cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    // Generated into memory first: a closed pipe then surfaces as one io::Error (exit 0).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "discloser", &mut script);
    out.write_all(&script)?;
    Ok(Outcome::Ok)
}
