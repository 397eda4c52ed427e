//! Flags of the commands that describe the command line itself: `completions` and `man`.

use std::path::PathBuf;

use clap_complete::Shell;

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

/// `discloser man`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Read it with `discloser man | man -l -`.")]
pub struct ManArgs {
    /// Write `discloser.1` and one page per subcommand into this directory instead.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}
