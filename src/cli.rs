//! Command-line arguments (clap derive): one struct per subcommand, global flags on [`Cli`].

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::index::Style;

/// Render, diff, cost and lint the tool index of an LLM agent.
#[derive(Debug, Parser)]
#[command(name = "discloser", version, about, long_about = None)]
pub struct Cli {
    /// The config file (default: `discloser.yaml` in the current directory or a parent).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the index of the tools a profile does not bind.
    Render(RenderArgs),
    /// List the catalog: each tool, bound or indexed in a profile, and where it comes from.
    Tools(ToolsArgs),
}

/// `discloser render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Tool files, directories or globs to load instead of the config's sources (no config is
    /// read; default index settings; only core tools are bound).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// The profile whose unbound tools are indexed.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// Output style.
    #[arg(long, value_enum, default_value_t = Style::Text)]
    pub style: Style,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `discloser tools`.
#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// Tool files, directories or globs to load instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// The profile that decides which tools are bound.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Formats of tabular output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// An aligned text table.
    Table,
    /// A JSON array of rows.
    Json,
}
