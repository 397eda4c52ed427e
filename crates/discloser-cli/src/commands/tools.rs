//! `discloser tools`: the catalog as a table.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::{Outcome, for_this_run, load};
use crate::args::{Globals, TableFormat, ToolsArgs};
use crate::diagnostic::location;
use crate::index::{normalize_triggers, signature::signature};
use crate::source::Target;

#[derive(Serialize)]
struct Row {
    name: String,
    state: &'static str,
    required: Vec<String>,
    triggers: usize,
    source: String,
}

/// Prints every tool with its state in the profile.
pub fn run(
    globals: &Globals,
    args: &ToolsArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let project = for_this_run(load(globals, &args.paths, cwd)?);
    let profile = project.profile(&args.profile)?;
    let catalog = &project.catalog;
    // Every tool's position at once: each file's positions are parsed once, then freed.
    let requests: Vec<_> = catalog
        .tools
        .iter()
        .map(|t| (t.origin.file, t.origin.pointer_to(""), Target::Value))
        .collect();
    let positions = catalog.locate_many(&requests);
    drop(requests);
    let tools: Vec<_> = catalog.tools.iter().zip(positions).enumerate().collect();
    let row = |(i, (tool, pos)): (usize, (&crate::catalog::Tool, _))| {
        // Unpacked for this row only, as far as a signature reads (see `catalog::Parameters`).
        let sig = tool.parameters.with_required(|root| {
            let root = crate::catalog::Schema {
                doc: crate::catalog::DocId::Tool(i),
                value: root,
            };
            signature(
                catalog,
                &tool.name,
                root,
                project.index_config().max_enum_values,
            )
        });
        Row {
            name: tool.name.clone(),
            state: match (tool.core, profile.is_bound(&tool.name)) {
                (true, _) => "core",
                (false, true) => "bound",
                (false, false) => "indexed",
            },
            required: sig.required.iter().map(|p| p.name.clone()).collect(),
            triggers: normalize_triggers(&tool.triggers).len(),
            source: location(&catalog.file_of(tool).path, Some(pos)),
        }
    };
    match args.format {
        TableFormat::Json => {
            let rows = crate::catalog::parallel::map(tools, row);
            // Serialise first: a closed pipe then surfaces as an io::Error (exit 0).
            let text = serde_json::to_string_pretty(&rows)?;
            writeln!(out, "{text}")?;
        }
        TableFormat::Table => {
            let header = ["tool", "state", "required", "triggers", "source"].map(String::from);
            // Each row's cells made at once: the rows are never all held twice.
            let cells = crate::catalog::parallel::map(tools, |tool| {
                let row = row(tool);
                vec![
                    row.name,
                    row.state.to_owned(),
                    row.required.join(", "),
                    row.triggers.to_string(),
                    row.source,
                ]
            });
            // The shared table shows control characters in names as visible ones; it is written
            // line by line, never held whole.
            crate::table::write(out, &header, &cells, false, &[3])?;
        }
    }
    Ok(Outcome::Ok)
}
