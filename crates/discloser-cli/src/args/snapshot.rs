//! Flags of the commands that compare model-facing bytes: `snapshot`, `check` and `diff`.

use std::path::PathBuf;

use crate::cost::{Provider, TokenizerKind};

/// `discloser snapshot`.
#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {
    /// Providers whose definitions are written (repeatable; default: those already in the
    /// snapshot folder, else `raw`).
    #[arg(long, value_enum)]
    pub provider: Vec<Provider>,
    /// Remove snapshot files of profiles and providers that are no longer rendered.
    #[arg(long)]
    pub prune: bool,
    /// The snapshot folder (default: `snapshots.dir` of the config, relative to the config).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `discloser check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Providers whose definitions files are checked (repeatable; default: those already in the
    /// snapshot folder, else `raw`).
    #[arg(long, value_enum)]
    pub provider: Vec<Provider>,
    /// The snapshot folder (default: `snapshots.dir` of the config, relative to the config).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// How the tokens of the cache figures are counted.
    #[arg(long, value_enum, default_value_t = TokenizerKind::O200k)]
    pub tokenizer: TokenizerKind,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// Output formats of `check` and `diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Text for people: summary, positions, cache impact, unified diffs.
    Text,
    /// The same facts as JSON, pretty-printed.
    Json,
}

/// `discloser diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The old version: a config file or a directory (a directory is read through its
    /// `discloser.yaml`, or as tool files when it has none; a file without a `sources` key is
    /// read as a tool file).
    #[arg(value_name = "OLD", requires = "new")]
    pub old: Option<PathBuf>,
    /// The new version, given like OLD.
    #[arg(value_name = "NEW")]
    pub new: Option<PathBuf>,
    /// Compare the config as it is at git revision REV (old) with the working tree (new),
    /// reading the revision through git without touching the work tree.
    #[arg(long, value_name = "REV", conflicts_with_all = ["old", "profiles"])]
    pub git: Option<String>,
    /// Compare two profiles of the config: what changes for the model when a turn switches
    /// from profile A to profile B.
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "old")]
    pub profiles: Option<Vec<String>>,
    /// How the definitions are serialised.
    #[arg(long, value_enum, default_value_t = Provider::Raw)]
    pub provider: Provider,
    /// How tokens are counted (cache figures and token deltas).
    #[arg(long, value_enum, default_value_t = TokenizerKind::O200k)]
    pub tokenizer: TokenizerKind,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}
