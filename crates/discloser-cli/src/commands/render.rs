//! `discloser render`: the index of a profile, to standard output or a file.

use std::io::Write;

use anyhow::Context;

use super::Outcome;
use crate::cli::RenderArgs;
use crate::index::{build_index, render};
use crate::project::Project;

/// Renders the index of `args.profile`.
pub fn run(
    project: &Project,
    args: &RenderArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let profile = project.profile(&args.profile)?;
    let index = build_index(&project.catalog, &profile, project.index_config());
    for warning in &index.warnings {
        writeln!(
            warnings,
            "warning: tool `{}`: {}",
            warning.tool, warning.message
        )?;
    }
    let text = render(&index, args.style);
    match &args.out {
        // `-` is standard output, as for most tools that take a file to write.
        Some(path) if path.as_os_str() == "-" => out.write_all(text.as_bytes())?,
        Some(path) => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            super::report_written(path, text.len());
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(Outcome::Ok)
}
