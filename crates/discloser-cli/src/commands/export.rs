//! `discloser export`: a profile's bound definitions as a provider's request expects them.
//!
//! The output is the request's `tools` value (for MCP, the `tools/list` result), pretty-printed
//! JSON with keys in the provider's order and tools sorted by name; `--index` wraps it as
//! `{"tools": ..., "index": "..."}` with the rendered index (text style) of the same profile,
//! so a runtime takes both halves of the prompt from one command. A reference into another
//! file is bundled into the tool's `$defs`: a provider receives a schema that refers to
//! nothing outside itself.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use super::Outcome;
use crate::args::{ExportArgs, Globals};
use crate::catalog::formats::export;
use crate::index::{Style, build_index, render};

/// Runs the command.
pub fn run(
    globals: &Globals,
    args: &ExportArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = super::load(globals, &args.paths, cwd)?;
    let profile = project.profile(&args.profile)?;
    let catalog = &project.catalog;
    let tools: Vec<usize> = (0..catalog.tools.len())
        .filter(|&i| profile.is_bound(&catalog.tools[i].name))
        .collect();
    let index = args.index.then(|| {
        let built = build_index(catalog, &profile, project.index_config());
        render(&built, Style::Text)
    });
    let document = export::document(args.provider, catalog, &tools, index.as_deref());
    let mut text = if args.compact {
        serde_json::to_string(&document)?
    } else {
        serde_json::to_string_pretty(&document)?
    };
    text.push('\n');
    match &args.out {
        // `-` is standard output, as for most tools that take a file to write.
        Some(path) if path.as_os_str() == "-" => out.write_all(text.as_bytes())?,
        Some(path) => {
            crate::fsutil::write_atomic(&cwd.join(path), text.as_bytes())
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            super::report_written(path, text.len());
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(Outcome::Ok)
}
