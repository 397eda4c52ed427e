//! `discloser trace`: summaries of per-turn tool traces (format: [`crate::runtime::trace`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, load};
use crate::cli::Cli;
use crate::report::runtime as report;
use crate::runtime::trace::{Trace, classify, summarize, turn_profiles};
use crate::runtime::{Format, Runtime};

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

/// Reads the traces and prints their summary.
pub fn run(
    cli: &Cli,
    args: &TraceArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = load(cli, &[], cwd)?;
    project.profile(&args.profile)?;
    let mut trace = read_traces(&args.files, cwd)?;
    let runtime = Runtime::new(&project);
    let classified = if args.classify {
        let profiles = turn_profiles(&trace, &project, &args.profile)?;
        classify(&mut trace, &runtime, &profiles)
    } else {
        0
    };
    let summary = summarize(&trace, &runtime, classified);
    out.write_all(report::render_trace(&summary, args.format).as_bytes())?;
    Ok(Outcome::Ok)
}

/// Reads trace files given on the command line (relative to `cwd`, shown as given).
pub fn read_traces(files: &[PathBuf], cwd: &Path) -> anyhow::Result<Trace> {
    let pairs: Vec<(PathBuf, PathBuf)> = files.iter().map(|f| (cwd.join(f), f.clone())).collect();
    Ok(Trace::load(&pairs)?)
}
