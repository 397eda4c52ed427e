//! Flags of the commands that score a catalog as an agent runtime uses it: `search`, `trace`,
//! `reach` and `suggest`.

use std::path::PathBuf;

use crate::cost::{Provider, TokenizerKind};
use crate::project::DEFAULT_PROFILE;
use crate::runtime::trigger_words;
use crate::runtime::{Format, SEARCH_LIMIT};

/// `discloser search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What the user said, in any language.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// Tool files, directories or globs to search instead of the config's sources.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// How many tools to show.
    #[arg(long, value_name = "K", default_value_t = SEARCH_LIMIT)]
    pub limit: usize,
    /// The profile that decides which tools show as bound or indexed.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `discloser trace`.
#[derive(Debug, clap::Args)]
pub struct TraceArgs {
    /// Trace files (JSON Lines, one turn per line; or OpenTelemetry GenAI spans as OTLP JSON).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Assign an origin to every call that has none (bound, catalog, search or unknown).
    #[arg(long)]
    pub classify: bool,
    /// The profile of turns that do not record one.
    #[arg(long, short, default_value = crate::project::DEFAULT_PROFILE)]
    pub profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `discloser reach`.
#[derive(Debug, clap::Args)]
pub struct ReachArgs {
    /// The cases file (YAML or JSON): utterances and the tools each should reach; then tool
    /// files, directories or globs to load instead of the config's sources. With `--trace`,
    /// every argument is a tool path (give them before `--trace`).
    #[arg(value_name = "CASES|PATH", required_unless_present = "traces")]
    pub inputs: Vec<String>,
    /// Take the cases from trace files instead (JSON Lines, or OpenTelemetry GenAI spans as
    /// OTLP JSON): each turn's user message (`user`) should reach
    /// the tools the model called unbound in it (origin `catalog` or `search`).
    #[arg(long = "trace", value_name = "FILE", num_args = 1..)]
    pub traces: Vec<PathBuf>,
    /// The profile to check (default: the file's `profile`, else `default`).
    #[arg(long, short)]
    pub profile: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `discloser suggest`.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {
    /// Trace files (JSON Lines, one turn per line; or OpenTelemetry GenAI spans as OTLP JSON).
    #[arg(
        long = "trace",
        value_name = "FILE",
        required_unless_present = "from_text",
        num_args = 1..
    )]
    pub traces: Vec<PathBuf>,
    /// The profile whose starter set is re-chosen, from the trace's turns of that profile.
    #[arg(long, short, default_value = DEFAULT_PROFILE)]
    pub profile: String,
    /// Tokens a wasted round trip costs (default: the trace's mean input tokens per turn).
    #[arg(long, value_name = "N")]
    pub round_trip: Option<u64>,
    /// Add the suggested starter set to `discloser.yaml` as profile NAME (atomically).
    #[arg(long, value_name = "NAME")]
    pub write_profile: Option<String>,
    /// With `--write-profile`: write it even when a change rests on low evidence (fewer than
    /// 10 turns).
    #[arg(long, requires = "write_profile")]
    pub force: bool,
    /// How tokens are counted.
    #[arg(long, value_enum, default_value_t = TokenizerKind::O200k)]
    pub tokenizer: TokenizerKind,
    /// How each tool definition is serialised before counting.
    #[arg(long, value_enum, default_value_t = Provider::Raw)]
    pub provider: Provider,
    /// Propose trigger words instead: per tool, the words users typed in the turns that needed
    /// it (traces need the per-turn `user` message).
    #[arg(long)]
    pub triggers: bool,
    /// With `--triggers`: the most candidates shown per tool.
    #[arg(long, value_name = "N", default_value_t = trigger_words::DEFAULT_LIMIT, requires = "triggers")]
    pub limit: usize,
    /// With `--triggers`: write the proposals as a trigger file (each tool's triggers plus its
    /// candidates, to review) for `triggers:` in `discloser.yaml`; never replaces a file.
    #[arg(
        long,
        value_name = "FILE",
        requires = "triggers",
        conflicts_with = "from_text"
    )]
    pub write_triggers: Option<PathBuf>,
    /// With `--triggers`: add the candidates to each tool's triggers in `overrides:` of
    /// `discloser.yaml` (atomically, every other byte of the file kept).
    #[arg(long, requires = "triggers", conflicts_with = "from_text")]
    pub write: bool,
    /// With `--triggers`: candidates from each tool's own name and description instead of
    /// traces (the ones `init` writes as comments), for a person to choose from; never written.
    #[arg(long, requires = "triggers")]
    pub from_text: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}
