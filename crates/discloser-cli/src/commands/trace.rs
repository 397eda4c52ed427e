//! `discloser trace`: summaries of per-turn tool traces (format: [`crate::runtime::trace`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, load};
use crate::args::{Globals, TraceArgs};
use crate::report::runtime as report;
use crate::runtime::Runtime;
use crate::runtime::trace::{Trace, classify, summarize, turn_profiles};

/// Reads the traces and prints their summary.
pub fn run(
    globals: &Globals,
    args: &TraceArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = load(globals, &[], cwd)?;
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
