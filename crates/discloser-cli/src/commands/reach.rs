//! `discloser reach`: findability of tools from user utterances, a CI gate (see
//! [`crate::runtime::reach`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Outcome, load};
use crate::args::{Globals, ReachArgs};
use crate::report::runtime as report;
use crate::runtime::Runtime;
use crate::runtime::reach::{Cases, reach};
use crate::source::SourceFile;

/// Checks every case; exit 1 when a gate of `reach:` in the config fails.
pub fn run(
    globals: &Globals,
    args: &ReachArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let (cases_path, paths) = match args.inputs.split_first() {
        Some((cases, paths)) if args.traces.is_empty() => (Some(PathBuf::from(cases)), paths),
        _ => (None, args.inputs.as_slice()),
    };
    let project = load(globals, paths, cwd)?;
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
