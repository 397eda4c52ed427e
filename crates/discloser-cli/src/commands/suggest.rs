//! `discloser suggest`: a starter set chosen from real usage (cost model:
//! [`crate::runtime::suggest`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, load};
use crate::cli::Cli;
use crate::cost::{Provider, TokenizerKind};
use crate::numfmt::thousands;
use crate::project::DEFAULT_PROFILE;
use crate::report::runtime as report;
use crate::runtime::suggest::{SuggestOptions, WrittenProfile, suggest};
use crate::runtime::write_profile::write_profile;
use crate::runtime::{Format, Runtime};

/// `discloser suggest`.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {
    /// Trace files (JSON Lines, one turn per line; repeatable).
    #[arg(long = "trace", value_name = "FILE", required = true, num_args = 1..)]
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
    /// How tokens are counted.
    #[arg(long, value_enum, default_value_t = TokenizerKind::O200k)]
    pub tokenizer: TokenizerKind,
    /// How each tool definition is serialised before counting.
    #[arg(long, value_enum, default_value_t = Provider::Raw)]
    pub provider: Provider,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Suggests the starter set, prints why, and writes it when asked.
pub fn run(
    cli: &Cli,
    args: &SuggestArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = load(cli, &[], cwd)?;
    project.profile(&args.profile)?;
    let trace = super::trace::read_traces(&args.traces, cwd)?;
    let runtime = Runtime::new(&project);
    let options = SuggestOptions {
        profile: args.profile.clone(),
        round_trip: args.round_trip,
        provider: args.provider,
        tokenizer: args.tokenizer,
    };
    let mut suggestion = suggest(&project, &runtime, &trace, &options)?;
    if let Some(name) = &args.write_profile {
        let (current, suggested) = (&suggestion.sets[0], &suggestion.sets[1]);
        let comment = format!(
            "suggested by `discloser suggest` from {} turns of `{}`: {} expected tokens per turn (was {})",
            suggestion.turns,
            suggestion.profile,
            thousands(suggested.expected_tokens.round() as i64),
            thousands(current.expected_tokens.round() as i64),
        );
        let path = write_profile(&project, name, &suggestion.starter, &comment)?;
        suggestion.written = Some(WrittenProfile {
            name: name.clone(),
            path: path.display().to_string(),
        });
    }
    let files: Vec<String> = args
        .traces
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    out.write_all(report::render_suggestion(&suggestion, &files, args.format).as_bytes())?;
    Ok(Outcome::Ok)
}
