//! Flags of the commands that bring tool definitions in: `init`, `import`, `pull` and `lock`.

use std::path::PathBuf;

use crate::catalog::formats::Format;
use crate::mcp;

/// `discloser init`.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// Tool files, directories or globs to list as sources (relative to the current directory,
    /// where the config is written).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// The commands after `--` start MCP servers over stdio; separate several with `--`
    /// (`--mcp -- npx -y server-a -- npx -y server-b`).
    #[arg(long)]
    pub mcp: bool,
    /// Replace an existing `discloser.yaml` (and pins of its servers).
    #[arg(long)]
    pub force: bool,
    /// Seconds each server may take to start and list its tools.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::live::DEFAULT_TIMEOUT.as_secs_f64())]
    pub timeout: f64,
    /// The servers' commands, after `--mcp --`.
    #[arg(last = true, value_name = "COMMAND")]
    pub commands: Vec<String>,
}

/// `discloser import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Tool files in any format discloser reads (OpenAI, Anthropic, MCP, Gemini, ...).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The format every FILE is in (default: detected per file).
    // `--format`, its older name, stays a hidden alias for a release: every other `--format`
    // names an output format.
    #[arg(long = "from", alias = "format", value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Write the YAML to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Replace `--out` if it exists.
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// `discloser pull`.
#[derive(Debug, clap::Args)]
pub struct PullArgs {
    /// The server speaks MCP over stdio: the only kind of server `pull` talks to, so the flag
    /// may be left out.
    #[arg(long)]
    pub mcp: bool,
    /// Write the tools to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Seconds the whole exchange (start, handshake, every page of `tools/list`) may take.
    #[arg(long, value_name = "SECONDS", default_value_t = mcp::DEFAULT_TIMEOUT.as_secs_f64())]
    pub timeout: f64,
    /// The server's command and arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// `discloser lock`.
#[derive(Debug, clap::Args)]
pub struct LockArgs {
    /// Write nothing: start the servers and report how their tools differ from the pins; exit 1
    /// when any does (for CI).
    #[arg(long)]
    pub check: bool,
}
