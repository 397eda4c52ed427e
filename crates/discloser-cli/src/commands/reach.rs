//! `discloser reach`: findability of tools from user utterances, a CI gate (see
//! [`crate::runtime::reach`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, load};
use crate::cli::Cli;
use crate::report::runtime as report;
use crate::runtime::reach::{Cases, reach};
use crate::runtime::{Format, Runtime};
use crate::source::SourceFile;

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

/// Checks every case; exit 1 when a gate of `reach:` in the config fails.
pub fn run(
    cli: &Cli,
    args: &ReachArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let (cases_path, paths) = match args.inputs.split_first() {
        Some((cases, paths)) if args.traces.is_empty() => (Some(PathBuf::from(cases)), paths),
        _ => (None, args.inputs.as_slice()),
    };
    let project = load(cli, paths, cwd)?;
    let runtime = Runtime::new(&project);
    let cases = match &cases_path {
        Some(path) => {
            let source = SourceFile::read(&cwd.join(path), path.clone())?;
            Cases::parse(&source, &runtime)?
        }
        None => {
            let trace = super::trace::read_traces(&args.traces, cwd)?;
            Cases::from_trace(&trace, &runtime).ok_or_else(|| {
                anyhow::anyhow!(
                    "no turn of the trace has both the user's message (`user`) and a call reached unbound (`catalog` or `search`): nothing to check"
                )
            })?
        }
    };
    let name = args
        .profile
        .as_deref()
        .or(cases.file.profile.as_deref())
        .unwrap_or(crate::project::DEFAULT_PROFILE);
    let profile = project.profile(name)?;
    let result = reach(&cases, &runtime, &profile, &project.config.reach);
    out.write_all(report::render_reach(&result, args.format).as_bytes())?;
    Ok(if result.failures.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Findings
    })
}
