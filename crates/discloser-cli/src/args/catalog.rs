//! Flags of the commands that read a catalog and print what the model sees: `render`, `tools`,
//! `cost` and `export`.

use std::path::PathBuf;

use crate::cost::{Provider, TokenizerKind};
use crate::index::Style;

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

/// `discloser cost`.
#[derive(Debug, clap::Args)]
pub struct CostArgs {
    /// Tool files, directories or globs to load instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Profiles to compare (repeatable; default: every profile, in config order).
    #[arg(long, short)]
    pub profile: Vec<String>,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value_t = TokenizerKind::O200k)]
    pub tokenizer: TokenizerKind,
    /// How each tool definition is serialised before counting.
    #[arg(long, value_enum, default_value_t = Provider::Raw)]
    pub provider: Provider,
    /// Also show each tool's full definition against its index entry.
    #[arg(long)]
    pub by_tool: bool,
    /// Also show the definition tokens paid over a conversation of N turns.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub turns: Option<u32>,
    /// Price factor of cached prefix tokens from the second turn on (with `--turns`).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub cache_read_discount: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// Also draw the comparison as an SVG bar chart into this file (written atomically).
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
}

/// Formats of reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// An aligned text table.
    Table,
    /// A Markdown table, for pull requests.
    Markdown,
    /// JSON, with documented field names.
    Json,
    /// CSV with a header row.
    Csv,
}

/// `discloser export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Tool files, directories or globs to load instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// The profile whose bound tools (starter set and core tools) are exported.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// The request format.
    #[arg(long, value_enum)]
    pub provider: Provider,
    /// Also emit the rendered index: `{"tools": ..., "index": "..."}`.
    #[arg(long)]
    pub index: bool,
    /// Compact JSON on one line instead of pretty-printed.
    #[arg(long)]
    pub compact: bool,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}
